import type { AppointmentInfo, ConfirmAppointmentInput } from '@vetcall/shared/schemas/booking';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/appointments/info/{hash} (no auth): what the confirmation page shows; nothing private. */
export function fetchAppointmentInfo(hash: string, signal?: AbortSignal) {
  return apiRequest<AppointmentInfo>(`/api/appointments/info/${encodeURIComponent(hash)}`, { auth: false, signal });
}

/**
 * POST /api/appointments/confirm/{hash} (docs/product-rules.md#api): the appointment PIN; confirming again answers the
 * same one.
 */
export function confirmAppointment(input: ConfirmAppointmentInput) {
  return apiRequest<{ appointment_pin: string }>(`/api/appointments/confirm/${encodeURIComponent(input.hash)}`, {
    method: 'POST',
    body: input,
    auth: false,
  });
}
