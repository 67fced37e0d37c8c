import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { jobs } from '../db/jobs-schema.ts';

export type JobRow = typeof jobs.$inferSelect;

/** How long a job keeps being retried before it is marked failed: an outage of up to 3 days loses nothing. */
export const JOB_GIVE_UP_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
/** A claimed job belongs to its worker this long; a worker that died lets it go when the lease ends. */
export const JOB_LEASE_MS = 5 * 60 * 1000;
const SECOND_MS = 1000;
/** Waits between attempts: 5 s, 15 s, 45 s, … (×3 each time), never more than an hour. */
const FIRST_RETRY_MS = 5 * SECOND_MS;
const MAX_RETRY_MS = 60 * 60 * SECOND_MS;

export const retryDelayMs = (attempts: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 3 ** (attempts - 1));

export interface NewJob {
  kind: string;
  payload: unknown;
  /** When it may run; now when omitted. */
  runAt?: Date;
  /** A second enqueue with the same key is a no-op (answers null). */
  dedupeKey?: string;
}

/**
 * Writes jobs in the caller's transaction (pass the transaction as `db`), so they exist exactly when the
 * change they follow committed. Answers the ids written (a deduplicated job is left out).
 */
export async function enqueueJobs(db: Pick<Database, 'insert'>, now: Date, entries: readonly NewJob[]) {
  if (entries.length === 0) return [];
  const rows = await db
    .insert(jobs)
    .values(
      entries.map((entry) => ({
        kind: entry.kind,
        payload: entry.payload,
        runAt: entry.runAt ?? now,
        giveUpAt: new Date((entry.runAt ?? now).getTime() + JOB_GIVE_UP_AFTER_MS),
        dedupeKey: entry.dedupeKey ?? null,
        createdAt: now,
      })),
    )
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return rows.map((row) => row.id);
}

/**
 * Claims up to `limit` due jobs for this worker: pending, due, and not leased by another worker (or its
 * lease ran out because that worker died). FOR UPDATE SKIP LOCKED lets workers of several instances claim
 * side by side without waiting for or taking each other's rows; the lease marks the claim past the
 * statement, while the job runs outside any transaction.
 */
export async function claimDueJobs(db: Database, now: Date, limit: number): Promise<JobRow[]> {
  const leaseEnd = new Date(now.getTime() + JOB_LEASE_MS);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(eq(jobs.status, 'pending'), lte(jobs.runAt, now), or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now))),
      )
      .orderBy(jobs.runAt, jobs.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(jobs)
      .set({ lockedUntil: leaseEnd, attempts: sql`${jobs.attempts} + 1` })
      .where(
        inArray(
          jobs.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    // RETURNING gives rows in the order the update met them, not the select's: back to due order.
    const order = new Map(due.map((row, index) => [row.id, index]));
    return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  });
}

/**
 * Gives back claimed jobs this worker will not run (it is shutting down): due again at once for any
 * instance, not after the lease, and the claim does not count as an attempt.
 */
export async function releaseJobs(db: Pick<Database, 'update'>, claimed: readonly JobRow[]) {
  if (claimed.length === 0) return;
  await db
    .update(jobs)
    .set({ lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
    .where(
      and(
        eq(jobs.status, 'pending'),
        inArray(
          jobs.id,
          claimed.map((job) => job.id),
        ),
      ),
    );
}

/** Marks a claimed job done, and drops its payload: a sent email's content need not be kept. */
export async function completeJob(db: Pick<Database, 'update'>, job: JobRow, now: Date) {
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: now, lockedUntil: null, payload: {} })
    .where(eq(jobs.id, job.id));
}

/** How long finished jobs are kept (to look into a failure, or see what was sent) before they are deleted. */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Deletes jobs finished (done or failed) longer than FINISHED_JOB_RETENTION_MS ago: the recurring tasks
 * alone add a few thousand rows a day. Answers how many went.
 */
export async function purgeFinishedJobs(db: Pick<Database, 'delete'>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - FINISHED_JOB_RETENTION_MS);
  const gone = await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ['done', 'failed']), lt(jobs.finishedAt, cutoff)))
    .returning({ id: jobs.id });
  return gone.length;
}

/**
 * Records a failed attempt: the job runs again after retryDelayMs(attempts), or is marked failed when that
 * would be past its give-up time. Answers the job's new status.
 */
export async function failJob(db: Pick<Database, 'update'>, job: JobRow, now: Date, error: unknown) {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  const nextRun = new Date(now.getTime() + retryDelayMs(job.attempts));
  const givingUp = nextRun > job.giveUpAt;
  await db
    .update(jobs)
    .set(
      givingUp
        ? { status: 'failed', finishedAt: now, lockedUntil: null, lastError: message }
        : { runAt: nextRun, lockedUntil: null, lastError: message },
    )
    .where(eq(jobs.id, job.id));
  return givingUp ? 'failed' : 'pending';
}

/**
 * Puts a failed job of `kind` back in the queue, due now with a fresh attempt count and a new three-day
 * give-up window, as if just queued (a manager's retry, once the cause is fixed). The last error is kept
 * until the next attempt replaces it. Answers false when no failed job of that kind has the id, so a retry
 * racing another manager's retry or dismissal changes nothing.
 */
export async function requeueFailedJob(db: Pick<Database, 'update'>, id: number, kind: string, now: Date) {
  const rows = await db
    .update(jobs)
    .set({
      status: 'pending',
      attempts: 0,
      runAt: now,
      giveUpAt: new Date(now.getTime() + JOB_GIVE_UP_AFTER_MS),
      lockedUntil: null,
      finishedAt: null,
    })
    .where(and(eq(jobs.id, id), eq(jobs.kind, kind), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}
