import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** Set by the outbox: the same id for every attempt at one queued email. */
  messageId?: string;
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/**
 * nodemailer's transport, made on the first message: loading nodemailer is a tenth of a second of every start, and
 * a server may send nothing for a long while.
 */
function lazyTransport(options: Parameters<typeof nodemailer.createTransport>[0]) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    close: async () => {
      if (transport) (await transport).close();
    },
  };
}

/** Delivers through an SMTP server (SMTP_URL). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = lazyTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await (await transport.get()).sendMail({ from, ...message });
    },
    close: transport.close,
  };
}

/**
 * Writes each message as an .eml file in `directory`, for a machine with no mail server: a person
 * trying the app reads them at /dev/mail and follows reset and confirmation links from there.
 */
export function createOutboxMailer(directory: string, from: string): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      await mkdir(directory, { recursive: true });
      // A sortable, unguessable name: time first so the viewer lists newest first.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      await writeFile(path.join(directory, name), info.message as Buffer);
    },
    close: transport.close,
  };
}
