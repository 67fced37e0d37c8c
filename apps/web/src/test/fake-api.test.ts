import { afterEach, describe, expect, it, vi } from 'vitest';
import { productSchema } from '@vetcall/shared/schemas/product';
import { fakeApi, refusal } from './fake-api';

const product = { product_id: 1, designation: 'Video consultation', price: 25, price_cents: 2500 };

describe('fakeApi', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers a declared route with the data as the schema serializes it, and records the call', async () => {
    const withInternalField = { ...product, internal_note: 'never sent' };
    const api = fakeApi().answer('GET', '/api/products/1', productSchema, withInternalField);
    const response = await fetch('/api/products/1?lang=en');
    expect(await response.json()).toEqual(product);
    expect(api.calls).toEqual([{ method: 'GET', url: '/api/products/1?lang=en', body: undefined }]);
  });

  it('refuses static data that does not match the schema where it is declared', () => {
    expect(() =>
      fakeApi().answer('GET', '/api/products/1', productSchema, { ...product, price: '25' } as never),
    ).toThrow();
  });

  it('passes the RegExp match and the JSON body to a handler; later routes win', async () => {
    fakeApi()
      .answer('PUT', /^\/api\/products\/price\/(\d+)/, productSchema, ({ match, body }) => ({
        ...product,
        product_id: Number(match[1]),
        price: (body as { price: number }).price,
      }))
      .answer('PUT', '/api/products/price/9', productSchema, () =>
        refusal(409, { error: 'error_changing_product_price', message: 'x' }),
      );
    const ok = await fetch('/api/products/price/3', { method: 'PUT', body: JSON.stringify({ price: 30 }) });
    expect(await ok.json()).toMatchObject({ product_id: 3, price: 30 });
    const refused = await fetch('/api/products/price/9', { method: 'PUT', body: '{}' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: 'error_changing_product_price', message: 'x' });
  });

  // The API client turns a rejected fetch into `network_error`, which a component may show quietly:
  // the drift must fail the test anyway.
  it.fails(
    'fails the test when a handler answer drifts from the schema, even if the rejection is swallowed',
    async () => {
      fakeApi().answer(
        'GET',
        '/api/products/1',
        productSchema,
        () => ({ ...product, price_cents: undefined }) as never,
      );
      await fetch('/api/products/1').catch(() => undefined);
    },
  );

  it('rejects like fetch offline for a network failure, without failing the test', async () => {
    fakeApi().networkFailure('GET', '/api/products/1');
    await expect(fetch('/api/products/1')).rejects.toBeInstanceOf(TypeError);
  });

  it('answers unknown routes with 404 not_found', async () => {
    fakeApi();
    const response = await fetch('/api/nothing', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
