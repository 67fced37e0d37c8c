import type { UserType } from '@vetcall/shared/roles';
import type { Locale } from '@vetcall/shared/locales';
import { hashPassword } from '../modules/auth/passwords.ts';
import { createDefaultProfile } from '../modules/availability/availability-profiles.ts';
import type { Database } from '../db/client.ts';
import { randomBytes } from 'node:crypto';
import { appointments, calendarEvents, customers, managers, pets, users, vets } from '../db/schema.ts';

/**
 * Builders shared by the demo seed and the tests, so both create people the same way.
 * Each returns the inserted user row plus its role row.
 */
export interface UserOverrides {
  name?: string;
  email?: string;
  password?: string;
  phone?: string;
  address?: string;
  locale?: Locale;
  active?: boolean;
}

/**
 * How builders hash passwords: with the production settings (the demo seed), unless the tests' setup file
 * swapped in a cheap hasher (test/fixture-passwords.ts).
 */
let passwordHasher: (password: string) => Promise<string> = hashPassword;
export function useFixturePasswordHasher(hasher: (password: string) => Promise<string>) {
  passwordHasher = hasher;
}

let sequence = 0;
const nextSequence = () => ++sequence;

async function insertUser(db: Database, type: UserType, overrides: UserOverrides) {
  const n = nextSequence();
  const [user] = await db
    .insert(users)
    .values({
      type,
      name: overrides.name ?? `${type} ${n}`,
      email: (overrides.email ?? `${type}${n}-${Date.now()}@example.test`).toLowerCase(),
      phone: overrides.phone ?? '',
      address: overrides.address ?? '',
      locale: overrides.locale ?? 'pt',
      active: overrides.active ?? true,
      passwordHash: await passwordHasher(overrides.password ?? 'correct horse battery'),
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  return user;
}

export async function buildCustomer(
  db: Database,
  overrides: UserOverrides & {
    taxId?: string;
    postalCode?: string;
    city?: string;
    state?: string;
    country?: string;
  } = {},
) {
  const user = await insertUser(db, 'customer', { phone: '912345678', ...overrides });
  const [customer] = await db
    .insert(customers)
    .values({
      userId: user.id,
      taxId: overrides.taxId ?? '123456789',
      postalCode: overrides.postalCode ?? '1000-001',
      city: overrides.city ?? 'Lisboa',
      state: overrides.state ?? 'Lisboa',
      country: overrides.country ?? 'PT',
    })
    .returning();
  return { user, customer: customer! };
}

export async function buildVet(
  db: Database,
  overrides: UserOverrides & {
    specialty?: string;
    discount?: number;
    accountToken?: string;
    profile?: Parameters<typeof createDefaultProfile>[2];
  } = {},
) {
  const user = await insertUser(db, 'vet', { phone: '213456789', ...overrides });
  const [vet] = await db
    .insert(vets)
    .values({
      userId: user.id,
      specialty: overrides.specialty ?? 'General practice',
      discount: overrides.discount ?? 0,
      accountToken: overrides.accountToken ?? '',
    })
    .returning();
  // Every vet has an availability profile, as one created by a manager does.
  const profile = await createDefaultProfile(db, vet!.id, overrides.profile);
  return { user, vet: vet!, profile };
}

export async function buildManager(db: Database, overrides: UserOverrides = {}) {
  const user = await insertUser(db, 'manager', overrides);
  const [manager] = await db.insert(managers).values({ userId: user.id }).returning();
  return { user, manager: manager! };
}

export async function buildPet(db: Database, customerId: number, overrides: Partial<typeof pets.$inferInsert> = {}) {
  const [pet] = await db
    .insert(pets)
    .values({
      customerId,
      name: `Pet ${nextSequence()}`,
      species: 'Dog',
      breed: '',
      gender: 'F',
      birth: '2020-05-17',
      fertileStatus: 'intact',
      weight: 12.5,
      ...overrides,
    })
    .returning();
  return pet!;
}

export async function buildAppointment(
  db: Database,
  refs: { customerUserId: number; petId: number; vetUserId: number },
  overrides: Partial<typeof appointments.$inferInsert> = {},
) {
  const [appointment] = await db
    .insert(appointments)
    .values({
      ...refs,
      hash: randomBytes(16).toString('base64url'),
      paymentHash: randomBytes(16).toString('base64url'),
      description: 'Limping on the left hind leg since yesterday.',
      schedule: new Date('2026-12-01T10:00:00Z'),
      status: 'TK_Confirmed',
      priceCents: 2500,
      ...overrides,
    })
    .returning();
  return appointment!;
}

/**
 * A customer's hold on a vet's time (calendar_events kind 'hold'), as POST /api/scheduling/holds makes
 * one, without the slot checks: `startsAt` need not be a slot of a profile. `vetUserId` is the vet's
 * user id; `eventId` defaults to a random one.
 */
export async function buildHold(
  db: Database,
  input: {
    vetUserId: number;
    customerUserId: number;
    startsAt: Date | string;
    durationMinutes?: number;
    expiresAt: Date | string;
    eventId?: string;
    appointmentId?: number | null;
    releasedAt?: Date | null;
  },
) {
  const startsAt = new Date(input.startsAt);
  const [hold] = await db
    .insert(calendarEvents)
    .values({
      eventId: input.eventId ?? randomBytes(16).toString('base64url'),
      vetUserId: input.vetUserId,
      customerUserId: input.customerUserId,
      kind: 'hold',
      startsAt,
      endsAt: new Date(startsAt.getTime() + (input.durationMinutes ?? 30) * 60_000),
      expiresAt: new Date(input.expiresAt),
      appointmentId: input.appointmentId ?? null,
      releasedAt: input.releasedAt ?? null,
    })
    .returning();
  return hold!;
}
