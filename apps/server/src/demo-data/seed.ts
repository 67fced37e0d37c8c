import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { todayKey } from '@vetcall/shared/dates';
import { addDaysToDateKey, isoWeekday, zonedWallTimeToInstant } from '@vetcall/shared/scheduling/zoned-time';
import { issuePins } from '../modules/appointments/pins.ts';
import type { Secrets } from '../secrets.ts';
import { BREED_CATALOG } from '../modules/breeds/breed-catalog.ts';
import type { Database } from '../db/client.ts';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from './factories.ts';
import { accessCodes, calendarEvents, products, users } from '../db/schema.ts';

export const DEMO_PASSWORD = 'vetcall-demo';

/** pg_advisory_xact_lock key serialising demo seeding across instances (migrations 73_570_001, PINs 73_570_002). */
const DEMO_SEED_LOCK_KEY = 73_570_003;

const DEMO_DOG_BREED = findBreedByEnglishName('Dog', 'Portuguese Water Dog');
const DEMO_CAT_BREED = findBreedByEnglishName('Cat', 'European Shorthair');

/** The demo vets start with their calendar linked (to the built-in calendar), so booking works at once. */
function demoCalendarToken() {
  return `builtin:${randomBytes(24).toString('base64url')}`;
}

function findBreedByEnglishName(species: 'Dog' | 'Cat', name: string) {
  const breed = BREED_CATALOG[species].find((candidate) => candidate.names.en === name);
  if (!breed) throw new Error(`demo breed ${name} is not in the catalogue`);
  return breed;
}

export const DEMO_ACCOUNTS = [
  { email: 'manager@vetcall.test', type: 'manager' },
  { email: 'vet@vetcall.test', type: 'vet' },
  { email: 'vet2@vetcall.test', type: 'vet' },
  { email: 'customer@vetcall.test', type: 'customer' },
] as const;

/** The first Monday-to-Friday date at least `minDays` after `from` ('YYYY-MM-DD'). */
function nextWorkday(from: string, minDays: number): string {
  let date = addDaysToDateKey(from, minDays);
  while (isoWeekday(date) > 5) date = addDaysToDateKey(date, 1);
  return date;
}

/**
 * Creates the demo accounts when the database has no users yet. Returns whether it seeded. With the server's
 * secrets it also books two demo appointments of Rita's Bolinha with Dr. João Silva: one confirmed on the
 * next working day at 11:00 Lisbon time (its PINs are in each party's appointment detail) and one completed
 * two weeks ago, so the lists, records and files have something to show at once.
 */
