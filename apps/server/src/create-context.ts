import path from 'node:path';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Redis } from 'ioredis';
import { packageOnFirstUse } from './lib/package-on-first-use.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './plugins/rate-limiter.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './providers/mail/mailer.ts';
import { purgeFinishedJobs } from './jobs/job-queue.ts';
import { purgeExpiredCredentials } from './modules/auth/auth.service.ts';
import { createJobWorker, type JobWorkerOptions } from './jobs/job-worker.ts';
import { MAIL_JOB, mailJobHandler } from './providers/mail/mail-outbox.ts';
import { createSecrets } from './secrets.ts';
import { VersionedCache } from './lib/versioned-cache.ts';
import { LIFECYCLE_TASKS, lifecycleJobHandlers } from './modules/appointments/lifecycle-jobs.ts';
import { REFUND_JOB, refundJobHandler } from './modules/appointments/refunds.ts';
import { HOLD_RELEASE_EVERY_MS, HOLD_RELEASE_JOB, releaseExpiredHolds } from './modules/scheduling/hold-release-job.ts';
import { stripeClientFor } from './providers/payments/stripe.ts';
import { fileStoreFor } from './providers/storage/create-file-store.ts';
import { CALENDAR_EVENT_JOB, calendarEventJobHandler } from './modules/appointments/calendar-event-job.ts';

export function createMailer(config: Config): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom);
}

/** Loaded only with REDIS_URL. */
const ioredis = packageOnFirstUse<{ Redis: typeof Redis }>('ioredis');

/** Limits shared by every instance through Redis when REDIS_URL is set; counted in this process otherwise. */
export function createRateLimiter(config: Config, clock: Clock): RateLimiter {
  if (!config.redis.url) return createMemoryRateLimiter(clock);
  const redis = new (ioredis().Redis)(config.redis.url, {
    connectionName: 'vetcall-rate-limit',
    // While disconnected a command fails at once, and this instance's own counters decide.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  // The client repeats its error at every reconnect attempt; a failed command reaches the fallback instead.
  redis.on('error', () => undefined);
  return createRedisRateLimiter(redis, {
    keyPrefix: config.redis.keyPrefix,
    fallback: createMemoryRateLimiter(clock),
  });
}

/** The hourly task that deletes long-finished jobs. */
const JOBS_PURGE_JOB = 'jobs-purge';
/** The hourly task that deletes sessions and reset tokens no longer usable: once across instances. */
export const CREDENTIALS_PURGE_JOB = 'credentials-purge';
const HOUR_MS = 60 * 60 * 1000;
/** Sessions kept per instance: a clinic's whole staff and a busy day's customers. */
const SESSION_CACHE_ENTRIES = 20_000;
/** Hot answers kept per instance (slots per vet and week, vets per date, products per language, …). */
const ANSWER_CACHE_ENTRIES = 5_000;

/** Assembles the context from configuration; tests pass their own database, clock or mailer. */
export function createContext(
  config: Config,
  database: DatabaseHandle,
  overrides: { clock?: Clock; mailer?: Mailer; onJobError?: JobWorkerOptions['onError'] } = {},
): AppContext {
  const clock = overrides.clock ?? systemClock;
  const mailer = overrides.mailer ?? createMailer(config);
  const secrets = createSecrets(config);
  const stripe = stripeClientFor(config.payment);
  const jobs = createJobWorker({
    db: database.db,
    clock,
    handlers: {
      [MAIL_JOB]: mailJobHandler({ mailer, secrets, host: new URL(config.publicUrl).hostname }),
      ...(stripe ? { [REFUND_JOB]: refundJobHandler({ db: database.db, clock, stripe }) } : {}),
      ...lifecycleJobHandlers({ db: database.db, clock, config, secrets }),
      [HOLD_RELEASE_JOB]: async () => void (await releaseExpiredHolds({ db: database.db, clock })),
      [JOBS_PURGE_JOB]: async () => void (await purgeFinishedJobs(database.db, clock.now())),
      [CREDENTIALS_PURGE_JOB]: () => purgeExpiredCredentials({ db: database.db, clock }),
      [CALENDAR_EVENT_JOB]: calendarEventJobHandler({ db: database.db, clock, config, secrets }),
    },
    recurring: [
      ...LIFECYCLE_TASKS,
      { kind: HOLD_RELEASE_JOB, everyMs: HOLD_RELEASE_EVERY_MS },
      { kind: JOBS_PURGE_JOB, everyMs: HOUR_MS },
      { kind: CREDENTIALS_PURGE_JOB, everyMs: HOUR_MS },
    ],
    onError: overrides.onJobError,
  });
  return {
    config,
    database,
    db: database.db,
    clock,
    mailer,
    jobs,
    limiter: createRateLimiter(config, clock),
    secrets,
    files: fileStoreFor(config),
    caches: {
      sessions: new VersionedCache(database.dataVersion, SESSION_CACHE_ENTRIES),
      answers: new VersionedCache(database.dataVersion, ANSWER_CACHE_ENTRIES),
    },
  };
}
