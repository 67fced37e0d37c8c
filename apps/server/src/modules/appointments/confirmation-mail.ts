import type { Locale } from '@vetcall/shared/locales';
import { translate } from '../../i18n.ts';
import type { MailMessage } from '../../providers/mail/mailer.ts';
import { renderEmail } from '../../providers/mail/templates.ts';
import { invitationAttachment } from './invitation-attachment.ts';

/**
 * The 'appointment confirmed' mail of one party (docs/product-rules.md#confirmation-page "an email was sent to both
 * parties"): in the reader's language, with their own PIN and join link only, the time in their zone and an .ics file.
 */
export interface ConfirmationMailInput {
  party: 'customer' | 'vet';
  to: string;
  locale: Locale;
  /** The reader's name. */
  name: string;
  vetName: string;
  customerName: string;
  petName: string;
  /** The start, already formatted in the reader's language and zone. */
  when: string;
  pin: string;
  joinUrl: string;
  calendar: {
    /** `appointment-<id>@<host>`: the ICS feed's UID for the same appointment, so calendars merge them. */
    uid: string;
    start: Date;
    end: Date;
    dtstamp: Date;
    sequence: number;
    /** MAIL_FROM: the clinic organizes every invitation. */
    mailFrom: string;
  };
}

/** `${PUBLIC_URL}/appointment/{pin}?lang={locale}` (docs/product-rules.md#pin-screen). */
export const joinUrl = (publicUrl: string, pin: string, locale: Locale) =>
  `${publicUrl}/appointment/${encodeURIComponent(pin)}?lang=${encodeURIComponent(locale)}`;

export function buildConfirmationMail(input: ConfirmationMailInput): MailMessage {
  const { locale } = input;
  const names = { vet: input.vetName, customer: input.customerName, pet: input.petName };
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_confirmation.${key}`, values);

  const rendered = renderEmail(locale, {
    subject: t('subject', names),
    name: input.name,
    paragraphs: [
      t(input.party === 'customer' ? 'customer_body' : 'vet_body', { ...names, when: input.when }),
      t('pin', { pin: input.pin }),
      t('join_window'),
    ],
    action: { label: t('action'), url: input.joinUrl },
    footer: t('attachment'),
  });

  const attachment = invitationAttachment(
    'REQUEST',
    {
      uid: input.calendar.uid,
      dtstamp: input.calendar.dtstamp,
      start: input.calendar.start,
      end: input.calendar.end,
      summary: t(input.party === 'customer' ? 'customer_summary' : 'vet_summary', names),
      description: t('ics_description', { url: input.joinUrl, pin: input.pin }),
      status: 'CONFIRMED',
      sequence: input.calendar.sequence,
      url: input.joinUrl,
    },
    { mailFrom: input.calendar.mailFrom, attendee: { name: input.name, email: input.to } },
  );

  return {
    to: input.to,
    ...rendered,
    attachments: [attachment],
  };
}
