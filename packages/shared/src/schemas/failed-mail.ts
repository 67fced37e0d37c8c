import { z } from 'zod';
import { idParam } from './fields.ts';

/**
 * Undelivered mail (ours, not SPEC §7; docs/jobs-and-mail.md#failed-mail): emails the job worker gave up on
 * after three days of retries, shown to managers so that none is lost silently.
 */

/** Rows per page of GET /api/mail/failed: a handful is the usual case; an outage fills a few pages. */
export const FAILED_MAIL_PAGE_SIZE = 50;

/** GET /api/mail/failed: the query. `cursor` is the previous page's next_cursor; empty or absent, the first page. */
export const failedMailQuerySchema = z.object({
  cursor: z.string().max(200, { error: 'too_long' }).optional(),
});
export type FailedMailQuery = z.input<typeof failedMailQuerySchema>;

/**
 * One failed email as managers see it: who it was for and its subject, never its body (bodies carry PINs
 * and password-reset links). `to` and `subject` are null when the stored mail can no longer be opened
 * (it was sealed under a former APP_SECRET): the row can still be dismissed.
 */
export const failedMailSchema = z.object({
  id: z.number().int(),
  to: z.string().nullable(),
  subject: z.string().nullable(),
  /** Delivery attempts made before giving up. */
  attempts: z.number().int(),
  /** The transport's last error (an SMTP reply, a refused connection…). */
  last_error: z.string().nullable(),
  /** ISO instant the mail was queued. */
  created_at: z.string(),
  /** ISO instant the worker gave up. */
  failed_at: z.string(),
});
export type FailedMail = z.infer<typeof failedMailSchema>;

/** Newest failure first; keyset pages in (failed_at, id) order. */
export const failedMailPageSchema = z.object({
  items: z.array(failedMailSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  next_cursor: z.string().nullable(),
  /** Every failed mail waiting for a manager, across all pages. */
  total: z.number().int(),
});
export type FailedMailPage = z.infer<typeof failedMailPageSchema>;

/** POST /api/mail/failed/{id}/retry and DELETE /api/mail/failed/{id}. */
export const failedMailIdParamsSchema = z.object({ id: idParam });
