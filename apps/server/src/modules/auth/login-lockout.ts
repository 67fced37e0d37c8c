import type { RateLimiter, RateRule } from '../../plugins/rate-limiter.ts';
import { assertAllowed, tooManyRequests } from '../../plugins/rate-limiter.ts';
import { LOGIN_LOCKOUT } from './session-policy.ts';

/**
 * The counters of password guessing (docs/decisions/014-password-strength-and-login-lockout.md), in the rate limiter's store so that
 * every instance sees them (Redis with REDIS_URL, else this process).
 */
const keys = (email: string, ip: string) => ({
  pairFailures: `login:failures:${email}:${ip}`,
  pairLock: `login:lock:${email}:${ip}`,
  accountFailures: `login:account-failures:${email}`,
  accountSlot: `login:slow:${email}`,
  knownAddress: `login:known:${email}:${ip}`,
});

// The hit that makes the count reach failuresPerPair is the first one over this limit.
const PAIR_FAILURES: RateRule = { limit: LOGIN_LOCKOUT.failuresPerPair - 1, windowMs: LOGIN_LOCKOUT.withinMs };
// Hit once to lock; a check answers "used" for lockMs from that hit.
const PAIR_LOCK: RateRule = { limit: 1, windowMs: LOGIN_LOCKOUT.lockMs };
const ACCOUNT_FAILURES: RateRule = { limit: LOGIN_LOCKOUT.slowAfterAccountFailures, windowMs: LOGIN_LOCKOUT.withinMs };
const ACCOUNT_SLOT: RateRule = { limit: 1, windowMs: LOGIN_LOCKOUT.slowIntervalMs };
const KNOWN_ADDRESS: RateRule = { limit: 1, windowMs: LOGIN_LOCKOUT.knownAddressMs };

/** Refuses with 429 and Retry-After, before the password is looked at, an attempt the lockout holds back. */
export async function assertLoginAllowed(limiter: RateLimiter, email: string, ip: string): Promise<void> {
  const key = keys(email, ip);
  const lock = await limiter.check(key.pairLock, PAIR_LOCK);
  if (!lock.allowed) throw tooManyRequests(lock);
  if ((await limiter.check(key.accountFailures, ACCOUNT_FAILURES)).allowed) return;
  // The account is being guessed at from many places: slow it down, but not for where its owner logs in.
  const known = !(await limiter.check(key.knownAddress, KNOWN_ADDRESS)).allowed;
  if (!known) assertAllowed(await limiter.hit(key.accountSlot, ACCOUNT_SLOT));
}

export async function recordLoginFailure(limiter: RateLimiter, email: string, ip: string): Promise<void> {
  const key = keys(email, ip);
  const pair = await limiter.hit(key.pairFailures, PAIR_FAILURES);
  if (!pair.allowed) await limiter.hit(key.pairLock, PAIR_LOCK);
  await limiter.hit(key.accountFailures, ACCOUNT_FAILURES);
}

/** The address's failures are forgotten, and it counts as the owner's for knownAddressMs from now. */
export async function recordLoginSuccess(limiter: RateLimiter, email: string, ip: string): Promise<void> {
  const key = keys(email, ip);
  await limiter.reset(key.pairFailures);
  await limiter.reset(key.knownAddress);
  await limiter.hit(key.knownAddress, KNOWN_ADDRESS);
}
