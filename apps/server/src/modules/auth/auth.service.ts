import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import type { UserType } from '@vetcall/shared/roles';
import { isStrongEnough, loadPasswordStrength } from '@vetcall/shared/password-strength';
import type { LoginInput, LoginResponse, UpdatePasswordInput } from '@vetcall/shared/schemas/auth';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../db/audit-log.ts';
import { passwordResetTokens, sessions, users } from '../../db/schema.ts';
import { AppError, unauthorized } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import { renderPasswordResetEmail } from '../../providers/mail/templates.ts';
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-lockout.ts';
import { getDecoyHash, hashPassword, verifyPassword } from './passwords.ts';
import {
  PASSWORD_RESET_TTL_MS,
  RATE_LIMITS,
  SESSION_ABSOLUTE_TIMEOUT_MS,
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_TOUCH_INTERVAL_MS,
} from './session-policy.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import type { Computed, VersionedCache } from '../../lib/versioned-cache.ts';
import type { RequestOrigin } from '../../lib/request-origin.ts';

/** The authenticated person behind a request. */
export interface Actor {
  userId: number;
  type: UserType;
  name: string;
  email: string;
  locale: Locale;
  sessionId: number;
  /**
   * Where the request came from, for the audit log: set on each request's own copy (authentication.ts actorOf),
   * never on the session's cached actor.
   */
  origin?: RequestOrigin;
}

type AuthDeps = Pick<AppContext, 'db' | 'clock' | 'limiter'>;

export async function login(deps: AuthDeps, input: LoginInput, origin: RequestOrigin): Promise<LoginResponse> {
  const { ip } = origin;
  const { db, clock, limiter } = deps;
  assertAllowed(await limiter.hit(`login:ip:${ip}`, RATE_LIMITS.loginPerIp));
  await assertLoginAllowed(limiter, input.email, ip);

  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  // Verify against a decoy when the account is missing so both answers take the same time.
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await getDecoyHash()), input.password);
  if (!user || !passwordMatches || !user.active) {
    await recordLoginFailure(limiter, input.email, ip);
    // Who tried is only the email typed (the account's owner may not be the one trying); never the password.
    await recordAudit(db, {
      actor: { email: input.email, origin },
      action: 'auth.login_failed',
      subject: user ? { type: 'user', id: user.id } : undefined,
      details: { reason: !user ? 'unknown_email' : !passwordMatches ? 'wrong_password' : 'inactive' },
      at: clock.now(),
    });
    throw new AppError('invalid_login_attempt', 401);
  }
  await recordLoginSuccess(limiter, input.email, ip);

  const token = generateToken();
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_TIMEOUT_MS),
    });
    await recordAudit(tx, {
      actor: { userId: user.id, type: user.type, email: user.email, origin },
      action: 'auth.login',
      subject: { type: 'user', id: user.id },
      at: now,
    });
  });
  return {
    token,
    type: user.type,
    user: { user_id: user.id, type: user.type, name: user.name, email: user.email, locale: user.locale },
  };
}

/** Actors of recently seen sessions, by token hash (AppContext.caches.sessions). */
export type SessionCache = VersionedCache<Actor>;

/**
 * Resolves a bearer token to its actor; any missing, unknown, expired or revoked token is 401.
 * Served from `caches.sessions` while the data has not changed (a logout, a password change or a
 * deactivation anywhere moves the data version) and the session needs no touch.
 */
export function authenticateToken(
  deps: Pick<AppContext, 'db' | 'clock'> & { caches?: { sessions: SessionCache } },
  token: string,
): Actor | Promise<Actor> {
  return authenticateTokenHash(deps, hashToken(token));
}

/** {@link authenticateToken} for a token already hashed (lib/tokens.ts hashToken). */
export function authenticateTokenHash(
  deps: Pick<AppContext, 'db' | 'clock'> & { caches?: { sessions: SessionCache } },
  tokenHash: string,
): Actor | Promise<Actor> {
  const now = deps.clock.now();
  const cache = deps.caches?.sessions;
  if (!cache) return readSession(deps.db, tokenHash, now).then(({ value }) => value);
  // A kept session is given as it is, not in a promise: requireAuth admits the request in the same turn.
  return cache.read(tokenHash, now.getTime(), () => readSession(deps.db, tokenHash, now));
}

async function readSession(db: AppContext['db'], tokenHash: string, now: Date): Promise<Computed<Actor>> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) throw unauthorized();
  const { session, user } = row;
  const idleSince = now.getTime() - session.lastUsedAt.getTime();
  if (session.revokedAt || session.expiresAt <= now || idleSince > SESSION_IDLE_TIMEOUT_MS || !user.active) {
    throw unauthorized();
  }
  if (idleSince > SESSION_TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, session.id));
  }
  return {
    value: {
      userId: user.id,
      type: user.type,
      name: user.name,
      email: user.email,
      locale: user.locale,
      sessionId: session.id,
    },
    // Kept no longer than the session lives, nor past the moment its last use must be written again.
    validUntil: Math.min(session.expiresAt.getTime(), session.lastUsedAt.getTime() + SESSION_TOUCH_INTERVAL_MS),
  };
}

