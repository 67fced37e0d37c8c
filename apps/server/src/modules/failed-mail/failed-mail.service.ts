import { and, count, desc, eq, sql } from 'drizzle-orm';
import { FAILED_MAIL_PAGE_SIZE, type FailedMail, type FailedMailPage } from '@vetcall/shared/schemas/failed-mail';
import type { AppContext } from '../../context.ts';
import { decodeCursor, encodeCursor } from '../../lib/keyset-cursor.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import { requeueFailedJob } from '../../jobs/job-queue.ts';
import { MAIL_JOB, queuedMailHeading } from '../../providers/mail/mail-outbox.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canManageFailedMail } from './failed-mail.policy.ts';

/**
 * Undelivered mail (docs/jobs-and-mail.md#failed-mail, ours): mail jobs the worker marked failed after their
 * three days of retries. They stay until a manager retries or dismisses them, or the hourly purge deletes them
 * 30 days after failing (FINISHED_JOB_RETENTION_MS).
 */

const isFailedMail = and(eq(jobs.kind, MAIL_JOB), eq(jobs.status, 'failed'));

type FailedRow = Pick<
  typeof jobs.$inferSelect,
  'id' | 'payload' | 'attempts' | 'lastError' | 'createdAt' | 'finishedAt'
>;

function toFailedMail(row: FailedRow, secrets: AppContext['secrets']): FailedMail {
  const heading = queuedMailHeading(secrets, row.payload);
  return {
    id: row.id,
    to: heading?.to ?? null,
    subject: heading?.subject ?? null,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    // failJob sets finished_at with status 'failed'; created_at only guards a row written by hand.
    failed_at: (row.finishedAt ?? row.createdAt).toISOString(),
  };
}

/**
 * GET /api/mail/failed: newest failure first, FAILED_MAIL_PAGE_SIZE a page, keyset pages in (finished_at, id)
 * order read through jobs_failed_idx; `total` counts every failed mail (a small set, on the same index).
 */
export async function listFailedMail(
  deps: Pick<AppContext, 'db' | 'secrets'>,
  actor: Actor,
  cursorText: string | undefined,
): Promise<FailedMailPage> {
  if (!canManageFailedMail(actor)) throw forbidden();
  const cursor = cursorText ? decodeCursor(cursorText) : undefined;
  const rows = await deps.db
    .select({
      id: jobs.id,
      payload: jobs.payload,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(
      and(
        isFailedMail,
        cursor ? sql`(${jobs.finishedAt}, ${jobs.id}) < (${cursor.at}::timestamptz, ${cursor.id}::integer)` : undefined,
      ),
    )
    .orderBy(desc(jobs.finishedAt), desc(jobs.id))
    .limit(FAILED_MAIL_PAGE_SIZE + 1);
  const [counted] = await deps.db.select({ total: count() }).from(jobs).where(isFailedMail);

  const page = rows.slice(0, FAILED_MAIL_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map((row) => toFailedMail(row, deps.secrets)),
    next_cursor:
      rows.length > FAILED_MAIL_PAGE_SIZE && last
        ? encodeCursor({ at: (last.finishedAt ?? last.createdAt).toISOString(), id: last.id })
        : null,
    total: counted?.total ?? 0,
  };
}

/**
 * POST /api/mail/failed/{id}/retry: the mail is queued again now, with three more days of retries, and this
 * instance's worker is woken to send it at once. 404 when no failed mail has the id.
 */
export async function retryFailedMail(deps: Pick<AppContext, 'db' | 'clock' | 'jobs'>, actor: Actor, id: number) {
  if (!canManageFailedMail(actor)) throw forbidden();
  if (!(await requeueFailedJob(deps.db, id, MAIL_JOB, deps.clock.now()))) throw notFound();
  deps.jobs.kick();
}

/** DELETE /api/mail/failed/{id}: the manager gives the mail up; its row goes. 404 when no failed mail has the id. */
export async function dismissFailedMail(deps: Pick<AppContext, 'db'>, actor: Actor, id: number) {
  if (!canManageFailedMail(actor)) throw forbidden();
  const gone = await deps.db
    .delete(jobs)
    .where(and(eq(jobs.id, id), isFailedMail))
    .returning({ id: jobs.id });
  if (gone.length === 0) throw notFound();
}
