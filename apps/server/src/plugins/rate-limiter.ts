import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Counts one hit; answers whether the key is still within its limit after it. */
  hit(key: string, rule: RateRule): Promise<RateDecision>;
  /** Answers whether the key has already used its limit, without counting. */
  check(key: string, rule: RateRule): Promise<RateDecision>;
}

export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in process memory: right for one instance. Several instances share limits
 * through Redis (REDIS_URL), added with the multi-instance work.
 */
export function createMemoryRateLimiter(clock: Clock, maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();

  function current(key: string, rule: RateRule) {
    const now = clock.now().getTime();
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      if (windows.size >= maxKeys) evictExpired(now);
      window = { count: 0, resetAt: now + rule.windowMs };
      windows.set(key, window);
    }
    return { window, now };
  }

  function evictExpired(now: number) {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    // Still full: drop the oldest entries rather than grow without bound.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  function decide(window: { count: number; resetAt: number }, now: number, rule: RateRule, counted: boolean) {
    const allowed = counted ? window.count <= rule.limit : window.count < rule.limit;
    return { allowed, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  }

  return {
    async hit(key, rule) {
      const { window, now } = current(key, rule);
      window.count += 1;
      return decide(window, now, rule, true);
    },
    async check(key, rule) {
      const { window, now } = current(key, rule);
      return decide(window, now, rule, false);
    },
  };
}

export function tooManyRequests(decision: RateDecision): AppError {
  return new AppError('too_many_requests', 429, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
}

/** Throws 429 unless every decision allows. */
export function assertAllowed(...decisions: RateDecision[]): void {
  const refused = decisions.find((decision) => !decision.allowed);
  if (refused) throw tooManyRequests(refused);
}
