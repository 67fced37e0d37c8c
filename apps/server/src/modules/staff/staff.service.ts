import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { UserType } from '@vetcall/shared/roles';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { loadPasswordStrength } from '@vetcall/shared/password-strength';
import {
  newManagerSchema,
  newVetSchema,
  type PublicVet,
  type UserRow,
  type Vet,
  type Manager,
} from '@vetcall/shared/schemas/staff';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { changedFields, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { appointments, customers, managers, pets, users, vets } from '../../db/schema.ts';
import { AppError, emailInUse, forbidden, notFound } from '../../errors.ts';
import { type Actor, revokeAllSessions } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createDefaultProfile } from '../availability/availability-profiles.ts';
import {
  canAdministerUser,
  canEditManagerProfile,
  canEditVetProfile,
  canListPublicVets,
  canListUsers,
  canViewVetProfile,
} from './staff.policy.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';
import { decodeCursor, keysetPage, rowsAfter, scheduleCursorOf } from '../../lib/keyset-cursor.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;

const MAX_LIST = 5000;

async function findUser(db: Database, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/** GET /api/users/{type}: full rows for managers; the public view of active vets for customers and vets. */
export async function listUsers(deps: Deps, actor: Actor, type: UserType): Promise<UserRow[] | PublicVet[]> {
  const { db } = deps;
  if (!canListUsers(actor)) {
    if (type === 'vet' && canListPublicVets(actor)) {
      return db
        .select({ user_id: users.id, vet_id: vets.id, name: users.name, specialty: vets.specialty })
        .from(vets)
        .innerJoin(users, eq(users.id, vets.userId))
        .where(eq(users.active, true))
        .orderBy(asc(users.name))
        .limit(MAX_LIST);
    }
    throw forbidden();
  }
  if (type === 'vet') {
    const rows = await db
      .select({ user: users, vet: vets })
      .from(vets)
      .innerJoin(users, eq(users.id, vets.userId))
      .where(eq(users.active, true))
      .orderBy(asc(users.id))
      .limit(MAX_LIST);
    return rows.map(({ user, vet }) => ({
      user_id: user.id,
      type: 'vet' as const,
      name: user.name,
      email: user.email,
      active: user.active,
      phone: user.phone,
      vet_id: vet.id,
      specialty: vet.specialty,
      discount: vet.discount,
      calendar_linked: vet.accountToken !== '',
    }));
  }
  if (type === 'manager') {
    const rows = await db
      .select({ user: users })
      .from(managers)
      .innerJoin(users, eq(users.id, managers.userId))
      .where(eq(users.active, true))
      .orderBy(asc(users.id))
      .limit(MAX_LIST);
    return rows.map(({ user }) => ({
      user_id: user.id,
      type: 'manager' as const,
      name: user.name,
      email: user.email,
      active: user.active,
    }));
  }
  const rows = await db
    .select({ user: users, customer: customers })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.userId))
    .orderBy(asc(users.id))
    .limit(MAX_LIST);
  return rows.map(({ user, customer }) => ({
    user_id: user.id,
    type: 'customer' as const,
    name: user.name,
    email: user.email,
    active: user.active,
    phone: user.phone,
    address: user.address,
    tax_id: customer.taxId,
    customer_id: customer.id,
  }));
}

/** POST /api/users/{vet|manager}: a manager creates a vet or a manager (docs/product-rules.md#validation New user). */
export async function createStaffUser(deps: Deps, actor: Actor, type: 'vet' | 'manager', body: unknown) {
  if (!canAdministerUser(actor, type)) throw forbidden();
  // The body is checked here, not by the route's schema: its password's strength needs the dictionaries, which are
  // loaded on first use (plugins/password-strength-loading.ts).
  await loadPasswordStrength();
  const parsed = (type === 'vet' ? newVetSchema : newManagerSchema).safeParse(body);
  if (!parsed.success) {
    throw new AppError('validation_failed', 400, { fields: fieldErrorsFromIssues(parsed.error.issues) });
  }
  const input = parsed.data as { name: string; email: string; password: string; phone?: string; specialty?: string };
  const [existing] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (existing) throw emailInUse();
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ type, name: input.name, email: input.email, phone: input.phone ?? '', passwordHash })
        .returning({ id: users.id });
      if (type === 'vet') {
        const [vet] = await tx
          .insert(vets)
          .values({ userId: user!.id, specialty: input.specialty ?? '' })
          .returning({ id: vets.id });
        await createDefaultProfile(tx, vet!.id);
      } else await tx.insert(managers).values({ userId: user!.id });
      await recordAudit(tx, {
        actor,
        action: 'account.created',
        subject: { type: 'user', id: user!.id },
        details: { type },
        at: deps.clock.now(),
      });
      return { user_id: user!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
}

