import { z } from 'zod';
import { storage } from '../../lib/storage';

/**
 * What the customer had filled in when they left for payment, kept in this tab's session storage so that a
 * canceled payment brings them back to the same form. Files are kept by name only: their bytes cannot be
 * kept, so the form asks for them again.
 */
const bookingDraftSchema = z.object({
  pet_id: z.number().int(),
  description: z.string(),
  date: z.string(),
  vet_user_id: z.number().int(),
  access_code: z.string(),
  /** The time chosen in the scheduler (UTC instant). */
  start: z.string(),
  file_names: z.array(z.string()),
});
export type BookingDraft = z.infer<typeof bookingDraftSchema>;

export function keepBookingDraft(draft: BookingDraft): void {
  storage.setBookingDraft(JSON.stringify(draft));
}

/** The kept draft; nothing when there is none or it cannot be read. */
export function keptBookingDraft(): BookingDraft | null {
  const raw = storage.getBookingDraft();
  if (!raw) return null;
  try {
    const parsed = bookingDraftSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function forgetBookingDraft(): void {
  storage.setBookingDraft(null);
}

/** The navigation state with which /customer shows the kept draft (back from a canceled payment). */
export const RESTORE_BOOKING_STATE = { restoreBooking: true } as const;

export function asksToRestoreBooking(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { restoreBooking?: unknown }).restoreBooking === true;
}
