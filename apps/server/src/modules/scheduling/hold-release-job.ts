import { and, eq, isNull, lte, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { calendarEvents } from '../../db/schema.ts';
import { transitionAppointment } from '../../db/appointment-transition.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;

/**
 * Gives back the time of the unreleased holds that match `condition` (one UPDATE), and moves each
 * appointment still waiting for its payment on one of them to TK_PaymentFailed: a payment that never
 * completes leaves no appointment holding the slot (docs/appointment-lifecycle.md). Run it inside a
 * transaction so that both happen or neither; answers how many holds were released.
 */
export async function releaseHoldsWhere(
  tx: Pick<Database, 'update' | 'insert'>,
  condition: SQL | undefined,
  now: Date,
): Promise<number> {
  const released = await tx
    .update(calendarEvents)
    .set({ releasedAt: now })
    .where(and(eq(calendarEvents.kind, 'hold'), isNull(calendarEvents.releasedAt), condition))
    .returning({ id: calendarEvents.id, appointmentId: calendarEvents.appointmentId });
  for (const { appointmentId } of released) {
    // Only from TK_PendingPayment: a paid appointment's hold has become a booking and is not released here.
    if (appointmentId !== null) await transitionAppointment(tx, appointmentId, 'TK_PaymentFailed', now, null);
  }
  return released.length;
}

/**
 * Releases every hold whose expiry has passed, failing the appointments that were waiting on them, in
 * one transaction; answers how many holds. The slot engine already ignores expired holds
 * (busy-ranges.ts) and a new hold releases those in its way; this marks the time as given back and ends
 * abandoned payments.
 */
export async function releaseExpiredHolds(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  return deps.db.transaction((tx) => releaseHoldsWhere(tx, lte(calendarEvents.expiresAt, now), now));
}

/** The job kind that releases expired holds, queued once a minute across instances by the job worker. */
export const HOLD_RELEASE_JOB = 'holds-release';
export const HOLD_RELEASE_EVERY_MS = 60_000;
