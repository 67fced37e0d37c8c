import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../src/demo-data/factories.ts';
import type { appointments } from '../src/db/schema.ts';
import { pinLookupHash, sealPins } from '../src/modules/appointments/pins.ts';
import type { TestApp } from './build-test-app.ts';

export const PASSWORD = 'secret-pass';
/** The PINs of the world's confirmed appointment. */
export const PINS = { customer: '123456', vet: '654321' } as const;
export const VET_NOTES = 'Secret vet notes: suspected ligament strain';

export type Role = 'customer' | 'otherCustomer' | 'vet' | 'otherVet' | 'manager' | 'anonymous';
export type Headers = Record<string, string>;

/** Columns that make an appointment confirmed with PINs, as the confirmation flow stores them. */
export function confirmedWithPins(t: TestApp, pins: { customer: string; vet: string } = PINS) {
  const { secrets } = t.context;
  return {
    status: 'TK_Confirmed' as const,
    customerPinHash: pinLookupHash(secrets, pins.customer),
    vetPinHash: pinLookupHash(secrets, pins.vet),
    pinCipher: sealPins(secrets, pins),
  };
}

/**
 * Ana (customer, English) and her dog Bobi with vet Rui (Lisbon, Portuguese): one confirmed appointment with
 * PINs and observations. Bruno (customer) and his cat Tareco with vet Sara (Brazilian Portuguese): one
 * requested appointment. A manager (English). Staff first, so user, customer, pet and appointment ids differ.
 */
export async function buildAppointmentWorld(
  t: TestApp,
  options: { confirmed?: Partial<typeof appointments.$inferInsert> } = {},
) {
  const manager = await buildManager(t.db, {
    email: 'boss@clinic.test',
    password: PASSWORD,
    name: 'Marta Gestora',
    locale: 'en',
  });
  const rui = await buildVet(t.db, {
    email: 'rui@clinic.test',
    password: PASSWORD,
    name: 'Rui Costa',
    locale: 'pt',
    profile: { timezone: 'Europe/Lisbon' },
  });
  const sara = await buildVet(t.db, {
    email: 'sara@clinic.test',
    password: PASSWORD,
    name: 'Sara Lima',
    locale: 'pt-BR',
    profile: { timezone: 'America/Sao_Paulo' },
  });
  const bruno = await buildCustomer(t.db, {
    email: 'bruno@example.test',
    password: PASSWORD,
    name: 'Bruno Reis',
    locale: 'pt',
  });
  const ana = await buildCustomer(t.db, {
    email: 'ana@example.test',
    password: PASSWORD,
    name: 'Ana Silva',
    locale: 'en',
    address: 'Rua das Flores 1',
    taxId: '501234567',
  });
  const bobi = await buildPet(t.db, ana.customer.id, { name: 'Bobi', policy: 'POLICY12345' });
  const tareco = await buildPet(t.db, bruno.customer.id, { name: 'Tareco', species: 'Cat' });
  const confirmed = await buildAppointment(
    t.db,
    { customerUserId: ana.user.id, petId: bobi.id, vetUserId: rui.user.id },
    {
      ...confirmedWithPins(t),
      schedule: new Date('2026-11-20T11:00:00Z'),
      statusDate: new Date('2026-11-18T09:00:00Z'),
      description: 'Limping on the left hind leg since yesterday.',
      vetObservations: VET_NOTES,
      calendarEventId: 'evt-ana-rui',
      timezoneDiff: 0,
      priceCents: 2125,
      ...options.confirmed,
    },
  );
  const requested = await buildAppointment(
    t.db,
    { customerUserId: bruno.user.id, petId: tareco.id, vetUserId: sara.user.id },
    {
      status: 'TK_Requested',
      schedule: new Date('2026-11-25T13:00:00Z'),
      statusDate: new Date('2026-11-18T10:00:00Z'),
      description: 'Not eating.',
      vetObservations: 'Sara’s private notes',
      timezoneDiff: -10800,
    },
  );
  const headers: Record<Role, Headers> = {
    customer: (await t.loginAs('ana@example.test', PASSWORD)).headers,
    otherCustomer: (await t.loginAs('bruno@example.test', PASSWORD)).headers,
    vet: (await t.loginAs('rui@clinic.test', PASSWORD)).headers,
    otherVet: (await t.loginAs('sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, rui, sara, ana, bruno, bobi, tareco, confirmed, requested, headers };
}

export type AppointmentWorld = Awaited<ReturnType<typeof buildAppointmentWorld>>;

/** Every key an answer holds, at any depth, as 'path.to.key' (array items as []). */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keyPaths(item, `${prefix}[]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => {
      const path = prefix ? `${prefix}.${key}` : key;
      return [path, ...keyPaths(inner, path)];
    });
  }
  return [];
}

/** The fields every role sees of an appointment it may open. */
export const COMMON_APPOINTMENT_KEYS = [
  'appointment_id',
  'id',
  'hash',
  'schedule',
  'duration_minutes',
  'customer_user_id',
  'customer_name',
  'customerEmail',
  'pet_id',
  'pet_name',
  'pet_policy',
  'vet_user_id',
  'vet_name',
  'vetEmail',
  'description',
  'appointment_status_key',
  'appointment_status',
  'status_date',
  'calendar_event_id',
  'timezone_diff',
  'price',
  'lifecycle',
];

export const APPOINTMENT_KEYS_BY_VIEWER = {
  customer: [...COMMON_APPOINTMENT_KEYS, 'viewer', 'customer_pin'].sort(),
  vet: [...COMMON_APPOINTMENT_KEYS, 'viewer', 'vet_observations', 'vet_pin'].sort(),
  manager: [...COMMON_APPOINTMENT_KEYS, 'viewer', 'vet_observations'].sort(),
};

export const LIST_ITEM_KEYS = [
  'appointment_id',
  'schedule',
  'customer_user_id',
  'customer_name',
  'pet_id',
  'pet_name',
  'vet_user_id',
  'vet_name',
  'appointment_status_key',
  'appointment_status',
  'status_date',
  'price',
].sort();

/**
 * The world's requested appointment (Bruno's Tareco with Sara, 25 November 2026 10:00 in São Paulo) taken
 * through its life by the API, each step answered as given: Sara confirms it from her mail at its booked time,
 * Bruno moves it to a time he first holds, Bruno cancels it.
 */
export function requestedAppointmentSteps(t: TestApp, w: AppointmentWorld) {
  return {
    confirm: () =>
      t.app.inject({
        method: 'POST',
        url: `/api/appointments/confirm/${w.requested.hash}`,
        payload: {
          hash: w.requested.hash,
          email: 'sara@clinic.test',
          schedule: '2026-11-25 10:00',
          timezone_diff: -10800,
        },
      }),
    /** The hold's answer when it is refused, else the move's. */
    moveTo: async (start: string) => {
      const hold = await t.app.inject({
        method: 'POST',
        url: '/api/scheduling/holds',
        headers: w.headers.otherCustomer,
        payload: { vet_id: w.sara.vet.id, profile_id: w.sara.profile.id, start },
      });
      if (hold.statusCode !== 201) return hold;
      return t.app.inject({
        method: 'POST',
        url: `/api/appointments/${w.requested.id}/reschedule`,
        headers: w.headers.otherCustomer,
        payload: { event_id: hold.json<{ event_id: string }>().event_id },
      });
    },
    cancel: () =>
      t.app.inject({
        method: 'POST',
        url: `/api/appointments/${w.requested.id}/cancel`,
        headers: w.headers.otherCustomer,
        payload: {},
      }),
  };
}
