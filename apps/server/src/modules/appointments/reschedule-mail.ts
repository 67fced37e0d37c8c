import type { Locale } from '@vetcall/shared/locales';
import { formatAppointmentTime } from '../../lib/appointment-time.ts';
import { translate } from '../../i18n.ts';
import type { MailMessage } from '../../providers/mail/mailer.ts';
import { renderEmail } from '../../providers/mail/templates.ts';
import { appointmentEventUid } from '../ics-feed/ics-calendar.ts';
import { joinUrl } from './confirmation-mail.ts';
import { invitationAttachment } from './invitation-attachment.ts';
import type { AppointmentPins } from './pins.ts';
import { myAppointmentsUrl, type RequestDetails } from './request-emails.ts';

export interface RescheduleNotice {
  /** The appointment at its new time. */
  details: RequestDetails;
  previousStart: Date;
  appointmentId: number;
  end: Date;
  sequence: number;
  movedAt: Date;
  byName: string;
  /** A confirmed appointment keeps its PINs; a requested one has none yet and goes back to the vet. */
  pins: AppointmentPins | null;
  publicUrl: string;
  mailFrom: string;
}

/**
 * The 'appointment moved' mail of one party, in their language and zone, old and new time. A confirmed
 * appointment keeps its PINs: the mail repeats the reader's and carries the invitation again (REQUEST, same
 * UID, the next SEQUENCE) so their calendar moves the event. A requested one is not in any calendar yet: the
 * vet is asked to confirm the new time, the customer told that they will hear when it is confirmed.
 */
export function buildRescheduleMail(notice: RescheduleNotice, party: 'customer' | 'vet'): MailMessage {
  const { details, pins } = notice;
  const reader = details[party];
  const locale: Locale = reader.locale;
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_reschedule.${key}`, values);
  const zone = party === 'customer' ? details.customerZone : { timeZone: details.vet.timezone };
  const names = {
    pet_name: details.pet.name,
    vet_name: details.vet.name,
    customer_name: details.customer.name,
    when: formatAppointmentTime(details.schedule, locale, zone),
    previous: formatAppointmentTime(notice.previousStart, locale, zone),
    by_name: notice.byName,
  };
  const paragraphs = [t('body', names)];
  let action: { label: string; url: string };
  if (pins) {
    const pin = pins[party];
    paragraphs.push(
      translate(locale, 'mail_confirmation.pin', { pin }),
      translate(locale, 'mail_confirmation.join_window'),
    );
    action = { label: translate(locale, 'mail_confirmation.action'), url: joinUrl(notice.publicUrl, pin, locale) };
  } else if (party === 'vet') {
    paragraphs.push(t('vet_confirm'));
    action = {
      label: t('confirm_action'),
      url: `${notice.publicUrl}/confirmappointment/${encodeURIComponent(details.hash)}?lang=${encodeURIComponent(locale)}`,
    };
  } else {
    paragraphs.push(t('customer_awaiting'));
    action = { label: t('view_action'), url: myAppointmentsUrl(notice.publicUrl, locale) };
  }
  const rendered = renderEmail(locale, { subject: t('subject', names), name: reader.name, paragraphs, action });
  if (!pins) return { to: reader.email, ...rendered };

  const url = joinUrl(notice.publicUrl, pins[party], locale);
  const summaryKey = party === 'customer' ? 'customer_summary' : 'vet_summary';
  const summaryNames = { vet: details.vet.name, customer: details.customer.name, pet: details.pet.name };
  const attachment = invitationAttachment(
    'REQUEST',
    {
      uid: appointmentEventUid(notice.appointmentId, notice.publicUrl),
      dtstamp: notice.movedAt,
      start: details.schedule,
      end: notice.end,
      summary: translate(locale, `mail_confirmation.${summaryKey}`, summaryNames),
      description: translate(locale, 'mail_confirmation.ics_description', { url, pin: pins[party] }),
      status: 'CONFIRMED',
      sequence: notice.sequence,
      url,
    },
    { mailFrom: notice.mailFrom, attendee: { name: reader.name, email: reader.email } },
  );
  return { to: reader.email, ...rendered, attachments: [attachment] };
}
