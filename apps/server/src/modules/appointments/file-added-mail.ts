import type { Locale } from '@vetcall/shared/locales';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../errors.ts';
import { translate } from '../../i18n.ts';
import { assertAllowed, type RateRule } from '../../plugins/rate-limiter.ts';
import { type RenderedEmail, renderEmail } from '../../providers/mail/templates.ts';
import type { Actor } from '../auth/auth.service.ts';
import { formatAppointmentTime } from '../../lib/appointment-time.ts';
import type { AppointmentViewer } from '@vetcall/shared/appointment-rules';
import { canNotifyFileAdded } from './appointment.policy.ts';
import { loadVisibleAppointment } from './records.service.ts';
import { loadRequestDetails, type RequestDetails } from './request-emails.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'limiter' | 'secrets' | 'jobs'>;
type Party = 'customer' | 'vet';

/** One Save sends one notice; this leaves room for retries and stops anyone mailing the other party in a loop. */
export const FILE_ADDED_RATE: RateRule = { limit: 10, windowMs: 60 * 60 * 1000 };

/** Who hears of a new file: the other party; both when a manager added it. */
export const RECIPIENTS: Record<AppointmentViewer, readonly Party[]> = {
  customer: ['vet'],
  vet: ['customer'],
  manager: ['customer', 'vet'],
};

/**
 * Where each recipient finds the appointment in the app (docs/product-rules.md#customer-data customer data,
 * #vet-screens vet mode).
 */
const SCREEN_OF: Record<Party, string> = { customer: '/customerdata', vet: '/vet' };

/** 'A file was added' for one party: in their own language, the time in their zone, a link to the app. */
export function renderFileAddedEmail(
  details: RequestDetails,
  recipient: Party,
  input: { byName: string; publicUrl: string },
): RenderedEmail {
  const person = details[recipient];
  const locale: Locale = person.locale;
  const t = (key: string, values: Record<string, string> = {}) => translate(locale, `mail_files.${key}`, values);
  const zone = recipient === 'customer' ? details.customerZone : { timeZone: details.vet.timezone };
  const time = formatAppointmentTime(details.schedule, locale, zone);
  return renderEmail(locale, {
    subject: t('subject', { pet_name: details.pet.name }),
    name: person.name,
    paragraphs: [t('body', { by_name: input.byName, pet_name: details.pet.name }), t('time', { time })],
    action: { label: t('action'), url: `${input.publicUrl}${SCREEN_OF[recipient]}?lang=${encodeURIComponent(locale)}` },
    footer: t('footer'),
  });
}

/**
 * PUT /api/appointments/newfileadded/{appointment_id}/{bywhom}/{language}: tells the other party (both, for
 * a manager) that a file was added. `bywhom` must be the actor's own part in the appointment (403
 * otherwise; 404 when the appointment is not theirs). Each mail is in its recipient's language; `language`
 * (the sender's) does not choose it. Rate-limited per sender and appointment (FILE_ADDED_RATE). The mails
 * are queued and sent by the job worker, retried while the mail server is away.
 */
export async function notifyFileAdded(
  deps: Deps,
  actor: Actor,
  appointmentId: number,
  byWhom: AppointmentViewer,
): Promise<{ success: true }> {
  const { appointment } = await loadVisibleAppointment(deps.db, actor, appointmentId);
  if (!canNotifyFileAdded(actor, appointment, byWhom)) throw forbidden();
  assertAllowed(await deps.limiter.hit(`file-added:${appointmentId}:${actor.userId}`, FILE_ADDED_RATE));
  const details = await loadRequestDetails(deps.db, appointmentId);
  if (!details) throw new AppError('error_notifying_file_added', 409);
  const now = deps.clock.now();
  await queueMail(
    deps.db,
    { secrets: deps.secrets, now },
    RECIPIENTS[byWhom].map((recipient) => ({
      to: details[recipient].email,
      ...renderFileAddedEmail(details, recipient, { byName: actor.name, publicUrl: deps.config.publicUrl }),
    })),
  );
  deps.jobs.kick();
  return { success: true };
}
