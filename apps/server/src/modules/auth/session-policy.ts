/** A session ends after this long without use… */
export const SESSION_IDLE_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** …and in any case this long after login. */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;
/** last_used_at is refreshed at most this often, to keep reads from becoming writes. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/**
 * Guessable endpoints and their limits (per key, fixed window). The per-IP limits are generous because a
 * clinic's staff or a family share one address behind NAT; guessing passwords is stopped by LOGIN_LOCKOUT.
 */
export const RATE_LIMITS = {
  loginPerIp: { limit: 100, windowMs: FIFTEEN_MINUTES },
  resetPerIp: { limit: 20, windowMs: FIFTEEN_MINUTES },
  resetPerEmail: { limit: 5, windowMs: FIFTEEN_MINUTES },
  updatePasswordPerIp: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const;

/**
 * Password guessing (docs/decisions/014-password-strength-and-login-lockout.md). Failures are counted per email and address: that pair
 * is locked after `failuresPerPair` within `withinMs`, for `lockMs`, and a successful login there starts the
 * count again. An account never locks as a whole, or anyone could lock its owner out: once it has
 * `slowAfterAccountFailures` failures within `withinMs` from anywhere, addresses it has not logged in from within
 * `knownAddressMs` get one attempt per `slowIntervalMs` between them, and the owner's own addresses none.
 */
export const LOGIN_LOCKOUT = {
  failuresPerPair: 10,
  withinMs: FIFTEEN_MINUTES,
  lockMs: FIFTEEN_MINUTES,
  slowAfterAccountFailures: 20,
  slowIntervalMs: 10_000,
  knownAddressMs: 30 * 24 * 60 * 60 * 1000,
} as const;
