import { eq } from 'drizzle-orm';
import type { AvailabilityProfile } from '@vetcall/shared/schemas/availability';
import type { AppContext } from '../../context.ts';
import { availabilityProfiles, users, vets } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canManageAvailability } from './availability.policy.ts';
import { findProfile, listProfiles, toApiProfile, toColumns } from './availability-profiles.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;

/** The vet behind a vet id, if the actor may manage their availability (404 otherwise: ids do not leak). */
async function manageableVet(deps: Deps, actor: Actor, vetId: number) {
  const [row] = await deps.db
    .select({ vetId: vets.id, userId: vets.userId, active: users.active })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(eq(vets.id, vetId))
    .limit(1);
  if (!row || !row.active || !canManageAvailability(actor, row.userId))
    throw actor.type === 'customer' ? forbidden() : notFound();
  return row;
}

/**
 * GET /api/vets/calendarprofiles/{vet_id}: the vet's availability profiles (docs/product-rules.md#api provider
 * segment).
 */
export async function listCalendarProfiles(deps: Deps, actor: Actor, vetId: number) {
  await manageableVet(deps, actor, vetId);
  return (await listProfiles(deps.db, vetId)).map((row) => ({ id: row.id, name: row.name }));
}

export async function getAvailabilityProfile(
  deps: Deps,
  actor: Actor,
  vetId: number,
  profileId: number,
): Promise<AvailabilityProfile> {
  await manageableVet(deps, actor, vetId);
  const row = await findProfile(deps.db, vetId, profileId);
  if (!row) throw notFound();
  return toApiProfile(row);
}

/** PATCH: the whole profile, validated by the shared schema (intervals ordered, no overlaps). */
export async function updateAvailabilityProfile(
  deps: Deps,
  actor: Actor,
  vetId: number,
  profileId: number,
  values: Omit<AvailabilityProfile, 'id'>,
): Promise<AvailabilityProfile> {
  await manageableVet(deps, actor, vetId);
  if (!(await findProfile(deps.db, vetId, profileId))) throw notFound();
  const [row] = await deps.db
    .update(availabilityProfiles)
    .set({ ...toColumns(values), updatedAt: deps.clock.now() })
    .where(eq(availabilityProfiles.id, profileId))
    .returning();
  return toApiProfile(row!);
}

/** docs/product-rules.md#entities Time limits: the selectable times of the interval pickers, every 30 minutes. */
export const TIME_LIMITS = Array.from({ length: 49 }, (_, index) => {
  const minutes = index * 30;
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return { time_limit_id: index + 1, time_limit: time };
});
