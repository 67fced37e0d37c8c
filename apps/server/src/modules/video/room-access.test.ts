import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { buildVideoAppointment } from '../../../test/video-world.ts';
import { jitsiToken } from '../../providers/video/jitsi-token.ts';
import { PIN_LOOKUP_FAILURES_PER_IP, openRoomByPin, pinLogReference } from './room-access.service.ts';

/** The appointment starts at 14:00 UTC; its room is open from 13:30 until 15:00, both included. */
const START = new Date('2026-03-10T14:00:00Z');
const OPENS_AT = '2026-03-10T13:30:00.000Z';
const CLOSES_AT = '2026-03-10T15:00:00.000Z';

describe('GET /api/appointments/pin/{pin}', () => {
  let t: TestApp;
  const clock = fixedClock('2026-03-10T14:05:00Z');
  beforeEach(async () => {
    clock.set('2026-03-10T14:05:00Z');
    t = await buildTestApp({ clock });
  });
  afterEach(async () => {
    await t.close();
  });

  const lookup = (pin: string, remoteAddress = '203.0.113.7') =>
    t.app.inject({ method: 'GET', url: `/api/appointments/pin/${pin}`, remoteAddress });

  it('answers the customer of a customer PIN and the vet of a vet PIN, with the room and its window', async () => {
    const world = await buildVideoAppointment(t, { schedule: START, vetName: 'Rui Vet', customerName: 'Ana Dona' });

    const customer = await lookup(world.pins.customer);
    expect(customer.statusCode).toBe(200);
    expect(customer.headers['cache-control']).toBe('no-store');
    expect(customer.json()).toEqual({
      user_email: world.customer.user.email,
      user_name: 'Ana Dona',
      hash: world.appointment.hash,
      party: 'customer',
      opens_at: OPENS_AT,
      closes_at: CLOSES_AT,
    });

    const vet = await lookup(world.pins.vet);
    expect(vet.statusCode).toBe(200);
    expect(vet.json()).toEqual({
      user_email: world.vet.user.email,
      user_name: 'Rui Vet',
      hash: world.appointment.hash,
      party: 'vet',
      opens_at: OPENS_AT,
      closes_at: CLOSES_AT,
    });
  });

  it('answers 404 pin_not_found for an unknown PIN and for the PIN of an appointment that is not confirmed', async () => {
    const canceled = await buildVideoAppointment(t, { schedule: START, status: 'TK_Canceled' });
    const requested = await buildVideoAppointment(t, { schedule: START, status: 'TK_Requested' });
    const pins = [canceled.pins.customer, requested.pins.vet];
    // A PIN no appointment holds: any other six digits.
    const issued = [...Object.values(canceled.pins), ...Object.values(requested.pins)];
    const unknown = ['000000', '111111', '999999'].find((pin) => !issued.includes(pin))!;
    for (const pin of [...pins, unknown]) {
      const response = await lookup(pin);
      expect(response.statusCode, pin).toBe(404);
      expect(response.json()).toMatchObject({ error: 'pin_not_found' });
    }
  });

  it.each(['12345', '1234567', 'abcdef', '12a456', '%20123456'])(
    'refuses the malformed PIN %j with 400',
    async (pin) => {
      const response = await lookup(pin);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { pin: 'invalid_format' } });
    },
  );

  it.each([
    ['a millisecond before it opens', '2026-03-10T13:29:59.999Z', 409, 'room_not_open'],
    ['the moment it opens (30 min before the start)', OPENS_AT, 200, undefined],
    ['at the start', '2026-03-10T14:00:00Z', 200, undefined],
    ['the moment it closes (1 h after the start)', CLOSES_AT, 200, undefined],
    ['a millisecond after it closes', '2026-03-10T15:00:00.001Z', 409, 'room_closed'],
    ['the next day', '2026-03-11T14:00:00Z', 409, 'room_closed'],
  ] as const)('opens the room only in its window: %s', async (_when, now, status, error) => {
    const world = await buildVideoAppointment(t, { schedule: START });
    clock.set(now);
    const response = await lookup(world.pins.customer);
    expect(response.statusCode).toBe(status);
    if (error) {
      // The answer says when the room opens (docs/product-rules.md#pin-screen 'unavailable' with an explanation).
      expect(response.json()).toEqual({
        error,
        message: expect.stringContaining(error === 'room_not_open' ? OPENS_AT : CLOSES_AT),
        opens_at: OPENS_AT,
        closes_at: CLOSES_AT,
      });
    }
  });

  it('refuses an IP with 429 and Retry-After after 10 failed lookups in 10 minutes, even for a right PIN', async () => {
    const world = await buildVideoAppointment(t, { schedule: START });
    const unknownPins = Array.from({ length: 10 }, (_, index) => String(100_000 + index)).filter(
      (pin) => pin !== world.pins.customer && pin !== world.pins.vet,
    );
    expect(unknownPins).toHaveLength(PIN_LOOKUP_FAILURES_PER_IP.limit);
    for (const pin of unknownPins) expect((await lookup(pin)).statusCode).toBe(404);

    const refused = await lookup(world.pins.customer);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'too_many_requests' });
    expect(Number(refused.headers['retry-after'])).toBe(600);

    // Another address is not affected; the refused one is let in again once the window is over.
    expect((await lookup(world.pins.customer, '198.51.100.9')).statusCode).toBe(200);
    clock.advance(PIN_LOOKUP_FAILURES_PER_IP.windowMs);
    expect((await lookup(world.pins.customer)).statusCode).toBe(200);
  });

  it('counts only failures: PINs found, inside their window or not, use nothing of the allowance', async () => {
    const open = await buildVideoAppointment(t, { schedule: START });
    const later = await buildVideoAppointment(t, { schedule: new Date('2026-03-12T14:00:00Z') });
    for (let round = 0; round < 12; round++) {
      expect((await lookup(open.pins.vet)).statusCode).toBe(200);
      expect((await lookup(later.pins.customer)).statusCode).toBe(409);
    }
    for (let index = 0; index < 9; index++) await lookup(String(200_000 + index));
    expect((await lookup(open.pins.customer)).statusCode).toBe(200);
  });

  it('logs every failed lookup with a reference to the PIN, never the PIN', async () => {
    const world = await buildVideoAppointment(t, { schedule: new Date('2026-03-12T14:00:00Z') });
    const log = { warn: vi.fn() };
    const request = { ip: '203.0.113.50', log };
    await expect(openRoomByPin(t.context, '424242', request)).rejects.toMatchObject({ code: 'pin_not_found' });
    await expect(openRoomByPin(t.context, world.pins.vet, request)).resolves.toMatchObject({ kind: 'room_not_open' });
    for (let index = 0; index < 9; index++) await openRoomByPin(t.context, '424242', request).catch(() => undefined);
    log.warn.mockClear();
    await expect(openRoomByPin(t.context, world.pins.vet, request)).rejects.toMatchObject({
      code: 'too_many_requests',
    });
    expect(log.warn).toHaveBeenCalledWith(
      { pinRef: expect.stringMatching(/^[0-9a-f]{10}$/), ip: '203.0.113.50', outcome: 'too_many_requests' },
      'PIN lookup failed',
    );
    log.warn.mockClear();

    const fresh = { ip: '203.0.113.51', log };
    await openRoomByPin(t.context, '424242', fresh).catch(() => undefined);
    await openRoomByPin(t.context, world.pins.vet, fresh);
    expect(log.warn.mock.calls.map(([fields]) => (fields as { outcome: string }).outcome)).toEqual([
      'pin_not_found',
      'room_not_open',
    ]);
    const logged = JSON.stringify(log.warn.mock.calls);
    expect(logged).not.toContain('424242');
    expect(logged).not.toContain(world.pins.vet);
    // A PIN always gives the same reference, so repeated attempts with it show in the log.
    const [first, second] = log.warn.mock.calls.map(([fields]) => (fields as { pinRef: string }).pinRef);
    expect(first).toBe(pinLogReference(t.context, '424242'));
    expect(second).toBe(pinLogReference(t.context, world.pins.vet));
  });
});

