import type { Hold } from '@vetcall/shared/schemas/scheduling';
import { apiRequest } from '../../lib/api-client';

/** POST /api/scheduling/holds: holds a free slot for the actor (to book it, or to move an appointment to it). */
export function createHold(input: { vet_id: number; profile_id?: number; start: string }) {
  return apiRequest<Hold>('/api/scheduling/holds', { method: 'POST', body: input });
}

/** DELETE /api/scheduling/holds/{event_id}: gives one's own live hold back. */
export function releaseHold(eventId: string) {
  return apiRequest<void>(`/api/scheduling/holds/${encodeURIComponent(eventId)}`, { method: 'DELETE' });
}
