import { PROCESSED_CALENDAR_EVENT_TTL_MS } from '@vetcall/shared/constants';

/**
 * docs/product-rules.md#states Booking flow / #limits: a calendar event id is handled once in 10 minutes, however many
 * times the scheduler posts it (double clicks, reloads of the frame).
 */
const handled = new Map<string, number>();

/** True the first time an event id is seen within the window (and remembers it); false afterwards. */
export function claimSchedulerEvent(eventId: string, now: number = Date.now()): boolean {
  for (const [id, at] of handled) if (now - at >= PROCESSED_CALENDAR_EVENT_TTL_MS) handled.delete(id);
  if (handled.has(eventId)) return false;
  handled.set(eventId, now);
  return true;
}

/** For tests. */
export function forgetSchedulerEvents(): void {
  handled.clear();
}
