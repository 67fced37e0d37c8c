import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { RateLimiter } from './plugins/rate-limiter.ts';
import type { JobWorker } from './jobs/job-worker.ts';
import type { Mailer } from './providers/mail/mailer.ts';
import type { Secrets } from './secrets.ts';
import type { FileStore } from './providers/storage/file-store.ts';
import type { VersionedCache } from './lib/versioned-cache.ts';
import type { KeptBytes } from './lib/json-answer.ts';
import type { SessionCache } from './modules/auth/auth.service.ts';

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
  /** Attachment bytes: DATA_DIR/files or the S3 bucket (STORAGE). */
  files: FileStore;
  /**
   * Reads kept while the data version (database.dataVersion) has not moved: sessions by token hash, and
   * the JSON answers of the hot reads (lib/cached-json.ts).
   */
  caches: { sessions: SessionCache; answers: VersionedCache<KeptBytes> };
}
