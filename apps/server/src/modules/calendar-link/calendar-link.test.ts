import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { calendarGrants, vets } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type FakeHttpServer, sendJson, startFakeHttpServer, unusedBaseUrl } from '../../../test/fake-http-server.ts';

const PASSWORD = 'secret-pass';
const MINUTE = 60_000;
const START = '2026-05-04T09:00:00Z';

type Role = 'vet' | 'otherVet' | 'manager' | 'customer' | 'anonymous';
type Headers = Record<string, string>;

const errorBody = (error: string) => ({ error, message: expect.any(String) });

/**
 * A manager, vet Sara, a customer, then vet Rui: user ids and vet ids differ, and Sara's user id is
 * Rui's vet id, so a mix-up of the two kinds of id shows.
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
  const otherVet = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const customer = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD });
  const vet = await buildVet(t.db, { email: 'vet.rui@clinic.test', password: PASSWORD, name: 'Rui', locale: 'en' });
  const headers: Record<Role, Headers> = {
    vet: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    otherVet: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    customer: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, customer, otherVet, vet, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** The calls of this module, for a vet id. */
function calls(t: TestApp) {
  return {
    authorize: (vetId: number | string, headers: Headers, query = 'lang=en&access=vet') =>
      t.app.inject({ method: 'GET', url: `/api/vets/calendar/authorize/${vetId}?${query}`, headers }),
    grant: (vetId: number | string, headers: Headers) =>
      t.app.inject({ method: 'POST', url: `/api/vets/calendar/builtin/grant/${vetId}`, headers }),
    putToken: (vetId: number | string, headers: Headers, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/vets/token/${vetId}`, headers, payload: payload as object }),
    unlink: (vetId: number | string, headers: Headers) =>
      t.app.inject({ method: 'PUT', url: `/api/vets/removecalendarassociation/${vetId}`, headers }),
    vetByEmail: (email: string, headers: Headers) =>
      t.app.inject({ method: 'GET', url: `/api/users/vet/byemail/${email}`, headers }),
  };
}

const storedToken = async (t: TestApp, vetId: number) =>
  (await t.db.select({ token: vets.accountToken }).from(vets).where(eq(vets.id, vetId)))[0]!.token;

const storedGrants = (t: TestApp) => t.db.select().from(calendarGrants).orderBy(asc(calendarGrants.id));

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A grant of the built-in calendar for a vet, through the API. */
async function grantFor(t: TestApp, vetId: number, headers: Headers): Promise<string> {
  const response = await calls(t).grant(vetId, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

describe('calendar linking: who may call what', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(START) });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const refusals: [Role, number, string][] = [
    ['anonymous', 401, 'unauthorized'],
    ['customer', 403, 'forbidden'],
    ['manager', 403, 'forbidden'],
    ['otherVet', 403, 'forbidden'],
  ];

  it.each(refusals)('GET calendar/authorize of Rui as %s answers %i', async (role, status, error) => {
    const response = await calls(t).authorize(w.vet.vet.id, w.headers[role]);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(errorBody(error));
  });

  it.each(refusals)(
    'POST calendar/builtin/grant of Rui as %s answers %i and makes no grant',
    async (role, status, error) => {
      const response = await calls(t).grant(w.vet.vet.id, w.headers[role]);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(errorBody(error));
      expect(await storedGrants(t)).toEqual([]);
    },
  );

  it.each(refusals)(
    'PUT token of Rui as %s answers %i, links nothing and spends no grant',
    async (role, status, error) => {
      const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
      const response = await calls(t).putToken(w.vet.vet.id, w.headers[role], {
        vet_id: w.vet.vet.id,
        account_token: token,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(errorBody(error));
      expect(await storedToken(t, w.vet.vet.id)).toBe('');
      expect((await storedGrants(t))[0]!.usedAt).toBeNull();
      // The grant still works for Rui himself.
      const own = await calls(t).putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });
      expect(own.statusCode).toBe(200);
    },
  );

  it.each(refusals)(
    'PUT removecalendarassociation of Rui as %s answers %i and keeps the link',
    async (role, status, error) => {
      await t.db.update(vets).set({ accountToken: 'builtin:kept' }).where(eq(vets.id, w.vet.vet.id));
      const response = await calls(t).unlink(w.vet.vet.id, w.headers[role]);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(errorBody(error));
      expect(await storedToken(t, w.vet.vet.id)).toBe('builtin:kept');
    },
  );

  it('lets each vet call every route for themself', async () => {
    const c = calls(t);
    for (const [who, vetId] of [
      ['vet', w.vet.vet.id],
      ['otherVet', w.otherVet.vet.id],
    ] as const) {
      const headers = w.headers[who];
      expect((await c.authorize(vetId, headers)).statusCode, who).toBe(200);
      const token = await grantFor(t, vetId, headers);
      const linked = await c.putToken(vetId, headers, { vet_id: vetId, account_token: token });
      expect(linked.json(), who).toStrictEqual({ vet_id: vetId, calendar_linked: true });
      const unlinked = await c.unlink(vetId, headers);
      expect(unlinked.json(), who).toStrictEqual({ vet_id: vetId, calendar_linked: false });
    }
  });

  it('answers 404 for an unknown vet id, on every route', async () => {
    const c = calls(t);
    for (const vetId of [9999, 2_147_483_647]) {
      const responses = {
        authorize: await c.authorize(vetId, w.headers.vet),
        grant: await c.grant(vetId, w.headers.vet),
        token: await c.putToken(vetId, w.headers.vet, { vet_id: vetId, account_token: 'builtin:x' }),
        unlink: await c.unlink(vetId, w.headers.vet),
      };
      for (const [route, response] of Object.entries(responses)) {
        expect(response.statusCode, `${route} ${vetId}`).toBe(404);
        expect(response.json(), `${route} ${vetId}`).toEqual(errorBody('not_found'));
      }
    }
  });

  it('takes the vet id, not the user id: Rui’s user id is no vet, Sara’s user id is Rui’s vet id', async () => {
    expect(w.vet.user.id).not.toBe(w.vet.vet.id);
    expect(w.otherVet.user.id).toBe(w.vet.vet.id);
    const c = calls(t);
    expect((await c.authorize(w.vet.user.id, w.headers.vet)).statusCode).toBe(404);
    // Sara using her user id reaches Rui, who is not hers to link.
    expect((await c.authorize(w.otherVet.user.id, w.headers.otherVet)).statusCode).toBe(403);
  });

  it('refuses a removed vet’s id with 404', async () => {
    const { vet } = await buildVet(t.db, { active: false, email: 'gone@clinic.test' });
    expect((await calls(t).authorize(vet.id, w.headers.vet)).statusCode).toBe(404);
  });
});

describe('calendar linking: validation', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(START) });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const validation = (fields: Record<string, string>) => ({
    error: 'validation_failed',
    message: expect.any(String),
    fields,
  });

  it.each(['abc', '0', '1e3', '-2', '07', '2147483648'])('refuses the path vet_id %j on every route', async (vetId) => {
    const c = calls(t);
    const responses = [
      await c.authorize(vetId, w.headers.vet),
      await c.grant(vetId, w.headers.vet),
      await c.putToken(vetId, w.headers.vet, { vet_id: 1, account_token: 'builtin:x' }),
      await c.unlink(vetId, w.headers.vet),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation({ vet_id: expect.stringMatching(/^(invalid_format|too_big)$/) }));
    }
  });

  it.each([
    ['lang=fr&access=vet', { lang: 'invalid_value' }],
    ['lang=&access=vet', { lang: 'invalid_value' }],
    ['lang=en&access=manager', { access: 'invalid_value' }],
    ['lang=en&access=', { access: 'required' }],
  ])('GET calendar/authorize refuses the query %s', async (query, fields) => {
    const response = await calls(t).authorize(w.vet.vet.id, w.headers.vet, query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(validation(fields));
  });

  it.each([
    ['no account_token', (vetId: number) => ({ vet_id: vetId }), { account_token: 'required' }],
    [
      'a blank account_token',
      (vetId: number) => ({ vet_id: vetId, account_token: '   ' }),
      { account_token: 'required' },
    ],
    [
      'an account_token of 4097 characters',
      (vetId: number) => ({ vet_id: vetId, account_token: 'x'.repeat(4097) }),
      { account_token: 'too_long' },
    ],
    [
      'an account_token that is a number',
      (vetId: number) => ({ vet_id: vetId, account_token: 42 }),
      { account_token: 'required' },
    ],
    ['no vet_id', () => ({ account_token: 'builtin:x' }), { vet_id: 'required' }],
    ['a vet_id of letters', () => ({ vet_id: 'abc', account_token: 'builtin:x' }), { vet_id: 'invalid_format' }],
    ['a vet_id of zero', () => ({ vet_id: 0, account_token: 'builtin:x' }), { vet_id: 'invalid_format' }],
    ['a fractional vet_id', () => ({ vet_id: 1.5, account_token: 'builtin:x' }), { vet_id: 'invalid_format' }],
  ] as const)('PUT token refuses %s', async (_name, body, fields) => {
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, body(w.vet.vet.id));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(validation(fields));
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
  });

  it('PUT token refuses a body vet_id other than the path one, and spends no grant', async () => {
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: w.otherVet.vet.id,
      account_token: token,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(validation({ vet_id: 'invalid_value' }));
    expect((await storedGrants(t))[0]!.usedAt).toBeNull();
  });

  it('PUT token accepts the body vet_id as digits (the callback reads it out of the state)', async () => {
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: String(w.vet.vet.id),
      account_token: token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: true });
  });
});

describe('calendar linking with the built-in calendar (CALENDAR_PROVIDER=builtin)', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(START);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('is the default provider', () => {
    expect(t.config.calendar.provider).toBe('builtin');
  });

  it('sends the browser to the web app’s authorisation page with the parameters of docs/product-rules.md#api', async () => {
    const response = await calls(t).authorize(w.vet.vet.id, w.headers.vet, 'lang=pt-BR&access=vet');
    expect(response.statusCode).toBe(200);
    const { url } = response.json<{ url: string }>();
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe('http://vetcall.test/calendar/authorize');
    expect([...parsed.searchParams]).toStrictEqual([
      ['clientId', 'vetcall'],
      ['serviceType', 'VetCall'],
      ['scopes', 'Calendar.ReadWrite'],
      ['responseType', 'token'],
      ['returnUrl', 'http://vetcall.test/auth/callback'],
      ['state', `vet_id:${w.vet.vet.id} lang:pt-BR access:vet`],
      ['loginHint', 'vet.rui@clinic.test'],
    ]);
    // The state is encoded: no raw space or colon reaches the URL.
    expect(parsed.search).not.toMatch(/[ ]/);
    expect(parsed.search).toContain(`state=vet_id%3A${w.vet.vet.id}+lang%3Apt-BR+access%3Avet`);
  });

  it('defaults lang to the vet’s language and access to vet; normalises lang spellings', async () => {
    const stateOf = async (headers: Headers, vetId: number, query: string) => {
      const response = await calls(t).authorize(vetId, headers, query);
      expect(response.statusCode).toBe(200);
      return new URL(response.json<{ url: string }>().url).searchParams.get('state');
    };
    expect(await stateOf(w.headers.vet, w.vet.vet.id, '')).toBe(`vet_id:${w.vet.vet.id} lang:en access:vet`);
    expect(await stateOf(w.headers.otherVet, w.otherVet.vet.id, '')).toBe(
      `vet_id:${w.otherVet.vet.id} lang:pt access:vet`,
    );
    expect(await stateOf(w.headers.vet, w.vet.vet.id, 'lang=pt_BR')).toBe(
      `vet_id:${w.vet.vet.id} lang:pt-BR access:vet`,
    );
  });

  it('grant → PUT token links the calendar; only a hash of the grant is stored; the token is never answered', async () => {
    const c = calls(t);
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    expect(token).toMatch(/^builtin:[A-Za-z0-9_-]{43}$/);
    expect(await storedGrants(t)).toStrictEqual([
      {
        id: expect.any(Number),
        vetUserId: w.vet.user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(new Date(START).getTime() + 10 * MINUTE),
        usedAt: null,
        createdAt: new Date(START),
      },
    ]);

    const response = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: true });
    expect(response.body).not.toContain(token.slice('builtin:'.length));

    expect(await storedToken(t, w.vet.vet.id)).toBe(token);
    expect((await storedGrants(t))[0]!.usedAt).toEqual(new Date(START));
    const view = await c.vetByEmail('vet.rui@clinic.test', w.headers.vet);
    expect(view.json()).toMatchObject({ vet_id: w.vet.vet.id, calendar_linked: true });
    expect(view.body).not.toContain(token.slice('builtin:'.length));
    // Sara is untouched.
    expect(await storedToken(t, w.otherVet.vet.id)).toBe('');
  });

  it('a grant is good once: the same token again is calendar_token_invalid', async () => {
    const c = calls(t);
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const body = { vet_id: w.vet.vet.id, account_token: token };
    expect((await c.putToken(w.vet.vet.id, w.headers.vet, body)).statusCode).toBe(200);
    await c.unlink(w.vet.vet.id, w.headers.vet);

    const again = await c.putToken(w.vet.vet.id, w.headers.vet, body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(errorBody('calendar_token_invalid'));
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
  });

  it('of two simultaneous PUTs with one grant, exactly one links', async () => {
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const body = { vet_id: w.vet.vet.id, account_token: token };
    const responses = await Promise.all([
      calls(t).putToken(w.vet.vet.id, w.headers.vet, body),
      calls(t).putToken(w.vet.vet.id, w.headers.vet, body),
      calls(t).putToken(w.vet.vet.id, w.headers.vet, body),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('a grant lasts 10 minutes', async () => {
    const c = calls(t);
    const first = await grantFor(t, w.vet.vet.id, w.headers.vet);
    clock.advance(10 * MINUTE - 1000);
    const inTime = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: first });
    expect(inTime.statusCode).toBe(200);

    const second = await grantFor(t, w.vet.vet.id, w.headers.vet);
    clock.advance(10 * MINUTE);
    const late = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: second });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(errorBody('calendar_token_invalid'));
    // The earlier link stays.
    expect(await storedToken(t, w.vet.vet.id)).toBe(first);
  });

  it('a grant is the vet’s own: Rui cannot link with Sara’s, and hers still works for her', async () => {
    const c = calls(t);
    const sarasToken = await grantFor(t, w.otherVet.vet.id, w.headers.otherVet);
    const stolen = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: sarasToken });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual(errorBody('calendar_token_invalid'));
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
    const hers = await c.putToken(w.otherVet.vet.id, w.headers.otherVet, {
      vet_id: w.otherVet.vet.id,
      account_token: sarasToken,
    });
    expect(hers.statusCode).toBe(200);
  });

  it.each([
    ['an unknown builtin token', 'builtin:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a token without the builtin: prefix', 'some-aurinko-token'],
  ])('refuses %s with calendar_token_invalid', async (_name, token) => {
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: w.vet.vet.id,
      account_token: token,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('calendar_token_invalid'));
  });

  it('a grant without its prefix is not the grant', async () => {
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: w.vet.vet.id,
      account_token: token.slice('builtin:'.length),
    });
    expect(response.statusCode).toBe(400);
  });

  it('a new grant drops the vet’s spent and expired ones, and nobody else’s', async () => {
    const c = calls(t);
    const spent = await grantFor(t, w.vet.vet.id, w.headers.vet);
    await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: spent });
    await grantFor(t, w.vet.vet.id, w.headers.vet); // expires below
    await grantFor(t, w.otherVet.vet.id, w.headers.otherVet); // Sara's, expires below too
    clock.advance(11 * MINUTE);
    const fresh = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const grants = await storedGrants(t);
    expect(grants.map((grant) => [grant.vetUserId, grant.tokenHash === sha256(fresh)])).toStrictEqual([
      [w.otherVet.user.id, false],
      [w.vet.user.id, true],
    ]);
  });

  it('limits grants to 20 per vet in 10 minutes', async () => {
    for (let attempt = 1; attempt <= 20; attempt += 1) await grantFor(t, w.vet.vet.id, w.headers.vet);
    const refused = await calls(t).grant(w.vet.vet.id, w.headers.vet);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(errorBody('too_many_requests'));
    expect((await calls(t).grant(w.otherVet.vet.id, w.headers.otherVet)).statusCode).toBe(200);
  });

  it('unlinks: the token is forgotten, calendar_linked is false; unlinking again is harmless', async () => {
    const c = calls(t);
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });

    const response = await c.unlink(w.vet.vet.id, w.headers.vet);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: false });
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
    expect((await c.vetByEmail('vet.rui@clinic.test', w.headers.vet)).json()).toMatchObject({
      calendar_linked: false,
    });
    const again = await c.unlink(w.vet.vet.id, w.headers.vet);
    expect(again.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: false });
  });

  it('an email change removes the association linked through these routes (docs/product-rules.md#states)', async () => {
    const c = calls(t);
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });
    const change = await t.app.inject({
      method: 'POST',
      url: `/api/users/email/${w.vet.user.id}`,
      headers: w.headers.manager,
      payload: { email: 'rui.santos@clinic.test' },
    });
    expect(change.statusCode).toBe(200);
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
    expect((await c.vetByEmail('rui.santos@clinic.test', w.headers.manager)).json()).toMatchObject({
      calendar_linked: false,
    });
  });

  it('limits PUT token to 10 attempts per vet in 10 minutes (429 with Retry-After), then lets the vet try again', async () => {
    const c = calls(t);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const wrong = await c.putToken(w.vet.vet.id, w.headers.vet, {
        vet_id: w.vet.vet.id,
        account_token: `builtin:guess-${attempt}`,
      });
      expect(wrong.statusCode, `attempt ${attempt}`).toBe(400);
    }
    const token = await grantFor(t, w.vet.vet.id, w.headers.vet);
    const refused = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(errorBody('too_many_requests'));
    expect(refused.headers['retry-after']).toBe('600');
    // A refused attempt spends no grant, and another vet has a limit of their own.
    expect((await storedGrants(t)).every((grant) => grant.usedAt === null)).toBe(true);
    const sarasToken = await grantFor(t, w.otherVet.vet.id, w.headers.otherVet);
    const sara = await c.putToken(w.otherVet.vet.id, w.headers.otherVet, {
      vet_id: w.otherVet.vet.id,
      account_token: sarasToken,
    });
    expect(sara.statusCode).toBe(200);

    clock.advance(5 * MINUTE);
    const stillRefused = await c.putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: w.vet.vet.id,
      account_token: token,
    });
    expect(stillRefused.headers['retry-after']).toBe('300');
    clock.advance(5 * MINUTE);
    const allowed = await c.putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });
    expect(allowed.statusCode).toBe(400); // the grant expired meanwhile: refused by the provider, not the limit
    expect(allowed.json()).toEqual(errorBody('calendar_token_invalid'));
  });
});

/** A stand-in for Aurinko's API: GET /v1/account knows one token. */
const AURINKO_ACCOUNT = {
  id: 4711,
  serviceType: 'Office365',
  email: 'rui.personal@outlook.test',
  name: 'Rui',
  active: true,
  authUserId: 'x-1',
};

function aurinkoAccountHandler(goodToken: string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'GET' || request.url !== '/v1/account') return sendJson(response, 404, {});
    if (request.headers.authorization !== `Bearer ${goodToken}`) {
      return sendJson(response, 401, { code: 'auth.unauthorized', message: 'Invalid token' });
    }
    sendJson(response, 200, AURINKO_ACCOUNT);
  };
}

describe('calendar linking with Aurinko (CALENDAR_PROVIDER=aurinko)', () => {
  let aurinko: FakeHttpServer;
  let t: TestApp;
  let w: World;
  const GOOD_TOKEN = 'aurinko-token-Zq3v9';

  beforeAll(async () => {
    aurinko = await startFakeHttpServer();
  });
  afterAll(async () => {
    await aurinko.close();
  });
  beforeEach(async () => {
    aurinko.requests.length = 0;
    aurinko.handle = aurinkoAccountHandler(GOOD_TOKEN);
    t = await buildTestApp({
      clock: fixedClock(START),
      env: {
        CALENDAR_PROVIDER: 'aurinko',
        AURINKO_URL: aurinko.baseUrl,
        AURINKO_CLIENT_ID: 'client-123',
        AURINKO_SERVICE_TYPE: 'Office365',
      },
    });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const link = (token: string) =>
    calls(t).putToken(w.vet.vet.id, w.headers.vet, { vet_id: w.vet.vet.id, account_token: token });

  it('sends the browser to Aurinko’s /v1/auth/authorize with the parameters of docs/product-rules.md#api', async () => {
    const response = await calls(t).authorize(w.vet.vet.id, w.headers.vet, 'lang=pt&access=vet');
    expect(response.statusCode).toBe(200);
    const parsed = new URL(response.json<{ url: string }>().url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${aurinko.baseUrl}/v1/auth/authorize`);
    expect(Object.fromEntries(parsed.searchParams)).toStrictEqual({
      clientId: 'client-123',
      serviceType: 'Office365',
      scopes: 'Calendar.ReadWrite',
      responseType: 'token',
      returnUrl: 'http://vetcall.test/auth/callback',
      state: `vet_id:${w.vet.vet.id} lang:pt access:vet`,
      loginHint: 'vet.rui@clinic.test',
    });
    expect(aurinko.requests).toEqual([]);
  });

  it('accepts a token Aurinko knows: asks GET /v1/account with it as a bearer, then stores it', async () => {
    const response = await link(GOOD_TOKEN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: true });
    expect(response.body).not.toContain(GOOD_TOKEN);
    expect(aurinko.requests).toHaveLength(1);
    expect(aurinko.requests[0]).toMatchObject({
      method: 'GET',
      url: '/v1/account',
      headers: { authorization: `Bearer ${GOOD_TOKEN}` },
    });
    expect(await storedToken(t, w.vet.vet.id)).toBe(GOOD_TOKEN);
    expect((await calls(t).vetByEmail('vet.rui@clinic.test', w.headers.vet)).json()).toMatchObject({
      calendar_linked: true,
    });
  });

  it.each([401, 403])('refuses a token Aurinko answers %i to with 400 calendar_token_invalid', async (status) => {
    await t.db.update(vets).set({ accountToken: 'earlier-token' }).where(eq(vets.id, w.vet.vet.id));
    aurinko.handle = (_request, response) => sendJson(response, status, { code: 'auth.unauthorized' });
    const response = await link('stale-token');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('calendar_token_invalid'));
    expect(response.body).not.toContain('stale-token');
    // The earlier link is kept.
    expect(await storedToken(t, w.vet.vet.id)).toBe('earlier-token');
  });

  it('refuses a token the fake Aurinko does not know (its Bearer check)', async () => {
    const response = await link('not-the-good-one');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody('calendar_token_invalid'));
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
  });

  it.each([500, 503, 429, 404])('answers 502 calendar_provider_unavailable when Aurinko answers %i', async (status) => {
    aurinko.handle = (_request, response) => sendJson(response, status, { message: 'oops' });
    const response = await link(GOOD_TOKEN);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual(errorBody('calendar_provider_unavailable'));
    expect(response.body).not.toContain(GOOD_TOKEN);
    expect(response.body).not.toContain('oops');
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
  });

  it('answers 502 when Aurinko drops the connection', async () => {
    aurinko.handle = (request) => request.socket.destroy();
    const response = await link(GOOD_TOKEN);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual(errorBody('calendar_provider_unavailable'));
  });

  it('has no built-in grants: 404 builtin_calendar_disabled', async () => {
    const response = await calls(t).grant(w.vet.vet.id, w.headers.vet);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(errorBody('builtin_calendar_disabled'));
    expect(await storedGrants(t)).toEqual([]);
  });

  it('unlinks without asking Aurinko', async () => {
    await link(GOOD_TOKEN);
    const response = await calls(t).unlink(w.vet.vet.id, w.headers.vet);
    expect(response.json()).toStrictEqual({ vet_id: w.vet.vet.id, calendar_linked: false });
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
    expect(aurinko.requests).toHaveLength(1);
  });

  it('rate-limits PUT token before asking Aurinko', async () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) expect((await link(`guess-${attempt}`)).statusCode).toBe(400);
    const refused = await link(GOOD_TOKEN);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('600');
    expect(aurinko.requests).toHaveLength(10);
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
  });
});

describe('calendar linking with Aurinko down', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({
      env: { CALENDAR_PROVIDER: 'aurinko', AURINKO_URL: await unusedBaseUrl(), AURINKO_CLIENT_ID: 'client-123' },
    });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 502 calendar_provider_unavailable and links nothing; the authorize URL still works', async () => {
    const response = await calls(t).putToken(w.vet.vet.id, w.headers.vet, {
      vet_id: w.vet.vet.id,
      account_token: 'any-token',
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual(errorBody('calendar_provider_unavailable'));
    expect(await storedToken(t, w.vet.vet.id)).toBe('');
    const authorize = await calls(t).authorize(w.vet.vet.id, w.headers.vet);
    expect(authorize.statusCode).toBe(200);
    expect(new URL(authorize.json<{ url: string }>().url).searchParams.get('serviceType')).toBe('Google');
  });
});
