import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { createOutboxMailer, createSmtpMailer, type MailMessage } from './mailer.ts';

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n';
const message: MailMessage = {
  to: 'ana@example.test',
  subject: 'Consulta confirmada',
  text: 'Olá Ana',
  html: '<p>Olá Ana</p>',
  // Bytes, not a string: a string is sent as text and its CRLFs become LF; RFC 5545 wants CRLF.
  attachments: [
    { filename: 'appointment.ics', content: Buffer.from(ICS, 'utf8'), contentType: 'text/calendar; charset=utf-8' },
  ],
};

function expectDelivered(email: Email) {
  expect(email.subject).toBe('Consulta confirmada');
  expect(email.text?.trim()).toBe('Olá Ana');
  expect(email.attachments).toHaveLength(1);
  const [attachment] = email.attachments;
  expect(attachment).toMatchObject({ filename: 'appointment.ics', mimeType: 'text/calendar' });
  const content = attachment!.content;
  // postal-mime rewrites a calendar part's line ends to LF; the bytes sent are checked on the raw .eml below.
  expect(typeof content === 'string' ? content : new TextDecoder().decode(content)).toBe(ICS.replaceAll('\r\n', '\n'));
}

describe('mailers carry attachments', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('SMTP', async () => {
    const mailer = createSmtpMailer(smtp.url, 'VetCall <no-reply@vetcall.test>');
    try {
      await mailer.send(message);
    } finally {
      await mailer.close();
    }
    expectDelivered(await smtp.waitFor((mail) => mail.envelopeTo.includes('ana@example.test')));
  });

  it('outbox (.eml files)', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'vetcall-outbox-'));
    try {
      const mailer = createOutboxMailer(directory, 'VetCall <no-reply@vetcall.test>');
      await mailer.send(message);
      await mailer.close();
      const [file] = await readdir(directory);
      expect(file).toMatch(/\.eml$/);
      const raw = await readFile(path.join(directory, file!));
      expectDelivered(await PostalMime.parse(raw));
      // Sent as base64 of the exact bytes: the CRLFs RFC 5545 requires survive the trip.
      expect(raw.toString('latin1').replace(/\s+/g, '')).toContain(Buffer.from(ICS, 'utf8').toString('base64'));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
