import { and, eq, isNull, lte } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { calendarEvents } from '../../db/schema.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;

/**
 * Releases every hold whose expiry has passed (one UPDATE) and answers how many. The slot engine already
 * ignores them (busy-ranges.ts) and a new hold releases those in its way; this keeps the table tidy and
 * marks the time as given back.
 */
export async function releaseExpiredHolds(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const released = await deps.db
    .update(calendarEvents)
    .set({ releasedAt: now })
    .where(and(eq(calendarEvents.kind, 'hold'), isNull(calendarEvents.releasedAt), lte(calendarEvents.expiresAt, now)))
    .returning({ id: calendarEvents.id });
  return released.length;
}

/**
 * Runs releaseExpiredHolds every `intervalMs` (a run still going skips the next tick) without keeping the
 * process alive; answers the function that stops it. Failures go to `onError` and the job keeps running.
 */
export function startHoldReleaseJob(
  deps: Deps,
  intervalMs = 60_000,
  onError: (error: unknown) => void = () => undefined,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    releaseExpiredHolds(deps)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