/**
 * DELETE /api/users/{user_id}: deactivates a vet or manager. History keeps the name; the person can no
 * longer log in (sessions end now) and is hidden from booking and lists. Never oneself, never the last
 * active manager.
 */
export async function removeStaffUser(deps: Deps, actor: Actor, userId: number) {
  const target = await findUser(deps.db, userId);
  if (!target || !target.active) throw notFound();
  if (target.type === 'customer') throw new AppError('customers_are_view_only', 403);
  if (!canAdministerUser(actor, target.type)) throw forbidden();
  if (target.id === actor.userId) throw new AppError('cannot_remove_self', 409);
  return deps.db.transaction(async (tx) => {
    if (target.type === 'manager') {
      // Counting inside the transaction, with the row locked, keeps two removals from both passing.
      await tx.select({ id: users.id }).from(users).where(eq(users.type, 'manager')).for('update');
      const [{ active } = { active: 0 }] = await tx
        .select({ active: count() })
        .from(users)
        .where(and(eq(users.type, 'manager'), eq(users.active, true)));
      if (active <= 1) throw new AppError('last_manager', 409);
    }
    await tx.update(users).set({ active: false, updatedAt: deps.clock.now() }).where(eq(users.id, userId));
    await revokeAllSessions({ db: tx, clock: deps.clock }, userId);
    await recordAudit(tx, {
      actor,
      action: 'account.deactivated',
      subject: { type: 'user', id: userId },
      details: { type: target.type },
      at: deps.clock.now(),
    });
    return { user_id: userId, active: false as const };
  });
}

type FieldChange = { name: string } | { email: string } | { phone: string } | { specialty: string };

/**
 * The single-field edits of the manager's tables (docs/product-rules.md#api Users: name, email, vetspecialty, vetphone,
 * custphone). `allowed` names the target types the route applies to.
 */
export async function changeUserField(
  deps: Deps,
  actor: Actor,
  userId: number,
  change: FieldChange,
  allowed: readonly UserType[],
) {
  const target = await findUser(deps.db, userId);
  if (!target || !target.active || !allowed.includes(target.type)) throw notFound();
  const isOwnCustomerPhone = target.type === 'customer' && actor.type === 'customer' && actor.userId === userId;
  if (!isOwnCustomerPhone && !canAdministerUser(actor, target.type)) {
    throw target.type === 'customer' ? new AppError('customers_are_view_only', 403) : forbidden();
  }
  const now = deps.clock.now();
  await inTransaction(deps, async (tx) => {
    if ('email' in change) {
      const email = change.email;
      await applyEmailChange(deps, tx, { userId: target.id, type: target.type, current: target.email, next: email });
    } else if ('specialty' in change) {
      await tx.update(vets).set({ specialty: change.specialty }).where(eq(vets.userId, userId));
    } else {
      await tx
        .update(users)
        .set({ ...change, updatedAt: now })
        .where(eq(users.id, userId));
    }
    await recordAudit(tx, {
      actor,
      action: 'account.updated',
      subject: { type: 'user', id: userId },
      details: { fields: Object.keys(change) },
      at: now,
    });
  });
  return { user_id: userId };
}

/**
 * Changes a login email: unique, ends every session of that person (docs/product-rules.md#states forces a new login),
 * and for a vet removes the calendar association (docs/product-rules.md#states).
 */
async function applyEmailChange(
  deps: Deps,
  db: Database,
  change: { userId: number; type: UserType; current: string; next: string },
) {
  const { userId, type, current, next } = change;
  if (next === current) return false;
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, next)).limit(1);
  if (taken) throw emailInUse();
  await db.update(users).set({ email: next, updatedAt: deps.clock.now() }).where(eq(users.id, userId));
  if (type === 'vet') await db.update(vets).set({ accountToken: '' }).where(eq(vets.userId, userId));
  await revokeAllSessions({ db, clock: deps.clock }, userId);
  return true;
}

