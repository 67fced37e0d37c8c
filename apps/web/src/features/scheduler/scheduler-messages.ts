/**
 * docs/product-rules.md#api "Embedded scheduling calendar": what the scheduler page posts to the page that embeds it.
 * Messages go to our own origin only; a parent on another origin never receives them.
 */
export type SchedulerMessage =
  { status: 'success'; eventId: string; startTime: string } | { status: 'error'; reason: string };

/** Posts to the embedding window (none when the page was opened on its own). */
export function postToParent(message: SchedulerMessage, target: Window = window.parent): void {
  if (target === window) return;
  target.postMessage(message, window.location.origin);
}

/** Whether a message event is a scheduler message from our own origin (for the embedding page). */
export function isSchedulerMessage(event: MessageEvent): event is MessageEvent<SchedulerMessage> {
  if (event.origin !== window.location.origin) return false;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  if (message.status === 'success') {
    return typeof message.eventId === 'string' && typeof message.startTime === 'string';
  }
  return message.status === 'error' && typeof message.reason === 'string';
}