describe('GET /api/appointments/pin/{pin} with Jitsi token auth', () => {
  const clock = fixedClock('2026-03-10T14:05:00Z');
  const jitsi = { VIDEO_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.clinic.test' };
  const tokenAuth = { JITSI_APP_ID: 'vetcall', JITSI_APP_SECRET: 'x'.repeat(32) };

  it.each([
    ['the built-in room', {}, false],
    ['Jitsi without token auth', jitsi, false],
    ['the built-in room, even with JITSI_APP_ID and JITSI_APP_SECRET', tokenAuth, false],
    ['Jitsi with JITSI_APP_ID and JITSI_APP_SECRET', { ...jitsi, ...tokenAuth }, true],
  ] as const)('carries jitsi_jwt only when configured: %s', async (_case, env, carries) => {
    const t = await buildTestApp({ env, clock });
    try {
      const world = await buildVideoAppointment(t, { schedule: START, vetName: 'Rui Vet' });
      const response = await t.app.inject({ method: 'GET', url: `/api/appointments/pin/${world.pins.vet}` });
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>>();
      if (!carries) {
        expect(body).not.toHaveProperty('jitsi_jwt');
        return;
      }
      // The vet's token for this room, signed with the app secret, valid in the room's window.
      expect(body.jitsi_jwt).toBe(
        await jitsiToken(
          { appId: 'vetcall', appSecret: 'x'.repeat(32), domain: 'meet.clinic.test' },
          {
            hash: world.appointment.hash,
            party: 'vet',
            user: { name: 'Rui Vet', email: world.vet.user.email },
            window: { opensAt: new Date(OPENS_AT), closesAt: new Date(CLOSES_AT) },
          },
          clock.now(),
        ),
      );
    } finally {
      await t.close();
    }
  });
});

describe('GET /api/client-config, video settings', () => {
  it('says the built-in room by default', async () => {
    const t = await buildTestApp();
    try {
      const body = (await t.app.inject({ method: 'GET', url: '/api/client-config' })).json();
      expect(body).toMatchObject({ video_provider: 'builtin', jitsi_domain: null });
    } finally {
      await t.close();
    }
  });

  it('names the Jitsi domain when the provider is jitsi', async () => {
    const t = await buildTestApp({ env: { VIDEO_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.clinic.test' } });
    try {
      const body = (await t.app.inject({ method: 'GET', url: '/api/client-config' })).json();
      expect(body).toMatchObject({ video_provider: 'jitsi', jitsi_domain: 'meet.clinic.test' });
    } finally {
      await t.close();
    }
  });
});
