import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Durable work: every email, and every job that follows a change (docs/jobs-and-mail.md). A row is written
 * in the same transaction as the change it follows, so a rollback leaves no job and a commit never loses
 * one. Workers claim due rows with FOR UPDATE SKIP LOCKED and a lease (`locked_until`), so one row runs on
 * one worker at a time across instances; a failure is retried with back-off until `give_up_at`.
 * `dedupe_key` makes an enqueue idempotent (a reminder is queued once however many instances scan).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    giveUpAt: timestamp('give_up_at', { withTimezone: true }).notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_due_idx')
      .on(table.runAt)
      .where(sql`${table.status} = 'pending'`),
    uniqueIndex('jobs_dedupe_key_idx').on(table.dedupeKey),
    index('jobs_failed_idx')
      .on(table.finishedAt)
      .where(sql`${table.status} = 'failed'`),
  ],
);
