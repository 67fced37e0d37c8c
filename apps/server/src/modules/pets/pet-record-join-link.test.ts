import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from '@vetcall/shared/appointment-status';
import { fixedClock } from '../../clock.ts';
import { buildAppointment } from '../../demo-data/factories.ts';
import { appointments } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  confirmedWithPins,
  type Headers,
  PINS,
  VET_NOTES,
} from '../../../test/appointment-world.ts';

/** The world's confirmed appointment starts at 11:00 UTC on 20 November 2026. */
const START = new Date('2026-11-20T11:00:00Z');
const HOUR_MS = 60 * 60 * 1000;

const HISTORY_KEYS = [
  'appointment_id',
  'appointment_status_key',
  'hash',
  'join_pin',
  'schedule',
  'status_date',
  'vet_name',
  'vet_user_id',
];

/**
 * GET /api/pets/record/{pet_id}/{language}, history join links (docs/product-rules.md#pet-records, #states, #limits):
 * the reader's own PIN while the appointment is confirmed and started at most one hour ago; otherwise null.
 */
describe('pet record history: join_pin', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(new Date(START.getTime() - 2 * HOUR_MS));
    t = await buildTestApp({ clock });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const history = async (headers: Headers, petId = w.bobi.id) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/pets/record/${petId}/en`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ history: Record<string, unknown>[] }>().history;
  };

  it('gives the owner the customer PIN and the appointment’s vet the vet PIN; managers none; exact keys', async () => {
    const owner = await history(w.headers.customer);
    const vet = await history(w.headers.vet);
    const manager = await history(w.headers.manager);
    for (const rows of [owner, vet, manager]) {
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0]!).sort()).toEqual(HISTORY_KEYS);
    }
    expect([owner[0]!.join_pin, vet[0]!.join_pin, manager[0]!.join_pin]).toEqual([PINS.customer, PINS.vet, null]);
    for (const rows of [owner, vet, manager]) expect(JSON.stringify(rows)).not.toContain(VET_NOTES);
  });

  it('gives a vet who may read the pet no PIN of another vet’s appointment', async () => {
    // Sara sees Bobi's record through her own (requested) appointment with Ana, and Rui's row without a PIN.
    const saras = await buildAppointment(
      t.db,
      { customerUserId: w.ana.user.id, petId: w.bobi.id, vetUserId: w.sara.user.id },
      { ...confirmedWithPins(t, { customer: '111111', vet: '222222' }), schedule: new Date('2026-11-22T10:00:00Z') },
    );
    const rows = await history(w.headers.otherVet);
    expect(rows.map((row) => [row.appointment_id, row.join_pin])).toEqual([
      [saras.id, '222222'],
      [w.confirmed.id, null],
    ]);
    const owner = await history(w.headers.customer);
    expect(owner.map((row) => row.join_pin)).toEqual(['111111', PINS.customer]);
  });

  it('keeps the link until one hour after the start, and not a millisecond longer', async () => {
    clock.set(new Date(START.getTime() + HOUR_MS));
    expect((await history(w.headers.customer))[0]!.join_pin).toBe(PINS.customer);
    expect((await history(w.headers.vet))[0]!.join_pin).toBe(PINS.vet);
    clock.set(new Date(START.getTime() + HOUR_MS + 1));
    expect((await history(w.headers.customer))[0]!.join_pin).toBeNull();
    expect((await history(w.headers.vet))[0]!.join_pin).toBeNull();
  });

  it.each(APPOINTMENT_STATUSES.filter((status) => status !== 'TK_Confirmed'))(
    'offers no link in status %s',
    async (status) => {
      await t.db.update(appointments).set({ status }).where(eq(appointments.id, w.confirmed.id));
      expect((await history(w.headers.customer))[0]!.join_pin).toBeNull();
      expect((await history(w.headers.vet))[0]!.join_pin).toBeNull();
    },
  );
});
