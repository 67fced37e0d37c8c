/** A session ends after this long without use… */
export const SESSION_IDLE_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** …and in any case this long after login. */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;
/** last_used_at is refreshed at most this often, to keep reads from becoming writes. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/**
 * Guessable endpoints and their limits (per key, fixed window). Guessing one account's password is
 * stopped per email; the per-IP limits are higher because a clinic's staff share one address behind NAT.
 */
export const RATE_LIMITS = {
  loginPerIp: { limit: 100, windowMs: FIFTEEN_MINUTES },
  loginFailuresPerEmail: { limit: 10, windowMs: FIFTEEN_MINUTES },
  resetPerIp: { limit: 20, windowMs: FIFTEEN_MINUTES },
  resetPerEmail: { limit: 5, windowMs: FIFTEEN_MINUTES },
  updatePasswordPerIp: { limit: 10, windowMs: FIFTEEN_MINUTES },
} as const;
