import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { todayKey } from '@vetcall/shared/dates';
import { BREED_CATALOG } from '../modules/breeds/breed-catalog.ts';
import type { Database } from './client.ts';
import { buildCustomer, buildManager, buildPet, buildVet } from './factories.ts';
import { accessCodes, products, users } from './schema.ts';

export const DEMO_PASSWORD = 'vetcall-demo';

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

/** Creates the demo accounts when the database has no users yet. Returns whether it seeded. */
export async function seedDemoData(db: Database): Promise<boolean> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return false;

  await db.transaction(async (tx) => {
    const password = DEMO_PASSWORD;
    await buildManager(tx, {
      email: 'manager@vetcall.test',
      name: 'Marta Ferreira',
      password,
      phone: '',
      locale: 'pt',
    });
    await buildVet(tx, {
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
    const { customer } = await buildCustomer(tx, {
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
    await buildPet(tx, customer.id, {
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
  });
  return true;
}
