import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import type { UserType } from '@vetcall/shared/roles';
import type { LoginInput, LoginResponse, UpdatePasswordInput } from '@vetcall/shared/schemas/auth';
import type { AppContext } from '../../context.ts';
import { passwordResetTokens, sessions, users } from '../../db/schema.ts';
import { AppError, unauthorized } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import { renderPasswordResetEmail } from '../../providers/mail/templates.ts';
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

/** The authenticated person behind a request. */
export interface Actor {
  userId: number;
  type: UserType;
  name: string;
  email: string;
  locale: Locale;
  sessionId: number;
}

type AuthDeps = Pick<AppContext, 'db' | 'clock' | 'limiter'>;

export async function login(deps: AuthDeps, input: LoginInput, ip: string): Promise<LoginResponse> {
  const { db, clock, limiter } = deps;
  const emailKey = `login:email:${input.email}`;
  assertAllowed(
    await limiter.hit(`login:ip:${ip}`, RATE_LIMITS.loginPerIp),
    await limiter.check(emailKey, RATE_LIMITS.loginFailuresPerEmail),
  );

  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  // Verify against a decoy when the account is missing so both answers take the same time.
  const passwordMatches = await verifyPassword(user?.passwordHash ?? (await getDecoyHash()), input.password);
  if (!user || !passwordMatches || !user.active) {
    await limiter.hit(emailKey, RATE_LIMITS.loginFailuresPerEmail);
    throw new AppError('invalid_login_attempt', 401);
  }

  const token = generateToken();
  const now = clock.now();
  await db.insert(sessions).values({
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_TIMEOUT_MS),
  });
  return {
    token,
    type: user.type,
    user: { user_id: user.id, type: user.type, name: user.name, email: user.email, locale: user.locale },
  };
}

/** Resolves a bearer token to its actor; any missing, unknown, expired or revoked token is 401. */
export async function authenticateToken(deps: Pick<AppContext, 'db' | 'clock'>, token: string): Promise<Actor> {
  const { db, clock } = deps;
  const now = clock.now();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(token)))
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
    userId: user.id,
    type: user.type,
    name: user.name,
    email: user.email,
    locale: user.locale,
    sessionId: session.id,
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
  ip: string,
): Promise<void> {
  const { db, clock, limiter, config } = deps;
  assertAllowed(
    await limiter.hit(`reset:ip:${ip}`, RATE_LIMITS.resetPerIp),
    await limiter.hit(`reset:email:${input.email}`, RATE_LIMITS.resetPerEmail),
  );
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  if (!user || !user.active) return;

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
  });
  deps.jobs.kick();
}

export async function updatePassword(
  deps: Pick<AppContext, 'db' | 'clock' | 'limiter'>,
  input: UpdatePasswordInput,
  ip: string,
): Promise<void> {
  const { db, clock, limiter } = deps;
  assertAllowed(await limiter.hit(`update-password:ip:${ip}`, RATE_LIMITS.updatePasswordPerIp));
  const now = clock.now();
  const newHash = await hashPassword(input.password);
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
