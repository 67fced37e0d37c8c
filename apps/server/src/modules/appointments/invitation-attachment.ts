import { organizerOf } from '../../lib/mailbox.ts';
import type { MailAttachment } from '../../providers/mail/mailer.ts';
import { type IcsEvent, type IcsPerson, writeCalendar } from '../ics-feed/ics-calendar.ts';

/**
 * The appointment.ics of a mail: an invitation (REQUEST, for a confirmation or a move) or its withdrawal
 * (CANCEL), organised by the clinic (MAIL_FROM) and addressed to the reader, so Google Calendar and Outlook
 * file it as an invitation and apply updates by UID and SEQUENCE.
 */
export function invitationAttachment(
  method: 'REQUEST' | 'CANCEL',
  event: Omit<IcsEvent, 'organizer' | 'attendee'>,
  people: { mailFrom: string; attendee: IcsPerson },
): MailAttachment {
  const ics = writeCalendar({
    prodId: '-//VetCall//Appointment//EN',
    method,
    events: [{ ...event, organizer: organizerOf(people.mailFrom), attendee: people.attendee }],
  });
  return {
    filename: 'appointment.ics',
    // Bytes (sent base64), not a string: nodemailer sends a string as text with LF line ends; RFC 5545 wants CRLF.
    content: Buffer.from(ics, 'utf8'),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
  };
}
