import ICAL from 'ical.js';
import type { ReceivedMail } from './smtp-test-server.ts';

/** The appointment.ics a mail carries, parsed by ical.js (a maintained iCalendar reader); null when none. */
export function invitationOf(mail: ReceivedMail) {
  const attachment = mail.attachments.find((part) => part.filename === 'appointment.ics');
  if (!attachment) return null;
  const text =
    typeof attachment.content === 'string' ? attachment.content : new TextDecoder().decode(attachment.content);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    status: event.getFirstPropertyValue('status'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: String(event.getFirstPropertyValue('dtstart')),
    organizer: String(event.getFirstPropertyValue('organizer')),
    attendee: String(event.getFirstPropertyValue('attendee')),
  };
}
