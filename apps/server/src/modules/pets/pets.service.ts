import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { ageBetween, todayKey } from '@vetcall/shared/dates';
import type { Locale } from '@vetcall/shared/locales';
import { canonicalSpecies } from '@vetcall/shared/pet-species';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import type { Pet, PetInput, PetRecord } from '@vetcall/shared/schemas/pet';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { decodeCursor, keysetPage, rowsAfter, scheduleCursorOf } from '../../lib/keyset-cursor.ts';
import { appointments, customers, pets, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { isJoinLinkOpen, viewerOf } from '../appointments/appointment.policy.ts';
import { ownPin } from '../appointments/appointment-view.ts';
import { breedName, findBreed } from '../breeds/breed-catalog.ts';
import { vetHasAppointmentWithCustomer } from '../customers/customer-relations.ts';
import { findCustomer } from '../customers/customers.service.ts';
import { canEditPet, canViewPet } from './pets.policy.ts';

type PetRow = typeof pets.$inferSelect;
type ParsedPetInput = Required<Pick<PetInput, 'breed_id' | 'breed' | 'policy'>> &
  Omit<PetInput, 'breed_id' | 'breed' | 'policy'>;

function toPet(row: PetRow, owner: { userId: number }, locale: Locale): Pet {
  const species = canonicalSpecies(row.species);
  const catalogueName = species && row.breedId !== null ? breedName(species, row.breedId, locale) : undefined;
  return {
    pet_id: row.id,
    user_id: owner.userId,
    customer_id: row.customerId,
    name: row.name,
    species: row.species,
    breed_id: row.breedId,
    breed: catalogueName ?? row.breed,
    gender: row.gender,
    birth: row.birth,
    fertile_status: row.fertileStatus,
    weight: Number(row.weight),
    policy: row.policy,
    archived: row.archivedAt !== null,
  };
}

/** Turns form input into stored columns: canonical species, a catalogue breed checked, policy only with insurance. */
function toColumns(input: ParsedPetInput, insuranceEnabled: boolean) {
  const species =
    canonicalSpecies(input.species) ??
    (input.species.trim().toLowerCase() === 'other' ? 'Other' : input.species.trim());
  let breedId: number | null = null;
  let breed = input.breed;
  if (input.breed_id !== null) {
    const listed = species === 'Dog' || species === 'Cat' ? findBreed(species, input.breed_id) : undefined;
    if (!listed) throw new AppError('validation_failed', 400, { fields: { breed_id: 'invalid_value' } });
    breedId = input.breed_id;
    // The English name is kept beside the id so exports and free-text searches read well.
    breed = listed.names.en;
  }
  return {
    name: input.name,
    species,
    breedId,
    breed,
    gender: input.gender,
    birth: input.birth,
    fertileStatus: input.fertile_status,
    weight: input.weight,
    policy: insuranceEnabled ? input.policy || null : null,
  };
}

/** A pet with its owner's user id, if the actor may read it; 404 otherwise (existence does not leak). */
async function loadVisiblePet(db: Database, actor: Actor, petId: number) {
  const [row] = await db
    .select({ pet: pets, ownerUserId: customers.userId })
    .from(pets)
    .innerJoin(customers, eq(customers.id, pets.customerId))
    .where(eq(pets.id, petId))
    .limit(1);
  if (!row) throw notFound();
  const related = await vetHasAppointmentWithCustomer(db, actor, row.ownerUserId);
  if (!canViewPet(actor, row.ownerUserId, related)) throw notFound();
  return row;
}

async function loadEditablePet(db: Database, actor: Actor, petId: number) {
  const row = await loadVisiblePet(db, actor, petId);
  if (!canEditPet(actor, row.ownerUserId)) throw forbidden();
  if (row.pet.archivedAt) throw notFound();
  return row;
}

export async function listCustomerPets(db: Database, actor: Actor, customerId: number, locale: Locale): Promise<Pet[]> {
  const customer = await findCustomer(db, { customerId });
  if (!customer) throw notFound();
  const related = await vetHasAppointmentWithCustomer(db, actor, customer.user_id);
  if (!canViewPet(actor, customer.user_id, related)) throw notFound();
  const rows = await db
    .select()
    .from(pets)
    .where(and(eq(pets.customerId, customerId), isNull(pets.archivedAt)))
    .orderBy(asc(pets.id));
  return rows.map((row) => toPet(row, { userId: customer.user_id }, locale));
}

export async function getPet(db: Database, actor: Actor, petId: number, locale: Locale): Promise<Pet> {
  const { pet, ownerUserId } = await loadVisiblePet(db, actor, petId);
  return toPet(pet, { userId: ownerUserId }, locale);
}

/** Only customers own pets; a pet is always created for the actor's own customer record. */
export async function createPet(
  deps: Pick<AppContext, 'db' | 'config'>,
  actor: Actor,
  input: ParsedPetInput,
  locale: Locale,
  db: Database = deps.db,
): Promise<Pet> {
  if (actor.type !== 'customer') throw forbidden();
  const customer = await findCustomer(db, { userId: actor.userId });
  if (!customer) throw forbidden();
  const [row] = await db
    .insert(pets)
    .values({ customerId: customer.customer_id, ...toColumns(input, deps.config.insuranceEnabled) })
    .returning();
  return toPet(row!, { userId: actor.userId }, locale);
}

export async function updatePet(
  deps: Pick<AppContext, 'db' | 'config' | 'clock'>,
  actor: Actor,
  petId: number,
  input: ParsedPetInput,
  locale: Locale,
  db: Database = deps.db,
): Promise<Pet> {
  const { ownerUserId } = await loadEditablePet(db, actor, petId);
  const [row] = await db
    .update(pets)
    .set({ ...toColumns(input, deps.config.insuranceEnabled), updatedAt: deps.clock.now() })
    .where(eq(pets.id, petId))
    .returning();
  return toPet(row!, { userId: ownerUserId }, locale);
}

/**
 * Removes a pet. One with appointment history is archived instead, so the history keeps its pet
 * (docs/product-rules.md#pet-records); the answer says which happened so the screen can tell the person.
 */
export async function deletePet(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  petId: number,
  db: Database = deps.db,
): Promise<{ pet_id: number; archived: boolean }> {
  await loadEditablePet(db, actor, petId);
  const [history] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.petId, petId))
    .limit(1);
  if (history) {
    await db.update(pets).set({ archivedAt: deps.clock.now() }).where(eq(pets.id, petId));
    return { pet_id: petId, archived: true };
  }
  await db.delete(pets).where(eq(pets.id, petId));
  return { pet_id: petId, archived: false };
}

