import { describe, expect, it } from 'vitest';
import { formatCallbackState, parseCallbackState } from './callback-state';

describe('calendar callback state', () => {
  it('reads vet_id, lang and access from key:value pairs in any order', () => {
    expect(parseCallbackState('lang:pt-BR access:vet vet_id:12')).toStrictEqual({
      vetId: 12,
      lang: 'pt-BR',
      access: 'vet',
    });
  });

  it('round-trips what the authorize URL carries', () => {
    expect(parseCallbackState(formatCallbackState(7, 'en', 'vet'))).toStrictEqual({
      vetId: 7,
      lang: 'en',
      access: 'vet',
    });
  });

  it('leaves out what is missing or malformed', () => {
    expect(parseCallbackState(null)).toStrictEqual({ vetId: undefined, lang: undefined, access: undefined });
    expect(parseCallbackState('vet_id:abc lang:fr access:')).toStrictEqual({
      vetId: undefined,
      lang: undefined,
      access: undefined,
    });
    expect(parseCallbackState('vet_id:0').vetId).toBeUndefined();
  });
});
