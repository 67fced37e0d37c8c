import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { RateLimiter } from './plugins/rate-limiter.ts';
import type { JobWorker } from './jobs/job-worker.ts';
import type { Mailer } from './providers/mail/mailer.ts';
import type { Secrets } from './secrets.ts';

/** What services need from the outside world, passed explicitly (no container). */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  /** The transport; services queue mail with queueMail and the job worker sends it. */
  mailer: Mailer;
  /** This instance's job worker: kick() it after committing queued work. */
  jobs: JobWorker;
  clock: Clock;
  limiter: RateLimiter;
  secrets: Secrets;
}
