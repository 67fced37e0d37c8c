import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
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
  /** Forgets the key's count (a successful login clears the failures before it). */
  reset(key: string): Promise<void>;
  /** Lets go of a connection the limiter holds (Redis); the memory limiter holds none. */
  close(): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in process memory: right for one instance. The window follows the injected clock,
 * so tests that freeze time can step across it (@fastify/rate-limit's LocalStore reads Date.now()). Several
 * instances share their counters through createRedisRateLimiter.
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
      // Looking stores nothing: a check of a key never hit must not take a place among the kept keys.
      const now = clock.now().getTime();
      const window = windows.get(key);
      const live = window && window.resetAt > now ? window : { count: 0, resetAt: now + rule.windowMs };
      return decide(live, now, rule, false);
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {},
  };
}

/** The store interface of @fastify/rate-limit: `incr` counts a hit, `read` looks without counting. */
interface RateLimitStore {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
}
type StoreCallback = (error: Error | null, result?: { current: number; ttl: number } | null) => void;

// @fastify/rate-limit's Redis store: one Lua script per hit (INCR, and PEXPIRE on a window's first hit), so
// a counter is atomic across instances. Its package has no ESM entry for the store, hence require.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  keyPrefix: string,
) => RateLimitStore;

function callStore(
  method: 'incr' | 'read',
  store: RateLimitStore,
  key: string,
  rule: RateRule,
): Promise<{ current: number; ttl: number }> {
  return new Promise((resolve, reject) =>
    store[method](
      key,
      (error, result) => (error ? reject(error) : resolve(result ?? { current: 0, ttl: 0 })),
      rule.windowMs,
      rule.limit,
    ),
  );
}

/**
 * Counters in Redis through @fastify/rate-limit's store, shared by every instance on that Redis: a limit
 * counted on one instance holds on all. Windows are fixed from a key's first hit, as in memory; they run on
 * Redis's own clock (a key's TTL). While Redis cannot answer, `fallback` (this instance's own counters)
 * decides, so an outage neither stops logins nor lifts the limits. close() closes the connection.
 */
export function createRedisRateLimiter(
  redis: Redis,
  options: { keyPrefix: string; fallback: RateLimiter },
): RateLimiter {
  const storePrefix = `${options.keyPrefix}rate:`;
  const store = new RedisStore(false, false, redis, storePrefix);
  const decide = (counted: boolean, rule: RateRule) => (state: { current: number; ttl: number }) => ({
    allowed: counted ? state.current <= rule.limit : state.current < rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil(state.ttl / 1000)),
  });
  const orFallback = (method: 'hit' | 'check', key: string, rule: RateRule) => () =>
    options.fallback[method](key, rule);
  return {
    hit: (key, rule) => callStore('incr', store, key, rule).then(decide(true, rule), orFallback('hit', key, rule)),
    check: (key, rule) => callStore('read', store, key, rule).then(decide(false, rule), orFallback('check', key, rule)),
    async reset(key) {
      // Both: while Redis was away this instance's own counters decided.
      await options.fallback.reset(key);
      await redis.del(`${storePrefix}${key}`).catch(() => undefined);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
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