export async function seedDemoData(
  db: Database,
  demo: { secrets?: Pick<Secrets, 'mac' | 'seal'>; now?: Date } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Instances started together on one empty database each come here: the lock makes the second wait for
    // the first's commit, so it counts the first's users and seeds nothing (not a unique-email crash).
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(DEMO_SEED_LOCK_KEY))})`);
    const [{ count } = { count: 0 }] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    if (count > 0) return false;

    const password = DEMO_PASSWORD;
    await buildManager(tx, {
      email: 'manager@vetcall.test',
      name: 'Marta Ferreira',
      password,
      phone: '',
      locale: 'pt',
    });
    const joao = await buildVet(tx, {
      email: 'vet@vetcall.test',
      name: 'Dr. João Silva',
      password,
      specialty: 'Small animal medicine',
      phone: '+351 213 456 789',
      locale: 'pt',
      accountToken: demoCalendarToken(),
      profile: {
        timezone: 'Europe/Lisbon',
        daySchedules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({
          dayOfWeek,
          workingIntervals: [
            { start: '09:00', end: '13:00' },
            { start: '14:00', end: '18:00' },
          ],
        })),
      },
    });
    await buildVet(tx, {
      email: 'vet2@vetcall.test',
      name: 'Dra. Ana Souza',
      password,
      specialty: 'Feline medicine',
      phone: '+55 11 3456 7890',
      locale: 'pt-BR',
      accountToken: demoCalendarToken(),
      profile: {
        timezone: 'America/Sao_Paulo',
        durationMinutes: 45,
        availabilityStep: 15,
        daySchedules: [
          ...[1, 3, 5].map((dayOfWeek) => ({ dayOfWeek, workingIntervals: [{ start: '08:00', end: '12:00' }] })),
          ...[2, 4].map((dayOfWeek) => ({
            dayOfWeek,
            workingIntervals: [
              { start: '13:00', end: '17:00' },
              { start: '19:00', end: '21:00' },
            ],
          })),
          { dayOfWeek: 6, workingIntervals: [{ start: '09:00', end: '12:00' }] },
        ],
      },
    });
    const { user: rita, customer } = await buildCustomer(tx, {
      email: 'customer@vetcall.test',
      name: 'Rita Carvalho',
      password,
      phone: '+351 912 345 678',
      address: 'Rua Augusta 100',
      postalCode: '1100-053',
      city: 'Lisboa',
      state: 'Lisboa',
      country: 'PT',
      taxId: '501234567',
      locale: 'pt',
    });
    // Breed ids of the curated catalogue (modules/breeds/breed-catalog.ts).
    const bolinha = await buildPet(tx, customer.id, {
      name: 'Bolinha',
      species: 'Dog',
      breedId: DEMO_DOG_BREED.breed_id,
      breed: DEMO_DOG_BREED.names.en,
      gender: 'M',
      birth: '2019-03-14',
      fertileStatus: 'neutered',
      weight: 24.3,
    });
    await buildPet(tx, customer.id, {
      name: 'Mia',
      species: 'Cat',
      breedId: DEMO_CAT_BREED.breed_id,
      breed: DEMO_CAT_BREED.names.en,
      gender: 'F',
      birth: '2022-08-02',
      fertileStatus: 'intact',
      weight: 4.1,
    });
    // The video consultation at 25.00 EUR, and two access codes valid for a year from today.
    await tx.insert(products).values({
      designation: { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Consulta por vídeo' },
      priceCents: 2500,
    });
    const seedDay = new Date();
    const oneYearLater = new Date(seedDay);
    oneYearLater.setUTCFullYear(oneYearLater.getUTCFullYear() + 1);
    const validity = { validFrom: todayKey(seedDay), validTo: todayKey(oneYearLater) };
    await tx.insert(accessCodes).values([
      { code: 'DEMO-FREE', included: true, ...validity },
      { code: 'DEMO-NORMAL', included: false, ...validity },
    ]);

    if (!demo.secrets) return true;
    const now = demo.now ?? new Date();
    const refs = { customerUserId: rita.id, petId: bolinha.id, vetUserId: joao.user.id };
    const today = todayKey(now, 'Europe/Lisbon');
    const upcoming = zonedWallTimeToInstant(nextWorkday(today, 1), '11:00', 'Europe/Lisbon');
    const past = zonedWallTimeToInstant(nextWorkday(addDaysToDateKey(today, -14), 0), '10:00', 'Europe/Lisbon');
    const issued = await issuePins(tx, demo.secrets);
    const paid = { priceCents: 2500, itemName: 'Consulta por vídeo', paymentProvider: 'builtin', paidAt: now };
    const confirmed = await buildAppointment(tx, refs, {
      schedule: upcoming,
      status: 'TK_Confirmed',
      statusDate: now,
      description: 'Coça as orelhas há uma semana e abana muito a cabeça.',
      confirmedAt: now,
      requestNotifiedAt: now,
      customerPinHash: issued.customerPinHash,
      vetPinHash: issued.vetPinHash,
      pinCipher: issued.pinCipher,
      ...paid,
    });
    const completed = await buildAppointment(tx, refs, {
      schedule: past,
      status: 'TK_Completed',
      statusDate: new Date(past.getTime() + 60 * 60_000),
      description: 'Vacinação anual e revisão geral.',
      vetObservations: 'Vacina polivalente administrada. Peso estável. Próxima revisão daqui a um ano.',
      ...paid,
    });
    await tx.insert(calendarEvents).values(
      [confirmed, completed].map((appointment) => ({
        eventId: randomBytes(16).toString('base64url'),
        vetUserId: joao.user.id,
        customerUserId: rita.id,
        profileId: joao.profile.id,
        kind: 'booking' as const,
        startsAt: appointment.schedule,
        endsAt: new Date(appointment.schedule.getTime() + appointment.durationMinutes * 60_000),
        appointmentId: appointment.id,
      })),
    );
    return true;
  });
}
