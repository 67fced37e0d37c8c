import { desc, eq } from 'drizzle-orm';
import { latestTodayKey, todayKey } from '@vetcall/shared/dates';
import { type AccessCode, type AccessCodeValidation, normalizeAccessCode } from '@vetcall/shared/schemas/access-code';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { accessCodes } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canManageAccessCodes, canValidateAccessCode } from './access-codes.policy.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Checking codes is limited so that they cannot be guessed: per IP and per user. */
export const ACCESS_CODE_RATE_LIMITS = {
  validatePerIp: { limit: 20, windowMs: FIFTEEN_MINUTES },
  validatePerUser: { limit: 20, windowMs: FIFTEEN_MINUTES },
} as const;

type AccessCodeRow = typeof accessCodes.$inferSelect;

const accessCodeExists = () => new AppError('access_code_exists', 409, { fields: { code: 'taken' } });

function toAccessCode(row: AccessCodeRow): AccessCode {
  return {
    access_code_id: row.id,
    code: row.code,
    valid_from: row.validFrom,
    valid_to: row.validTo,
    included: row.included,
    disabled: row.disabledAt !== null,
  };
}

/**
 * Whether a code's dates cover "today". Today is the UTC date of the clock, widened to every time zone
 * so that a customer whose local day differs from UTC's is not refused on the first or last day: the
 * code must have started somewhere (valid_from ≤ the latest today, UTC+14) and not have ended
 * everywhere (valid_to ≥ the earliest today, UTC−12). Kept simple on purpose: up to a day of slack at
 * each end, never more.
 */
export function isWithinDates(row: Pick<AccessCodeRow, 'validFrom' | 'validTo'>, now: Date): boolean {
  const earliestToday = todayKey(new Date(now.getTime() - 12 * 60 * 60 * 1000));
  return row.validFrom <= latestTodayKey(now) && row.validTo >= earliestToday;
}

export async function listAccessCodes(db: Database, actor: Actor): Promise<AccessCode[]> {
  if (!canManageAccessCodes(actor)) throw forbidden();
  const rows = await db.select().from(accessCodes).orderBy(desc(accessCodes.validFrom), desc(accessCodes.id));
  return rows.map(toAccessCode);
}

async function findByCode(db: Database, code: string) {
  const [row] = await db
    .select()
    .from(accessCodes)
    .where(eq(accessCodes.code, normalizeAccessCode(code)))
    .limit(1);
  return row;
}

export async function createAccessCode(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  input: { code: string; valid_from: string; valid_to: string; included: boolean },
): Promise<AccessCode> {
  if (!canManageAccessCodes(actor)) throw forbidden();
  const code = normalizeAccessCode(input.code);
  if (await findByCode(deps.db, code)) throw accessCodeExists();
  try {
    const [row] = await deps.db
      .insert(accessCodes)
      .values({ code, validFrom: input.valid_from, validTo: input.valid_to, included: input.included })
      .returning();
    return toAccessCode(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw accessCodeExists();
    throw error;
  }
}

/** Disables (keeping the first disabling time) or re-enables a code. */
export async function setAccessCodeDisabled(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  accessCodeId: number,
  disabled: boolean,
): Promise<AccessCode> {
  if (!canManageAccessCodes(actor)) throw forbidden();
  const [current] = await deps.db.select().from(accessCodes).where(eq(accessCodes.id, accessCodeId)).limit(1);
  if (!current) throw notFound();
  if (disabled === (current.disabledAt !== null)) return toAccessCode(current);
  const [row] = await deps.db
    .update(accessCodes)
    .set({ disabledAt: disabled ? deps.clock.now() : null })
    .where(eq(accessCodes.id, accessCodeId))
    .returning();
  return toAccessCode(row!);
}

/**
 * docs/product-rules.md#validation Access code: valid when it exists, is not disabled and its dates cover today
 * (isWithinDates). An unknown, disabled or out-of-date code answers the same `{ valid: false, included: false }`.
 */
export async function validateAccessCode(
  deps: Pick<AppContext, 'db' | 'clock' | 'limiter'>,
  actor: Actor,
  code: string,
  ip: string,
): Promise<AccessCodeValidation> {
  if (!canValidateAccessCode(actor)) throw forbidden();
  assertAllowed(
    await deps.limiter.hit(`access-code-validate:ip:${ip}`, ACCESS_CODE_RATE_LIMITS.validatePerIp),
    await deps.limiter.hit(`access-code-validate:user:${actor.userId}`, ACCESS_CODE_RATE_LIMITS.validatePerUser),
  );
  const row = await findByCode(deps.db, code);
  if (!row || row.disabledAt !== null || !isWithinDates(row, deps.clock.now()))
    return { valid: false, included: false };
  return { valid: true, included: row.included };
}
