import type { Database } from '../../db/client.ts';
import { enqueueJobs } from '../../jobs/job-queue.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import type { Secrets } from '../../secrets.ts';
import type { MailMessage, Mailer } from './mailer.ts';

/** The job kind that delivers one email. */
export const MAIL_JOB = 'mail';
/** Mail may carry secrets (reset links, PINs): its job payload is sealed with the server secret. */
const MAIL_SEAL_PURPOSE = 'mail-job';

interface StoredMail extends Omit<MailMessage, 'attachments'> {
  attachments?: { filename: string; contentType: string; base64: string }[];
}

const toStored = (message: MailMessage): StoredMail => ({
  ...message,
  attachments: message.attachments?.map((attachment) => ({
    filename: attachment.filename,
    contentType: attachment.contentType,
    base64: Buffer.from(attachment.content).toString('base64'),
  })),
});

const fromStored = (stored: StoredMail): MailMessage => ({
  ...stored,
  attachments: stored.attachments?.map((attachment) => ({
    filename: attachment.filename,
    contentType: attachment.contentType,
    content: Buffer.from(attachment.base64, 'base64'),
  })),
});

/**
 * Queues emails in the caller's transaction (docs/jobs-and-mail.md): they are sent by the job worker after
 * the change commits, retried while the mail server is away, and never sent for a change that rolled back.
 * `dedupeKey` (one per message) makes the queueing idempotent. Call the worker's kick() after the commit.
 */
export async function queueMail(
  db: Pick<Database, 'insert'>,
  deps: { secrets: Pick<Secrets, 'seal'>; now: Date },
  messages: readonly (MailMessage & { dedupeKey?: string })[],
): Promise<number[]> {
  return enqueueJobs(
    db,
    deps.now,
    messages.map(({ dedupeKey, ...message }) => ({
      kind: MAIL_JOB,
      payload: { sealed: deps.secrets.seal(MAIL_SEAL_PURPOSE, JSON.stringify(toStored(message))) },
      dedupeKey,
    })),
  );
}

/**
 * Who a queued email is for and its subject, for the managers' list of failed mail: never the body or the
 * attachments, which may hold PINs and reset links. Null when the payload cannot be opened (sealed under a
 * former APP_SECRET, or not a mail payload), so that one unreadable row does not hide the others.
 */
export function queuedMailHeading(
  secrets: Pick<Secrets, 'open'>,
  payload: unknown,
): { to: string; subject: string } | null {
  try {
    const { sealed } = payload as { sealed: string };
    const stored = JSON.parse(secrets.open(MAIL_SEAL_PURPOSE, sealed)) as Partial<StoredMail>;
    if (typeof stored.to !== 'string' || typeof stored.subject !== 'string') return null;
    return { to: stored.to, subject: stored.subject };
  } catch {
    return null;
  }
}

/**
 * Delivers a queued email through the transport (SMTP, or the local outbox folder). Its Message-ID is the
 * job's, so a message sent again after a crash between sending and recording it is the same message to the
 * receiving servers and mail clients, which drop the duplicate.
 */
export function mailJobHandler(deps: { mailer: Mailer; secrets: Pick<Secrets, 'open'>; host: string }): JobHandler {
  return async (payload, job) => {
    const { sealed } = payload as { sealed: string };
    const message = fromStored(JSON.parse(deps.secrets.open(MAIL_SEAL_PURPOSE, sealed)) as StoredMail);
    await deps.mailer.send({ ...message, messageId: `<mail-${job.id}-${job.createdAt.getTime()}@${deps.host}>` });
  };
}
