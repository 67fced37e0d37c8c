import type { Locale } from '@vetcall/shared/locales';
import { formatAppointmentTime } from '../../lib/appointment-time.ts';
import { translate } from '../../i18n.ts';
import type { MailMessage } from '../../providers/mail/mailer.ts';
import { renderEmail } from '../../providers/mail/templates.ts';
import { appointmentEventUid } from '../ics-feed/ics-calendar.ts';
import { invitationAttachment } from './invitation-attachment.ts';
import { formatPrice, myAppointmentsUrl, type RequestDetails } from './request-emails.ts';

export interface CancellationNotice {
  details: RequestDetails;
  appointmentId: number;
  end: Date;
  sequence: number;
  cancelledAt: Date;
  byName: string;
  reason: string | null;
  /** A reason of VetCall's own (mail_cancellation.<key>), told in each reader's language. */
  reasonKey?: string;
  refunded: boolean;
  publicUrl: string;
  mailFrom: string;
}

/**
 * The 'appointment cancelled' mail of one party, in their language and zone, with an .ics CANCEL of the
 * event their invitation created (same UID, a higher SEQUENCE), so their calendar removes it.
 */
export function buildCancellationMail(notice: CancellationNotice, party: 'customer' | 'vet'): MailMessage {
  const { details } = notice;
  const reader = details[party];
  const locale: Locale = reader.locale;
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_cancellation.${key}`, values);
  const zone = party === 'customer' ? details.customerZone : { timeZone: details.vet.timezone };
  const when = formatAppointmentTime(details.schedule, locale, zone);
  const names = { pet_name: details.pet.name, vet_name: details.vet.name, when, by_name: notice.byName };
  const paid = details.priceCents > 0;
  const money = !paid
    ? []
    : party === 'customer'
      ? [notice.refunded ? t('refunded', { price: formatPrice(locale, details.priceCents) }) : t('not_refunded')]
      : [];
  const link =
    party === 'customer'
      ? myAppointmentsUrl(notice.publicUrl, locale)
      : `${notice.publicUrl}/vet?lang=${encodeURIComponent(locale)}`;
  const rendered = renderEmail(locale, {
    subject: t('subject', names),
    name: reader.name,
    paragraphs: [
      t('body', names),
      ...(notice.reason ? [t('reason', { reason: notice.reason })] : []),
      ...(notice.reasonKey ? [t(notice.reasonKey)] : []),
      ...money,
    ],
    action: { label: t('action'), url: link },
  });
  const attachment = invitationAttachment(
    'CANCEL',
    {
      uid: appointmentEventUid(notice.appointmentId, notice.publicUrl),
      dtstamp: notice.cancelledAt,
      start: details.schedule,
      end: notice.end,
      summary: t('ics_summary', names),
      status: 'CANCELLED',
      sequence: notice.sequence,
    },
    { mailFrom: notice.mailFrom, attendee: { name: reader.name, email: reader.email } },
  );
  return {
    to: reader.email,
    ...rendered,
    attachments: [attachment],
  };
}
