import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAILED_MAIL_PAGE_SIZE } from '@vetcall/shared/schemas/failed-mail';
import { fixedClock } from '../../clock.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { translate } from '../../i18n.ts';
import { claimDueJobs, enqueueJobs, failJob, JOB_GIVE_UP_AFTER_MS, retryDelayMs } from '../../jobs/job-queue.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type Headers,
  oneOfEachRole,
  type Role,
  ROLE_PASSWORD as PASSWORD,
  ROLES,
} from '../../../test/one-of-each-role.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';

const NOW = '2030-06-10T12:00:00.000Z';
const MINUTE = 60_000;
/** What every test mail's body holds: it must never reach the list. */
const SECRET_BODY = 'Your PIN is 482913';

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});

function expectRefused(response: { statusCode: number; json: () => { error: string } }, role: Role) {
  const status = role === 'none' ? 401 : 403;
  expect(response.statusCode).toBe(status);
  expect(response.json().error).toBe(status === 401 ? 'unauthorized' : 'forbidden');
}

describe('failed mail (docs/jobs-and-mail.md#failed-mail: /api/mail/failed)', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  let headers: Record<Role, Headers>;
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    ({ headers } = await oneOfEachRole(t));
  });
  afterEach(async () => {
    await t.close();
  });

  const list = (as: Headers = headers.manager, cursor?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/mail/failed${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
      headers: as,
    });
  const retry = (id: number | string, as: Headers = headers.manager) =>
    t.app.inject({ method: 'POST', url: `/api/mail/failed/${id}/retry`, headers: as });
  const dismiss = (id: number | string, as: Headers = headers.manager) =>
    t.app.inject({ method: 'DELETE', url: `/api/mail/failed/${id}`, headers: as });
  const rowOf = async (id: number) => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0];

  /**
   * Mails the worker gave up on, made through the queue's own functions: queued now, claimed (so no drain
   * sends them meanwhile), and failed at `failedAt[i]`, which is past their give-up time.
   */
  async function failedMails(failedAt: Date[], error = 'connect ECONNREFUSED 127.0.0.1:25') {
    const ids = await queueMail(
      t.db,
      { secrets: t.context.secrets, now: clock.now() },
      failedAt.map((_, index) => ({
        to: `owner${index}@clinic.test`,
        subject: `Appointment ${index} confirmed`,
        text: SECRET_BODY,
        html: `<p>${SECRET_BODY}</p>`,
      })),
    );
    const claimed = await claimDueJobs(t.db, clock.now(), ids.length);
    for (const [index, id] of ids.entries()) {
      const job = claimed.find((row) => row.id === id)!;
      expect(await failJob(t.db, job, failedAt[index]!, new Error(error))).toBe('failed');
    }
    return ids;
  }
  /** A moment after the give-up time of a mail queued at NOW. */
  const afterGiveUp = (minutes = 0) => new Date(new Date(NOW).getTime() + JOB_GIVE_UP_AFTER_MS + minutes * MINUTE);

  describe('GET /api/mail/failed', () => {
    it.each(ROLES)('as %s', async (role) => {
      const [id] = await failedMails([afterGiveUp()]);
      const response = await list(headers[role]);
      if (role !== 'manager') return expectRefused(response, role);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        items: [
          {
            id,
            to: 'owner0@clinic.test',
            subject: 'Appointment 0 confirmed',
            attempts: 1,
            last_error: 'connect ECONNREFUSED 127.0.0.1:25',
            created_at: NOW,
            failed_at: afterGiveUp().toISOString(),
          },
        ],
        next_cursor: null,
        total: 1,
      });
      expect(response.body).not.toContain('482913');
    });

    it('lists only failed mail: not pending or sent mail, nor other failed jobs', async () => {
      const [failed] = await failedMails([afterGiveUp()]);
      const [other] = await enqueueJobs(t.db, clock.now(), [{ kind: 'stripe-refund', payload: {} }]);
      const [claimedOther] = await claimDueJobs(t.db, clock.now(), 1);
      await failJob(t.db, claimedOther!, afterGiveUp(), new Error('card declined'));
      expect((await rowOf(other!))!.status).toBe('failed');
      // A mail sent, and one still being retried (the server refused it once; its next try is in a minute).
      const [, retrying] = await queueMail(t.db, { secrets: t.context.secrets, now: clock.now() }, [
        { to: 'sent@clinic.test', subject: 'Sent', text: 'x', html: 'x' },
        { to: 'later@clinic.test', subject: 'Later', text: 'x', html: 'x' },
      ]);
      await t.db
        .update(jobs)
        .set({ runAt: new Date(clock.now().getTime() + MINUTE), attempts: 1, lastError: 'busy' })
        .where(eq(jobs.id, retrying!));
      await t.context.jobs.drain();
      expect((await rowOf(retrying!))!.status).toBe('pending');
      const response = await list();
      expect(response.json().items.map((item: { id: number }) => item.id)).toEqual([failed]);
      expect(response.json().total).toBe(1);
    });

    it('pages newest failure first, ties by id, with a total on every page', async () => {
      const count = FAILED_MAIL_PAGE_SIZE + 3;
      // Two mails share each failure minute, so the id breaks the tie within a page and across pages.
      const ids = await failedMails(Array.from({ length: count }, (_, index) => afterGiveUp(Math.floor(index / 2))));
      const expected = ids
        .map((id, index) => ({ id, minute: Math.floor(index / 2) }))
        .sort((a, b) => b.minute - a.minute || b.id - a.id)
        .map((row) => row.id);

      const first = (await list()).json();
      expect(first.items).toHaveLength(FAILED_MAIL_PAGE_SIZE);
      expect(first.total).toBe(count);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = (await list(headers.manager, first.next_cursor)).json();
      expect(second).toMatchObject({ next_cursor: null, total: count });
      expect([...first.items, ...second.items].map((item: { id: number }) => item.id)).toEqual(expected);
      // An empty cursor is the first page.
      expect((await list(headers.manager, '')).json().items[0].id).toBe(expected[0]);
    });

    it('answers an empty page when nothing failed', async () => {
      expect((await list()).json()).toEqual({ items: [], next_cursor: null, total: 0 });
    });

    it('shows a mail it can no longer open without recipient or subject, so it can still be dismissed', async () => {
      const [id] = await failedMails([afterGiveUp()]);
      await t.db
        .update(jobs)
        .set({ payload: { sealed: 'sealed-under-a-former-secret' } })
        .where(eq(jobs.id, id!));
      expect((await list()).json().items).toEqual([expect.objectContaining({ id, to: null, subject: null })]);
      expect((await dismiss(id!)).statusCode).toBe(204);
    });

    it.each([
      ['not base64 JSON', 'nope', 'invalid_format'],
      ['a cursor of another shape', Buffer.from('{"a":1}').toString('base64url'), 'invalid_format'],
      ['a long cursor', 'a'.repeat(201), 'too_long'],
    ])('refuses %s with 400 on cursor', async (_case, cursor, code) => {
      const response = await list(headers.manager, cursor);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'validation_failed',
        message: expect.any(String),
        fields: { cursor: code },
      });
    });
  });

  describe('a mail the SMTP server refuses until the worker gives up', () => {
    it('is listed with its recipient and subject, and a retry delivers it once the server is back', async () => {
      await smtp.stop();
      let id: number;
      try {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/login/sendpasswordresetemail/en',
          payload: { email: 'ana@clinic.test' },
        });
        expect(response.statusCode).toBe(200);
        const queued = await t.db.select({ id: jobs.id }).from(jobs);
        expect(queued).toHaveLength(1);
        id = queued[0]!.id;
        // The worker's retries, each at its due time, until three days have passed.
        for (let round = 0; round < 200; round++) {
          const row = (await rowOf(id))!;
          if (row.status !== 'pending') break;
          clock.set(row.runAt);
          await t.context.jobs.drain();
        }
      } finally {
        await smtp.start();
      }
      const failed = (await rowOf(id))!;
      expect(failed.status).toBe('failed');
      expect(failed.attempts).toBeGreaterThan(10);
      expect(smtp.received).toEqual([]);

      // Sessions end after a day without use: the manager logs in again three days later.
      const manager = (await t.loginAs('boss@clinic.test', PASSWORD)).headers;
      const listed = await list(manager);
      expect(listed.json()).toEqual({
        items: [
          {
            id,
            to: 'ana@clinic.test',
            subject: translate('en', 'email.password_reset.subject'),
            attempts: failed.attempts,
            last_error: expect.stringContaining('ECONNREFUSED'),
            created_at: NOW,
            failed_at: failed.finishedAt!.toISOString(),
          },
        ],
        next_cursor: null,
        total: 1,
      });
      // The reset link (its token) is the body's secret.
      expect(listed.body).not.toContain('newpassword');
      expect(listed.body).not.toContain('token');

      expect((await retry(id, manager)).statusCode).toBe(204);
      const delivered = await smtp.waitFor((mail) => mail.envelopeTo.includes('ana@clinic.test'));
      expect(delivered.subject).toBe(translate('en', 'email.password_reset.subject'));
      expect(delivered.text).toContain('/newpassword?token=');
      expect((await rowOf(id))!).toMatchObject({ status: 'done', attempts: 1 });
      expect((await list(manager)).json()).toEqual({ items: [], next_cursor: null, total: 0 });
      // Sent once: later rounds find nothing due.
      clock.advance(JOB_GIVE_UP_AFTER_MS);
      await t.context.jobs.drain();
      expect(smtp.received).toHaveLength(1);
    });
  });

  describe('POST /api/mail/failed/{id}/retry', () => {
    it.each(ROLES)('as %s', async (role) => {
      const [id] = await failedMails([afterGiveUp()]);
      const response = await retry(id!, headers[role]);
      if (role !== 'manager') {
        expectRefused(response, role);
        expect((await rowOf(id!))!.status).toBe('failed');
        expect(smtp.received).toEqual([]);
        return;
      }
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await smtp.waitFor((mail) => mail.envelopeTo.includes('owner0@clinic.test'))).subject).toBe(
        'Appointment 0 confirmed',
      );
      expect((await rowOf(id!))!.status).toBe('done');
    });

    it('queues the mail as new: due now, attempts from zero, three more days of retries', async () => {
      const [id] = await failedMails([afterGiveUp()]);
      clock.set(afterGiveUp(60));
      const manager = (await t.loginAs('boss@clinic.test', PASSWORD)).headers;
      await smtp.stop();
      try {
        expect((await retry(id!, manager)).statusCode).toBe(204);
      } finally {
        await smtp.start();
      }
      // The kick made one attempt at once; the server was down, so the mail waits for its next try.
      const now = clock.now().getTime();
      expect((await rowOf(id!))!).toMatchObject({
        status: 'pending',
        attempts: 1,
        runAt: new Date(now + retryDelayMs(1)),
        giveUpAt: new Date(now + JOB_GIVE_UP_AFTER_MS),
        finishedAt: null,
        lockedUntil: null,
        lastError: expect.stringContaining('ECONNREFUSED'),
      });
      expect((await list(manager)).json().total).toBe(0);
      clock.advance(retryDelayMs(1));
      await t.context.jobs.drain();
      expect(smtp.received).toHaveLength(1);
    });
  });

  describe('DELETE /api/mail/failed/{id}', () => {
    it.each(ROLES)('as %s', async (role) => {
      const [id, kept] = await failedMails([afterGiveUp(), afterGiveUp(1)]);
      const response = await dismiss(id!, headers[role]);
      if (role !== 'manager') {
        expectRefused(response, role);
        expect((await rowOf(id!))!.status).toBe('failed');
        return;
      }
      expect(response.statusCode).toBe(204);
      expect(await rowOf(id!)).toBeUndefined();
      expect((await list()).json()).toMatchObject({ items: [{ id: kept }], total: 1 });
      expect(smtp.received).toEqual([]);
    });
  });

  describe('retry and dismiss of what is not a failed mail', () => {
    it('answer 404 for an unknown id, a mail still retrying or sent, another failed job, or a dismissed mail', async () => {
      const [dismissed] = await failedMails([afterGiveUp()]);
      expect((await dismiss(dismissed!)).statusCode).toBe(204);
      const [sent, pending] = await queueMail(t.db, { secrets: t.context.secrets, now: clock.now() }, [
        { to: 'sent@clinic.test', subject: 'Sent', text: 'x', html: 'x' },
        { to: 'later@clinic.test', subject: 'Later', text: 'x', html: 'x' },
      ]);
      // Only the first is sent now: the second is due in an hour.
      await t.db
        .update(jobs)
        .set({ runAt: new Date(clock.now().getTime() + 60 * MINUTE) })
        .where(eq(jobs.id, pending!));
      await t.context.jobs.drain();
      const [otherJob] = await enqueueJobs(t.db, clock.now(), [{ kind: 'stripe-refund', payload: {} }]);
      const [claimed] = await claimDueJobs(t.db, clock.now(), 1);
      await failJob(t.db, claimed!, afterGiveUp(), new Error('card declined'));
      const before = await t.db.select().from(jobs).orderBy(jobs.id);
      expect(before.map((row) => [row.id, row.status])).toEqual([
        [sent, 'done'],
        [pending, 'pending'],
        [otherJob, 'failed'],
      ]);

      for (const id of [9999, dismissed!, sent!, pending!, otherJob!]) {
        for (const call of [retry, dismiss]) {
          const response = await call(id);
          expect(response.statusCode, `${call === retry ? 'retry' : 'dismiss'} ${id}`).toBe(404);
          expect(response.json().error).toBe('not_found');
        }
      }
      expect(await t.db.select().from(jobs).orderBy(jobs.id)).toEqual(before);
    });

    it.each([
      ['letters', 'abc', 'invalid_format'],
      ['zero', '0', 'invalid_format'],
      ['a number past the integer range', '9999999999', 'too_big'],
    ])('refuse an id of %s with 400 on id', async (_case, id, code) => {
      for (const call of [retry, dismiss]) {
        const response = await call(id);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: 'validation_failed',
          message: expect.any(String),
          fields: { id: code },
        });
      }
    });
  });
});