/** Runs a profile change in one transaction; a concurrent taker of the same email becomes 409. */
async function inTransaction<T>(deps: Deps, work: (tx: Database) => Promise<T>): Promise<T> {
  try {
    return await deps.db.transaction((tx) => work(tx));
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
}

async function findVet(db: Database, where: { email: string } | { userId: number } | { vetId: number }) {
  const condition =
    'email' in where
      ? eq(users.email, where.email)
      : 'userId' in where
        ? eq(users.id, where.userId)
        : eq(vets.id, where.vetId);
  const [row] = await db
    .select({ user: users, vet: vets })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(condition)
    .limit(1);
  return row;
}

function toVet({ user, vet }: NonNullable<Awaited<ReturnType<typeof findVet>>>): Vet {
  return {
    user_id: user.id,
    vet_id: vet.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    specialty: vet.specialty,
    discount: vet.discount,
    calendar_linked: vet.accountToken !== '',
    locale: user.locale,
  };
}

export async function getVetByEmail(deps: Deps, actor: Actor, email: string): Promise<Vet> {
  const row = await findVet(deps.db, { email });
  if (!row || !row.user.active || !canViewVetProfile(actor, row.user.id)) throw notFound();
  return toVet(row);
}

export async function updateVetProfile(
  deps: Deps,
  actor: Actor,
  userId: number,
  input: { name: string; email: string; phone: string; specialty: string; discount: number },
) {
  const row = await findVet(deps.db, { userId });
  if (!row || !row.user.active) throw notFound();
  if (!canEditVetProfile(actor, userId)) throw forbidden();
  const emailChanged = await inTransaction(deps, async (tx) => {
    const changed = await applyEmailChange(deps, tx, {
      userId,
      type: 'vet',
      current: row.user.email,
      next: input.email,
    });
    await tx
      .update(users)
      .set({ name: input.name, phone: input.phone, updatedAt: deps.clock.now() })
      .where(eq(users.id, userId));
    await tx.update(vets).set({ specialty: input.specialty, discount: input.discount }).where(eq(vets.userId, userId));
    await recordAudit(tx, {
      actor,
      action: 'account.updated',
      subject: { type: 'user', id: userId },
      details: {
        fields: changedFields(
          { ...row.user, specialty: row.vet.specialty, discount: row.vet.discount },
          {
            name: input.name,
            email: input.email,
            phone: input.phone,
            specialty: input.specialty,
            discount: input.discount,
          },
        ),
      },
      at: deps.clock.now(),
    });
    return changed;
  });
  return { user_id: userId, email_changed: emailChanged };
}

export async function getManagerByEmail(deps: Deps, actor: Actor, email: string): Promise<Manager> {
  if (actor.type !== 'manager') throw forbidden();
  const [row] = await deps.db
    .select({ user: users })
    .from(managers)
    .innerJoin(users, eq(users.id, managers.userId))
    .where(eq(users.email, email))
    .limit(1);
  if (!row || !row.user.active) throw notFound();
  return { user_id: row.user.id, name: row.user.name, email: row.user.email, locale: row.user.locale };
}

export async function updateManagerProfile(
  deps: Deps,
  actor: Actor,
  userId: number,
  input: { name: string; email: string },
) {
  const target = await findUser(deps.db, userId);
  if (!target || target.type !== 'manager' || !target.active) throw notFound();
  if (!canEditManagerProfile(actor, userId)) throw forbidden();
  const emailChanged = await inTransaction(deps, async (tx) => {
    const changed = await applyEmailChange(deps, tx, {
      userId,
      type: 'manager',
      current: target.email,
      next: input.email,
    });
    await tx.update(users).set({ name: input.name, updatedAt: deps.clock.now() }).where(eq(users.id, userId));
    await recordAudit(tx, {
      actor,
      action: 'account.updated',
      subject: { type: 'user', id: userId },
      details: { fields: changedFields(target, { name: input.name, email: input.email }) },
      at: deps.clock.now(),
    });
    return changed;
  });
  return { user_id: userId, email_changed: emailChanged };
}

/** GET /api/vets/record/{vet_id}/{language}: a vet's appointments, for that vet and managers. */
export async function getVetRecord(deps: Deps, actor: Actor, vetId: number, request: { cursor?: string } = {}) {
  const row = await findVet(deps.db, { vetId });
  if (!row || !canViewVetProfile(actor, row.user.id)) throw notFound();
  const cursor = request.cursor ? decodeCursor(request.cursor) : undefined;
  // One keyset page, newest first, read backwards through appointments_vet_idx (vet, schedule, id).
  const rows = await deps.db
    .select({
      id: appointments.id,
      hash: appointments.hash,
      schedule: appointments.schedule,
      customer_name: users.name,
      pet_id: pets.id,
      pet_name: pets.name,
      appointment_status_key: appointments.status,
      status_date: appointments.statusDate,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.customerUserId))
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .where(
      and(
        eq(appointments.vetUserId, row.user.id),
        cursor ? rowsAfter(appointments.schedule, appointments.id, cursor, 'desc') : undefined,
      ),
    )
    .orderBy(desc(appointments.schedule), desc(appointments.id))
    .limit(APPOINTMENT_PAGE_SIZE + 1);
  const page = keysetPage(rows, APPOINTMENT_PAGE_SIZE, scheduleCursorOf);
  return {
    vet: { user_id: row.user.id, vet_id: row.vet.id, name: row.user.name, specialty: row.vet.specialty },
    appointments: page.rows.map(({ id, ...entry }) => ({
      appointment_id: id,
      ...entry,
      schedule: entry.schedule.toISOString(),
      status_date: entry.status_date.toISOString(),
    })),
    next_cursor: page.nextCursor,
  };
}
