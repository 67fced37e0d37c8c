import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { seedDemoData } from '../../demo-data/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type Headers, oneOfEachRole, ROLES } from '../../../test/one-of-each-role.ts';

const errorOf = { 400: 'validation_failed', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' } as const;

const consultation = { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Consulta por vídeo' };
const followUp = { en: 'Follow-up call', pt: 'Consulta de seguimento', 'pt-BR': 'Consulta de retorno' };

/** A manager, a vet and a customer (customer's locale en, the others pt), and two products. */
async function buildWorld(t: TestApp) {
  const { headers } = await oneOfEachRole(t, { customerLocale: 'en' });
  const [first, second] = await t.db
    .insert(products)
    .values([
      { designation: consultation, priceCents: 2500 },
      { designation: followUp, priceCents: 1999 },
    ])
    .returning();
  return { consultation: first!, followUp: second!, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

const storedCents = async (t: TestApp, id: number) =>
  (await t.db.select({ cents: products.priceCents }).from(products).where(eq(products.id, id)))[0]?.cents;

describe('products (docs/product-rules.md#api: GET /api/products/{locale}, POST, DELETE /{product_id}, PUT /price/{product_id})', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const list = (locale: string, headers: Headers) =>
    t.app.inject({ method: 'GET', url: `/api/products/${locale}`, headers });
  const create = (payload: unknown, headers: Headers = w.headers.manager) =>
    t.app.inject({ method: 'POST', url: '/api/products', payload: payload as object, headers });
  const changePrice = (id: number, payload: unknown, headers: Headers = w.headers.manager) =>
    t.app.inject({ method: 'PUT', url: `/api/products/price/${id}`, payload: payload as object, headers });
  const remove = (id: number, headers: Headers = w.headers.manager) =>
    t.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers });

  describe('GET /api/products/{locale}', () => {
    it('answers every logged-in user, in id order, designation in the locale and price in EUR and cents', async () => {
      for (const role of ['customer', 'vet', 'manager'] as const) {
        const response = await list('pt-BR', w.headers[role]);
        expect(response.statusCode, role).toBe(200);
        expect(response.json(), role).toEqual([
          { product_id: w.consultation.id, designation: 'Consulta por vídeo', price: 25, price_cents: 2500 },
          { product_id: w.followUp.id, designation: 'Consulta de retorno', price: 19.99, price_cents: 1999 },
        ]);
      }
      expect((await list('en', w.headers.customer)).json().map((p: { designation: string }) => p.designation)).toEqual([
        'Video consultation',
        'Follow-up call',
      ]);
      expect((await list('pt', w.headers.customer)).json()[1].designation).toBe('Consulta de seguimento');
      // Loose spellings of a locale are accepted.
      expect((await list('pt_br', w.headers.customer)).json()[1].designation).toBe('Consulta de retorno');
    });

    it('refuses without a session (401) and an unknown locale (400)', async () => {
      const anonymous = await list('en', w.headers.none);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error).toBe('unauthorized');
      const unknown = await list('fr', w.headers.customer);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ error: 'validation_failed', fields: { locale: 'invalid_value' } });
    });

    it('lists the seeded video consultation at 25.00 EUR', async () => {
      // seedDemoData runs only on a database without users.
      const seeded = await buildTestApp();
      try {
        expect(await seedDemoData(seeded.db)).toBe(true);
        const { headers } = await seeded.loginAs('customer@vetcall.test');
        const en = await seeded.app.inject({ method: 'GET', url: '/api/products/en', headers });
        expect(en.json()).toEqual([
          { product_id: expect.any(Number), designation: 'Video consultation', price: 25, price_cents: 2500 },
        ]);
        const pt = await seeded.app.inject({ method: 'GET', url: '/api/products/pt', headers });
        expect(pt.json()[0].designation).toBe('Consulta por vídeo');
      } finally {
        await seeded.close();
      }
    });
  });

  describe('POST /api/products', () => {
    const input = {
      designation: { en: 'Second opinion', pt: 'Segunda opinião', 'pt-BR': 'Segunda opinião' },
      price: 40.5,
    };

    it.each(ROLES)('as %s', async (role) => {
      const response = await create(input, w.headers[role]);
      const expected = { customer: 403, vet: 403, manager: 201, none: 401 }[role];
      expect(response.statusCode).toBe(expected);
      if (expected !== 201) {
        expect(response.json().error).toBe(errorOf[expected as 401 | 403]);
        expect(await t.db.select().from(products)).toHaveLength(2);
        return;
      }
      const body = response.json();
      // The manager's locale is pt.
      expect(body).toEqual({
        product_id: expect.any(Number),
        designation: 'Segunda opinião',
        price: 40.5,
        price_cents: 4050,
      });
      const [row] = await t.db.select().from(products).where(eq(products.id, body.product_id));
      expect(row).toMatchObject({ designation: input.designation, priceCents: 4050 });
    });

    it('answers in ?lang= when given, and accepts a free product', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/products?lang=en',
        payload: { ...input, price: 0 },
        headers: w.headers.manager,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ designation: 'Second opinion', price: 0, price_cents: 0 });
    });

    it.each([
      ['a negative price', { ...input, price: -1 }, { price: 'too_small' }],
      ['three decimals', { ...input, price: 10.005 }, { price: 'invalid_format' }],
      ['a price over 100000', { ...input, price: 100_000.01 }, { price: 'too_big' }],
      ['no price', { designation: input.designation }, { price: 'required' }],
      [
        'a missing or short designation',
        { designation: { en: 'X', pt: '  Segunda opinião ' }, price: 1 },
        { 'designation.en': 'too_short', 'designation.pt-BR': 'required' },
      ],
      ['no designation', { price: 1 }, { designation: 'required' }],
    ])('refuses %s with per-field codes', async (_case, payload, fields) => {
      const response = await create(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
      expect(await t.db.select().from(products)).toHaveLength(2);
    });

    it('trims the designations', async () => {
      const response = await create({
        ...input,
        designation: { en: ' Check-up ', pt: ' Revisão', 'pt-BR': 'Revisão ' },
      });
      expect(response.statusCode).toBe(201);
      const [row] = await t.db.select().from(products).where(eq(products.id, response.json().product_id));
      expect(row!.designation).toEqual({ en: 'Check-up', pt: 'Revisão', 'pt-BR': 'Revisão' });
    });
  });

  describe('PUT /api/products/price/{product_id}', () => {
    it.each(ROLES)('as %s', async (role) => {
      const response = await changePrice(w.consultation.id, { price: 30 }, w.headers[role]);
      const expected = { customer: 403, vet: 403, manager: 200, none: 401 }[role];
      expect(response.statusCode).toBe(expected);
      if (expected === 200) {
        expect(response.json()).toEqual({
          product_id: w.consultation.id,
          designation: 'Consulta por vídeo',
          price: 30,
          price_cents: 3000,
        });
        expect(await storedCents(t, w.consultation.id)).toBe(3000);
      } else {
        expect(response.json().error).toBe(errorOf[expected as 401 | 403]);
        expect(await storedCents(t, w.consultation.id)).toBe(2500);
      }
    });

    it('stores exact cents for prices that are inexact in binary floating point', async () => {
      for (const [price, cents] of [
        [0.29, 29],
        [19.99, 1999],
        [0.1 + 0.2, 30],
        [1.15, 115],
        [99_999.99, 9_999_999],
        [0, 0],
      ] as const) {
        const response = await changePrice(w.followUp.id, { price });
        expect(response.statusCode, String(price)).toBe(200);
        expect(await storedCents(t, w.followUp.id), String(price)).toBe(cents);
      }
    });

    it.each([
      ['a negative price', { price: -0.01 }, { price: 'too_small' }],
      ['three decimals', { price: 25.001 }, { price: 'invalid_format' }],
      ['a price in text', { price: '25' }, { price: 'required' }],
      ['no price', {}, { price: 'required' }],
    ])('refuses %s and keeps the price', async (_case, payload, fields) => {
      const response = await changePrice(w.consultation.id, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
      expect(await storedCents(t, w.consultation.id)).toBe(2500);
    });

    it('answers 404 for an unknown product and 400 for a malformed id', async () => {
      const unknown = await changePrice(9999, { price: 1 });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('not_found');
      expect((await changePrice('abc' as unknown as number, { price: 1 })).statusCode).toBe(400);
    });
  });

  describe('DELETE /api/products/{product_id}', () => {
    it.each(ROLES)('as %s', async (role) => {
      const response = await remove(w.followUp.id, w.headers[role]);
      const expected = { customer: 403, vet: 403, manager: 200, none: 401 }[role];
      expect(response.statusCode).toBe(expected);
      const remaining = await t.db.select({ id: products.id }).from(products).orderBy(asc(products.id));
      if (expected === 200) {
        expect(response.json()).toEqual({ product_id: w.followUp.id });
        expect(remaining).toEqual([{ id: w.consultation.id }]);
      } else {
        expect(response.json().error).toBe(errorOf[expected as 401 | 403]);
        expect(remaining).toHaveLength(2);
      }
    });

    it('answers 404 for an unknown or already removed product', async () => {
      expect((await remove(w.followUp.id)).statusCode).toBe(200);
      const again = await remove(w.followUp.id);
      expect(again.statusCode).toBe(404);
      expect(again.json().error).toBe('not_found');
      expect((await list('en', w.headers.manager)).json()).toHaveLength(1);
    });
  });
});
