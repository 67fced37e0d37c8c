import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { accessCodes, products, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ACCESS_CODE_RATE_LIMITS } from '../access-codes/access-codes.service.ts';
import { discountedCents } from './pricing.ts';

const NOW = '2026-01-12T10:10:00Z';
const PASSWORD = 'secret-pass';

async function buildWorld(t: TestApp) {
  const rui = await buildVet(t.db, { email: 'rui@clinic.test', password: PASSWORD, discount: 15 });
  const sara = await buildVet(t.db, { discount: 0 });
  await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
  await buildCustomer(t.db, { email: 'ana@example.test', password: PASSWORD, locale: 'en' });
  await buildCustomer(t.db, { email: 'bia@example.test', password: PASSWORD, locale: 'pt-BR' });
  await t.db.insert(accessCodes).values([
    { code: 'FREE-2026', included: true, validFrom: '2026-01-01', validTo: '2026-12-31' },
    { code: 'NORMAL-2026', included: false, validFrom: '2026-01-01', validTo: '2026-12-31' },
    { code: 'FREE-LATER', included: true, validFrom: '2026-03-01', validTo: '2026-12-31' },
    { code: 'FREE-OFF', included: true, validFrom: '2026-01-01', validTo: '2026-12-31', disabledAt: new Date(NOW) },
  ]);
  return {
    rui,
    sara,
    ana: (await t.loginAs('ana@example.test', PASSWORD)).headers,
    bia: (await t.loginAs('bia@example.test', PASSWORD)).headers,
    vet: (await t.loginAs('rui@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
  };
}
type World = Awaited<ReturnType<typeof buildWorld>>;

const PRODUCT = {
  designation: { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Consulta por vídeo (BR)' },
  priceCents: 2500,
};

describe('appointments: quote', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const quote = (headers: Record<string, string>, query: string) =>
    t.app.inject({ method: 'GET', url: `/api/appointments/quote?${query}`, headers });

  it('is the product price minus the vet’s discount, named in the customer’s language', async () => {
    await t.db.insert(products).values(PRODUCT);
    const response = await quote(w.ana, `vet_user_id=${w.rui.user.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      price_cents: 2125,
      list_price_cents: 2500,
      discount_percent: 15,
      item_name: 'Video consultation',
      included: false,
      currency: 'EUR',
    });
    const bia = await quote(w.bia, `vet_user_id=${w.sara.user.id}`);
    expect(bia.json()).toMatchObject({ price_cents: 2500, discount_percent: 0, item_name: 'Consulta por vídeo (BR)' });
  });

  it('uses the first product when there are several, and says no_product when there is none', async () => {
    const none = await quote(w.ana, `vet_user_id=${w.rui.user.id}`);
    expect([none.statusCode, none.json().error]).toEqual([409, 'no_product']);
    await t.db.insert(products).values([PRODUCT, { ...PRODUCT, priceCents: 9900 }]);
    expect((await quote(w.ana, `vet_user_id=${w.rui.user.id}`)).json().list_price_cents).toBe(2500);
  });

  it('is free with a valid included code; a valid normal code changes nothing', async () => {
    await t.db.insert(products).values(PRODUCT);
    const free = await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=%20free-2026%20`);
    expect(free.json()).toMatchObject({ price_cents: 0, list_price_cents: 2500, discount_percent: 15, included: true });
    const normal = await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=NORMAL-2026`);
    expect(normal.json()).toMatchObject({ price_cents: 2125, included: false });
    const blank = await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=`);
    expect(blank.json()).toMatchObject({ price_cents: 2125, included: false });
  });

  it.each(['NOPE', 'FREE-LATER', 'FREE-OFF'])('refuses the code %s with 400 invalid_access_code', async (code) => {
    await t.db.insert(products).values(PRODUCT);
    const response = await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=${code}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_access_code', fields: { access_code: 'invalid_value' } });
  });

  it('answers 404 for an unknown, removed or non-vet user and 400 for a bad id', async () => {
    await t.db.insert(products).values(PRODUCT);
    await t.db.update(users).set({ active: false }).where(eq(users.id, w.sara.user.id));
    const [manager] = await t.db.select().from(users).where(eq(users.email, 'boss@clinic.test'));
    for (const id of [999_999, w.sara.user.id, manager!.id]) {
      expect((await quote(w.ana, `vet_user_id=${id}`)).statusCode).toBe(404);
    }
    expect((await quote(w.ana, 'vet_user_id=abc')).statusCode).toBe(400);
    expect((await quote(w.ana, '')).statusCode).toBe(400);
  });

  it('is for customers: 401 without a session, 403 for vets and managers', async () => {
    await t.db.insert(products).values(PRODUCT);
    expect((await quote({}, `vet_user_id=${w.rui.user.id}`)).statusCode).toBe(401);
    expect((await quote(w.vet, `vet_user_id=${w.rui.user.id}`)).statusCode).toBe(403);
    expect((await quote(w.manager, `vet_user_id=${w.rui.user.id}`)).statusCode).toBe(403);
  });

  it('counts wrong codes against the access code guessing budget, and never a valid one', async () => {
    await t.db.insert(products).values(PRODUCT);
    const { limit } = ACCESS_CODE_RATE_LIMITS.wrongPerUser;
    // A person comparing vets with a valid code asks many quotes in a row.
    for (let attempt = 0; attempt <= limit; attempt += 1) {
      expect((await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=NORMAL-2026`)).statusCode).toBe(200);
    }
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= limit; attempt += 1) {
      statuses.push((await quote(w.ana, `vet_user_id=${w.rui.user.id}&access_code=GUESS-${attempt}`)).statusCode);
    }
    expect(statuses.slice(0, limit).every((status) => status === 400)).toBe(true);
    expect(statuses[limit]).toBe(429);
    // Without a code the quote is not limited.
    expect((await quote(w.ana, `vet_user_id=${w.rui.user.id}`)).statusCode).toBe(200);
  });
});

describe('appointments: quote with access codes turned off', () => {
  it('ignores a typed code', async () => {
    const t = await buildTestApp({ clock: fixedClock(NOW), env: { ACCESS_CODES_ENABLED: 'false' } });
    try {
      const w = await buildWorld(t);
      await t.db.insert(products).values(PRODUCT);
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/appointments/quote?vet_user_id=${w.rui.user.id}&access_code=FREE-2026`,
        headers: w.ana,
      });
      expect(response.json()).toMatchObject({ price_cents: 2125, included: false });
    } finally {
      await t.close();
    }
  });
});

describe('discountedCents', () => {
  it.each([
    [2500, 15, 2125],
    [2500, 0, 2500],
    [2500, 100, 0],
    [2599, 5, 2469],
    [2590, 5, 2461],
    [1, 50, 1],
    [3, 50, 2],
  ])('%i cents less %i%% is %i cents', (list, discount, expected) => {
    expect(discountedCents(list, discount)).toBe(expected);
  });
});