export async function logout(deps: Pick<AppContext, 'db' | 'clock'>, actor: Actor): Promise<void> {
  await deps.db.update(sessions).set({ revokedAt: deps.clock.now() }).where(eq(sessions.id, actor.sessionId));
}

/** Ends every live session of a user (password change, deactivation, email change). */
export async function revokeAllSessions(deps: Pick<AppContext, 'db' | 'clock'>, userId: number): Promise<void> {
  await deps.db
    .update(sessions)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * Always succeeds for a well-formed request, whether or not the account exists (no enumeration). The
 * link is queued with the token in one transaction and sent by the job worker, so a mail server that is
 * away delays it (retried for days) but never loses it.
 */
export async function sendPasswordResetEmail(
  deps: Pick<AppContext, 'db' | 'clock' | 'limiter' | 'config' | 'secrets' | 'jobs'>,
  input: { email: string; language: Locale },
  origin: RequestOrigin,
): Promise<void> {
  const { db, clock, limiter, config } = deps;
  const { ip } = origin;
  assertAllowed(
    await limiter.hit(`reset:ip:${ip}`, RATE_LIMITS.resetPerIp),
    await limiter.hit(`reset:email:${input.email}`, RATE_LIMITS.resetPerEmail),
  );
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  if (!user || !user.active) {
    // Recorded too (the answer is the same): repeated requests for unknown emails are someone probing.
    await recordAudit(db, {
      actor: { email: input.email, origin },
      action: 'auth.password_reset_requested',
      details: { sent: false },
      at: clock.now(),
    });
    return;
  }

  const token = generateToken();
  const now = clock.now();
  const link = `${config.publicUrl}/newpassword?token=${encodeURIComponent(token)}&lang=${encodeURIComponent(input.language)}`;
  await db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
    });
    await queueMail(tx, { secrets: deps.secrets, now }, [
      { to: user.email, ...renderPasswordResetEmail(input.language, { name: user.name, link }) },
    ]);
    await recordAudit(tx, {
      actor: { email: input.email, origin },
      action: 'auth.password_reset_requested',
      subject: { type: 'user', id: user.id },
      details: { sent: true },
      at: now,
    });
  });
  deps.jobs.kick();
}

export async function updatePassword(
  deps: Pick<AppContext, 'db' | 'clock' | 'limiter'>,
  input: UpdatePasswordInput,
  origin: RequestOrigin,
): Promise<void> {
  const { db, clock, limiter } = deps;
  const { ip } = origin;
  assertAllowed(await limiter.hit(`update-password:ip:${ip}`, RATE_LIMITS.updatePasswordPerIp));
  const now = clock.now();
  const newHash = await hashPassword(input.password);
  // Scored against the owner's email and name below; the dictionaries are loaded on first use.
  await loadPasswordStrength();
  await db.transaction(async (tx) => {
    // Claiming the token with a conditional update makes it single-use even under concurrent requests.
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!claimed) throw new AppError('invalid_or_expired_token', 400);
    // The form does not know whose link it is; the server refuses the owner's own email or name here.
    const [owner] = await tx
      .select({ email: users.email, name: users.name, type: users.type })
      .from(users)
      .where(eq(users.id, claimed.userId));
    if (owner && !isStrongEnough(input.password, [owner.email, owner.name])) {
      throw new AppError('validation_failed', 400, { fields: { password: 'weak_password' } });
    }

    await tx.update(users).set({ passwordHash: newHash, updatedAt: now }).where(eq(users.id, claimed.userId));
    // Other outstanding links for the same account die with this change.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, claimed.userId), isNull(sessions.revokedAt)));
    // The holder of the link acted as the account's owner; the token itself is never recorded.
    await recordAudit(tx, {
      actor: owner ? { userId: claimed.userId, type: owner.type, email: owner.email, origin } : null,
      action: 'auth.password_reset',
      subject: { type: 'user', id: claimed.userId },
      at: now,
    });
  });
}

/** Deletes sessions and reset tokens that can no longer be used; run periodically. */
export async function purgeExpiredCredentials(deps: Pick<AppContext, 'db' | 'clock'>): Promise<void> {
  const now = deps.clock.now();
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS);
  await deps.db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastUsedAt, idleCutoff), lt(sessions.revokedAt, idleCutoff)));
  await deps.db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, now));
}