export interface PetChanges {
  create: ParsedPetInput[];
  update: (ParsedPetInput & { pet_id: number })[];
  delete: number[];
}

/**
 * docs/product-rules.md#states Pets: the customer's Save sends creates, updates and deletes, applied all or nothing.
 */
export async function applyPetChanges(
  deps: Pick<AppContext, 'db' | 'config' | 'clock'>,
  actor: Actor,
  customerId: number,
  changes: PetChanges,
  locale: Locale,
) {
  const customer = await findCustomer(deps.db, { customerId });
  // A customer gets the same 404 for a missing record as for someone else's: existence does not leak.
  if (!customer || !canEditPet(actor, customer.user_id)) throw actor.type === 'customer' ? notFound() : forbidden();
  return deps.db.transaction(async (tx) => {
    const removed = [];
    for (const petId of changes.delete) removed.push(await deletePet(deps, actor, petId, tx));
    const updated = [];
    for (const { pet_id, ...input } of changes.update)
      updated.push(await updatePet(deps, actor, pet_id, input, locale, tx));
    const created = [];
    for (const input of changes.create) created.push(await createPet(deps, actor, input, locale, tx));
    return { created, updated, removed };
  });
}

/** The history's instants, as they have always been sent: ISO 8601 in UTC to the second (no milliseconds). */
const isoSeconds = (instant: Date) => instant.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * GET /api/pets/record/{pet_id}/{language}: the pet, its age and one keyset page of its appointments, newest
 * first (read backwards through appointments_pet_idx from the cursor). Each history row carries the viewer's own
 * join PIN while its join link is open (docs/product-rules.md#pet-records, #states): the owner's customer PIN, or
 * the vet PIN for that appointment's vet; managers and other vets get none.
 */
export async function getPetRecord(
  deps: Pick<AppContext, 'db' | 'clock' | 'secrets'>,
  actor: Actor,
  petId: number,
  locale: Locale,
  request: { cursor?: string } = {},
): Promise<PetRecord> {
  const { pet, ownerUserId } = await loadVisiblePet(deps.db, actor, petId);
  const cursor = request.cursor ? decodeCursor(request.cursor) : undefined;
  const rows = await deps.db
    .select({
      id: appointments.id,
      hash: appointments.hash,
      schedule: appointments.schedule,
      vetUserId: appointments.vetUserId,
      vetName: users.name,
      status: appointments.status,
      statusDate: appointments.statusDate,
      customerUserId: appointments.customerUserId,
      pinCipher: appointments.pinCipher,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.vetUserId))
    .where(
      and(
        eq(appointments.petId, petId),
        cursor ? rowsAfter(appointments.schedule, appointments.id, cursor, 'desc') : undefined,
      ),
    )
    .orderBy(desc(appointments.schedule), desc(appointments.id))
    .limit(APPOINTMENT_PAGE_SIZE + 1);
  const page = keysetPage(rows, APPOINTMENT_PAGE_SIZE, scheduleCursorOf);
  const now = deps.clock.now();
  const history = page.rows.map((row) => {
    const viewer = viewerOf(actor, { customerUserId: row.customerUserId, vetUserId: row.vetUserId });
    const appointment = { status: row.status, schedule: row.schedule, pinCipher: row.pinCipher };
    const party = viewer === 'customer' || viewer === 'vet' ? viewer : undefined;
    const joinPin = party && isJoinLinkOpen(appointment, now) ? ownPin(deps.secrets, appointment, party) : null;
    return {
      appointment_id: row.id,
      hash: row.hash,
      schedule: isoSeconds(row.schedule),
      vet_user_id: row.vetUserId,
      vet_name: row.vetName,
      appointment_status_key: row.status,
      status_date: isoSeconds(row.statusDate),
      join_pin: joinPin,
    };
  });
  return {
    pet: toPet(pet, { userId: ownerUserId }, locale),
    age: ageBetween(pet.birth, todayKey(now)),
    history,
    history_next_cursor: page.nextCursor,
  };
}
