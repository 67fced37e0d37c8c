import { eq } from 'drizzle-orm';
import type { Customer, CustomerProfileInput, CustomerRegistrationInput } from '@vetcall/shared/schemas/customer';
import type { AppContext } from '../../context.ts';
import type { RequestOrigin } from '../../lib/request-origin.ts';
import { changedFields, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { customers, users } from '../../db/schema.ts';
import { emailInUse, forbidden, notFound } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import { type Actor, revokeAllSessions } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { vetHasAppointmentWithCustomer } from './customer-relations.ts';
import { canEditCustomer, canViewCustomer } from './customers.policy.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Unauthenticated endpoints that reveal whether an email exists are slowed to stop harvesting. */
export const CUSTOMER_RATE_LIMITS = {
  checkEmailPerIp: { limit: 30, windowMs: FIFTEEN_MINUTES },
  registrationPerIp: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const;

type Normalized<T> = T & { email: string };

/** The customer row's own columns from a registration or a profile edit (the user row holds the rest). */
const customerRowOf = (
  input: Pick<CustomerProfileInput, 'tax_id' | 'postal_code' | 'city' | 'state' | 'country'> & { vet_center: string },
) => ({
  taxId: input.tax_id,
  postalCode: input.postal_code,
  city: input.city,
  state: input.state,
  country: input.country,
  vetCenter: input.vet_center,
});

async function isEmailTaken(db: Database, email: string, exceptUserId?: number) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row !== undefined && row.id !== exceptUserId;
}

export async function checkEmail(deps: Pick<AppContext, 'db' | 'limiter'>, email: string, ip: string) {
  assertAllowed(await deps.limiter.hit(`check-email:ip:${ip}`, CUSTOMER_RATE_LIMITS.checkEmailPerIp));
  return (await isEmailTaken(deps.db, email)) ? [{ email }] : [];
}

export async function registerCustomer(
  deps: Pick<AppContext, 'db' | 'limiter' | 'clock'>,
  input: Normalized<CustomerRegistrationInput> & { vet_center: string },
  origin: RequestOrigin,
): Promise<{ user_id: number }> {
  assertAllowed(await deps.limiter.hit(`register:ip:${origin.ip}`, CUSTOMER_RATE_LIMITS.registrationPerIp));
  if (await isEmailTaken(deps.db, input.email)) throw emailInUse();
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          type: 'customer',
          name: input.name,
          email: input.email,
          phone: input.phone,
          address: input.address,
          locale: input.locale ?? 'pt',
          passwordHash,
        })
        .returning({ id: users.id });
      await tx.insert(customers).values({ userId: user!.id, ...customerRowOf(input) });
      await recordAudit(tx, {
        actor: { userId: user!.id, type: 'customer', email: input.email, origin },
        action: 'account.created',
        subject: { type: 'user', id: user!.id },
        details: { type: 'customer' },
        at: deps.clock.now(),
      });
      return { user_id: user!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
}

const customerColumns = {
  user_id: users.id,
  customer_id: customers.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  tax_id: customers.taxId,
  address: users.address,
  postal_code: customers.postalCode,
  city: customers.city,
  state: customers.state,
  country: customers.country,
  vet_center: customers.vetCenter,
};

/** A customer's row, or undefined. */
export async function findCustomer(
  db: Database,
  where: { email: string } | { userId: number } | { customerId: number },
) {
  const condition =
    'email' in where
      ? eq(users.email, where.email)
      : 'userId' in where
        ? eq(users.id, where.userId)
        : eq(customers.id, where.customerId);
  const [row] = await db
    .select(customerColumns)
    .from(customers)
    .innerJoin(users, eq(users.id, customers.userId))
    .where(condition)
    .limit(1);
  return row;
}

/**
 * Loads a customer the actor may read. Anyone else gets 404, so the endpoint does not tell which
 * emails or ids exist.
 */
export async function getVisibleCustomer(
  db: Database,
  actor: Actor,
  where: Parameters<typeof findCustomer>[1],
): Promise<Customer> {
  const customer = await findCustomer(db, where);
  if (!customer) throw notFound();
  const related = await vetHasAppointmentWithCustomer(db, actor, customer.user_id);
  if (!canViewCustomer(actor, customer.user_id, related)) throw notFound();
  return customer;
}

export async function updateCustomer(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  userId: number,
  input: Normalized<CustomerProfileInput> & { vet_center: string },
): Promise<{ user_id: number; emailChanged: boolean }> {
  const current = await getVisibleCustomer(deps.db, actor, { userId });
  if (!canEditCustomer(actor, current.user_id)) throw forbidden();
  const emailChanged = input.email !== current.email;
  if (emailChanged && (await isEmailTaken(deps.db, input.email, userId))) throw emailInUse();
  const now = deps.clock.now();
  try {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ name: input.name, email: input.email, phone: input.phone, address: input.address, updatedAt: now })
        .where(eq(users.id, userId));
      await tx.update(customers).set(customerRowOf(input)).where(eq(customers.userId, userId));
      const { user_id: _user, customer_id: _customer, ...before } = current;
      const after = { ...customerRowOf(input), name: input.name, email: input.email, phone: input.phone };
      await recordAudit(tx, {
        actor,
        action: 'account.updated',
        subject: { type: 'user', id: userId },
        details: {
          fields: changedFields(before, {
            name: after.name,
            email: after.email,
            phone: after.phone,
            address: input.address,
            tax_id: after.taxId,
            postal_code: after.postalCode,
            city: after.city,
            state: after.state,
            country: after.country,
            vet_center: after.vetCenter,
          }),
        },
        at: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
  // docs/product-rules.md#states: a successful email change forces logout, here and on every other device.
  if (emailChanged) await revokeAllSessions(deps, userId);
  return { user_id: userId, emailChanged };
}
