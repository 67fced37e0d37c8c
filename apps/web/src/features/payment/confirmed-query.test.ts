import { describe, expect, it } from 'vitest';
import { parseConfirmedQuery } from './confirmed-query';

const parse = (query: string) => parseConfirmedQuery(new URLSearchParams(query));

describe('parseConfirmedQuery', () => {
  it('reads the purchase of docs/product-rules.md#request-confirmed', () => {
    expect(parse('paymentHash=pay_1&lang=pt&value=3500&item_name=Consulta+v%C3%ADdeo&is_first_purchase=true')).toEqual({
      paymentHash: 'pay_1',
      valueCents: 3500,
      itemName: 'Consulta vídeo',
      isFirstPurchase: true,
    });
  });

  it('takes a free appointment (0 cents) and anything but true as not first', () => {
    expect(parse('paymentHash=pay_1&value=0&item_name=X&is_first_purchase=1')).toMatchObject({
      valueCents: 0,
      isFirstPurchase: false,
    });
  });

  it.each([
    ['no payment hash', 'value=3500&item_name=X'],
    ['no value', 'paymentHash=pay_1&item_name=X'],
    ['a value in euros', 'paymentHash=pay_1&value=35.00&item_name=X'],
    ['a negative value', 'paymentHash=pay_1&value=-5&item_name=X'],
    ['no item', 'paymentHash=pay_1&value=3500&item_name=%20'],
  ])('answers undefined for %s', (_case, query) => {
    expect(parse(query)).toBeUndefined();
  });
});
