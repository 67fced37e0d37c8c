import { beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { addPortugueseCatalogs, initTestI18n } from '../test/render';
import { ApiError, parseApiError } from './api-client';
import { actionErrorMessage, apiErrorMessage } from './form-errors';

const refused = (retryAfter: string | null) =>
  parseApiError(429, 'Too Many Requests', JSON.stringify({ error: 'too_many_requests', message: 'x' }), retryAfter);

describe('the message of a 429 (issue 15 item 2)', () => {
  beforeAll(async () => {
    await initTestI18n();
  });

  it('tells when to try again, in whole minutes from Retry-After, for every action', () => {
    const t = i18next.t;
    expect(apiErrorMessage(t, refused('540'))).toBe('Too many attempts. Try again in 9 minutes.');
    expect(actionErrorMessage(t, refused('841'), 'booking.request_failed')).toBe(
      'Too many attempts. Try again in 15 minutes.',
    );
    // A wait under a minute (the login slow-down is 10 s) is said in seconds, never "1 minute" nor zero.
    expect(apiErrorMessage(t, refused('10'))).toBe('Too many attempts. Try again in 10 seconds.');
    expect(apiErrorMessage(t, refused('1'))).toBe('Too many attempts. Try again in 1 second.');
    expect(apiErrorMessage(t, refused('0'))).toBe('Too many attempts. Try again in 1 second.');
    expect(apiErrorMessage(t, refused('60'))).toBe('Too many attempts. Try again in 1 minute.');
    expect(apiErrorMessage(t, refused('61'))).toBe('Too many attempts. Try again in 2 minutes.');
    // A 429 from something that is not the API (no Retry-After) keeps the general words.
    expect(apiErrorMessage(t, refused(null))).toBe(t('errors.too_many_requests'));
    expect(apiErrorMessage(t, new ApiError(409, 'slot_taken', 'x'))).toBe(t('errors.slot_taken'));
  });

  it.each([
    ['pt', 'Demasiadas tentativas. Tente novamente dentro de 10 segundos.'],
    ['pt-BR', 'Muitas tentativas. Tente novamente em 10 segundos.'],
  ])('says a short wait in seconds in %s', async (lang, expected) => {
    addPortugueseCatalogs();
    await i18next.changeLanguage(lang);
    try {
      expect(apiErrorMessage(i18next.t, refused('10'))).toBe(expected);
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
