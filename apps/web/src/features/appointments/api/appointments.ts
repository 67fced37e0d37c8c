import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Locale } from '@vetcall/shared/locales';
import type {
  AppointmentDto,
  AppointmentFile,
  AppointmentPage,
  AppointmentUpdate,
  CancelAppointmentInput,
  MyAppointmentPage,
  MyAppointmentsWhen,
  RescheduleAppointmentInput,
  VetCustomer,
} from '@vetcall/shared/schemas/appointment';
import { NEXT_CURSOR_HEADER } from '@vetcall/shared/schemas/fields';
import { apiDownload, apiRequest, apiRequestWithHeaders } from '../../../lib/api-client';

/** Every appointment query starts with one of these, so a Save can refresh them all at once. */
export const APPOINTMENT_KEY = 'appointment';
export const APPOINTMENT_FILES_KEY = 'appointment-files';
export const APPOINTMENT_LISTS_KEY = 'appointments';

/** GET /api/appointments/byid/{id}: shaped by the server for the viewer's role (`viewer`). */
export function useAppointment(appointmentId: number | undefined, locale: Locale) {
  return useQuery({
    queryKey: [APPOINTMENT_KEY, appointmentId, locale],
    queryFn: () => apiRequest<AppointmentDto>(`/api/appointments/byid/${appointmentId}?lang=${locale}`),
    enabled: appointmentId !== undefined,
  });
}

/** PUT /api/appointments/{appointment_id}: a customer sends description, a vet vet_observations. */
export function updateAppointment(appointmentId: number, update: AppointmentUpdate) {
  return apiRequest<{ user_id: number }>(`/api/appointments/${appointmentId}`, { method: 'PUT', body: update });
}

/** GET /api/appointments/files/{appointment_id}. */
export function useAppointmentFiles(appointmentId: number | undefined) {
  return useQuery({
    queryKey: [APPOINTMENT_FILES_KEY, appointmentId],
    queryFn: () => apiRequest<AppointmentFile[]>(`/api/appointments/files/${appointmentId}`),
    enabled: appointmentId !== undefined,
  });
}

/** DELETE /api/appointments/file/{file_id}. */
export function deleteAppointmentFile(fileId: number) {
  return apiRequest<{ file_id: number }>(`/api/appointments/file/${fileId}`, { method: 'DELETE' });
}

/** PUT /api/appointments/newfileadded/{appointment_id}/{bywhom}/{language}: mails the other party. */
export function notifyFileAdded(appointmentId: number, byWhom: AppointmentDto['viewer'], locale: Locale) {
  return apiRequest<{ success: boolean }>(`/api/appointments/newfileadded/${appointmentId}/${byWhom}/${locale}`, {
    method: 'PUT',
  });
}

/** The file through the authenticated API (the bearer token in a header, never in the URL). */
export function downloadAppointmentFile(file: AppointmentFile) {
  return apiDownload(file.download_url, file.file_name);
}

function pagedAppointments(path: string, query: URLSearchParams) {
  return ({ pageParam }: { pageParam: string | null }) => {
    const page = new URLSearchParams(query);
    if (pageParam) page.set('cursor', pageParam);
    return apiRequest<AppointmentPage>(`${path}?${page.toString()}`);
  };
}

/** GET /api/appointments/mngrecord/{from}_{to}_{vet|all}?cursor&lang&tz: the manager's list, page by page. */
export function useManagerAppointments(param: string | null, locale: Locale, timeZone: string) {
  return useInfiniteQuery({
    queryKey: [APPOINTMENT_LISTS_KEY, 'manager', param, locale, timeZone],
    queryFn: pagedAppointments(
      `/api/appointments/mngrecord/${param}`,
      new URLSearchParams({ lang: locale, tz: timeZone }),
    ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: param !== null,
  });
}

/** GET /api/vets/appointments/{vet_id}?from&to&cursor&lang&tz: the vet's own appointments, page by page. */
export function useVetAppointments(
  vetId: number,
  range: { from: string; to: string } | null,
  locale: Locale,
  timeZone: string,
) {
  return useInfiniteQuery({
    queryKey: [APPOINTMENT_LISTS_KEY, 'vet', vetId, range?.from, range?.to, locale, timeZone],
    queryFn: pagedAppointments(
      `/api/vets/appointments/${vetId}`,
      new URLSearchParams({ from: range?.from ?? '', to: range?.to ?? '', lang: locale, tz: timeZone }),
    ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: range !== null,
  });
}

/** One page of a vet's customers: the answer is a bare array; the next page's cursor comes in a header. */
export interface VetCustomerPage {
  customers: VetCustomer[];
  nextCursor: string | null;
}

/** GET /api/vets/customers/{vet_id}?cursor: the customers with appointments with this vet, page by page. */
export function useVetCustomers(vetId: number) {
  return useInfiniteQuery({
    queryKey: ['vet-customers', vetId],
    queryFn: async ({ pageParam }: { pageParam: string | null }): Promise<VetCustomerPage> => {
      const query = pageParam ? `?${new URLSearchParams({ cursor: pageParam }).toString()}` : '';
      const { data, headers } = await apiRequestWithHeaders<VetCustomer[]>(`/api/vets/customers/${vetId}${query}`);
      return { customers: data, nextCursor: headers.get(NEXT_CURSOR_HEADER) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** GET /api/appointments/mine?when&cursor&lang: the customer's own appointments, page by page. */
export function useMyAppointments(when: MyAppointmentsWhen, locale: Locale) {
  return useInfiniteQuery({
    queryKey: [APPOINTMENT_LISTS_KEY, 'mine', when, locale],
    queryFn: ({ pageParam }: { pageParam: string | null }) => {
      const query = new URLSearchParams({ when, lang: locale });
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest<MyAppointmentPage>(`/api/appointments/mine?${query.toString()}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** POST /api/appointments/{appointment_id}/cancel: answers the appointment, now TK_Canceled. */
export function cancelAppointment(appointmentId: number, input: CancelAppointmentInput, locale: Locale) {
  return apiRequest<AppointmentDto>(`/api/appointments/${appointmentId}/cancel?lang=${locale}`, {
    method: 'POST',
    body: input,
  });
}

/** POST /api/appointments/{appointment_id}/reschedule: to the time the actor holds; answers the appointment. */
export function rescheduleAppointment(appointmentId: number, input: RescheduleAppointmentInput, locale: Locale) {
  return apiRequest<AppointmentDto>(`/api/appointments/${appointmentId}/reschedule?lang=${locale}`, {
    method: 'POST',
    body: input,
  });
}

/** POST /api/appointments/{appointment_id}/complete: the vet marks it done; answers it, now TK_Completed. */
export function completeAppointment(appointmentId: number, locale: Locale) {
  return apiRequest<AppointmentDto>(`/api/appointments/${appointmentId}/complete?lang=${locale}`, { method: 'POST' });
}
