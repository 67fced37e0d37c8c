import { desc, eq } from 'drizzle-orm';
import { latestTodayKey, todayKey } from '@vetcall/shared/dates';
import { type AccessCode, type AccessCodeValidation, normalizeAccessCode } from '@vetcall/shared/schemas/access-code';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { accessCodes } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canManageAccessCodes, canValidateAccessCode } from './access-codes.policy.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/**
 * Codes must not be guessable, so the wrong ones a person tries are limited: per user first, and per address
 * generously (a family or a clinic's staff share one). A valid code never counts, so checking it, quoting with it
 * or booking with it again and again is never refused.
 */
export const ACCESS_CODE_RATE_LIMITS = {
  wrongPerUser: { limit: 30, windowMs: FIFTEEN_MINUTES },
  wrongPerIp: { limit: 300, windowMs: FIFTEEN_MINUTES },
} as const;

const wrongCodeKeys = (actor: Actor, ip: string) =>
  [
    [`access-code-wrong:user:${actor.userId}`, ACCESS_CODE_RATE_LIMITS.wrongPerUser],
    [`access-code-wrong:ip:${ip}`, ACCESS_CODE_RATE_LIMITS.wrongPerIp],
  ] as const;

/** 429 (with Retry-After) once the user's or the address's wrong codes are used up. */
export async function assertAccessCodeBudget(deps: Pick<AppContext, 'limiter'>, actor: Actor, ip: string) {
  const decisions = [];
  for (const [key, rule] of wrongCodeKeys(actor, ip)) decisions.push(await deps.limiter.check(key, rule));
  assertAllowed(...decisions);
}

export async function countWrongAccessCode(deps: Pick<AppContext, 'limiter'>, actor: Actor, ip: string) {
  for (const [key, rule] of wrongCodeKeys(actor, ip)) await deps.limiter.hit(key, rule);
}

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
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  input: { code: string; valid_from: string; valid_to: string; included: boolean },
): Promise<AccessCode> {
  if (!canManageAccessCodes(actor)) throw forbidden();
  const code = normalizeAccessCode(input.code);
  if (await findByCode(deps.db, code)) throw accessCodeExists();
  try {
    const row = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(accessCodes)
        .values({ code, validFrom: input.valid_from, validTo: input.valid_to, included: input.included })
        .returning();
      // Not the code itself: it grants appointments, and the log is no place to read codes from.
      await recordAudit(tx, {
        actor,
        action: 'access_code.created',
        subject: { type: 'access_code', id: created!.id },
        details: { valid_from: input.valid_from, valid_to: input.valid_to, included: input.included },
        at: deps.clock.now(),
      });
      return created!;
    });
    return toAccessCode(row);
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
  const row = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(accessCodes)
      .set({ disabledAt: disabled ? deps.clock.now() : null })
      .where(eq(accessCodes.id, accessCodeId))
      .returning();
    await recordAudit(tx, {
      actor,
      action: 'access_code.updated',
      subject: { type: 'access_code', id: accessCodeId },
      details: { disabled },
      at: deps.clock.now(),
    });
    return changed!;
  });
  return toAccessCode(row);
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
  await assertAccessCodeBudget(deps, actor, ip);
  const row = await findByCode(deps.db, code);
  if (!row || row.disabledAt !== null || !isWithinDates(row, deps.clock.now())) {
    await countWrongAccessCode(deps, actor, ip);
    return { valid: false, included: false };
  }
  return { valid: true, included: row.included };
}
