import { useQuery } from '@tanstack/react-query';
import type { Locale } from '@vetcall/shared/locales';
import type {
  CalDavChoicesBody,
  CalDavLinkBody,
  CalDavLinkResponse,
  CalendarSyncStatus,
} from '@vetcall/shared/schemas/calendar-link';
import { apiRequest } from '../../../lib/api-client';

/**
 * docs/product-rules.md#states Calendar linking and #api External calendar authorisation, and the vet's private ICS
 * feed. `vetId` is the vet id (not the user id), as in every /api/vets route.
 */

/** GET /api/vets/calendar/authorize/{vet_id}: where the browser goes to link a calendar. */
export function fetchAuthorizeUrl(vetId: number, locale: Locale) {
  return apiRequest<{ url: string }>(`/api/vets/calendar/authorize/${vetId}?lang=${locale}&access=vet`);
}

/** POST /api/vets/calendar/builtin/grant/{vet_id}: a one-time token of the built-in calendar. */
export function grantBuiltinCalendar(vetId: number) {
  return apiRequest<{ token: string }>(`/api/vets/calendar/builtin/grant/${vetId}`, { method: 'POST' });
}

/**
 * PUT /api/vets/token/{vet_id} (docs/product-rules.md#api): stores the calendar account token the provider returned.
 */
export function storeCalendarToken(vetId: number, accountToken: string) {
  return apiRequest<{ vet_id: number; calendar_linked: boolean }>(`/api/vets/token/${vetId}`, {
    method: 'PUT',
    body: { vet_id: vetId, account_token: accountToken },
  });
}

/** PUT /api/vets/removecalendarassociation/{vet_id} (docs/product-rules.md#api). */
export function removeCalendarAssociation(vetId: number) {
  return apiRequest<{ vet_id: number; calendar_linked: boolean }>(`/api/vets/removecalendarassociation/${vetId}`, {
    method: 'PUT',
  });
}

export const icsFeedQueryKey = (vetId: number) => ['ics-feed', vetId] as const;

export function useIcsFeedStatus(vetId: number) {
  return useQuery({
    queryKey: icsFeedQueryKey(vetId),
    queryFn: () => apiRequest<{ enabled: boolean }>(`/api/vets/icsfeed/${vetId}`),
  });
}

/** POST: a new secret subscription URL (the previous one stops working). Shown once. */
export function createIcsFeed(vetId: number) {
  return apiRequest<{ url: string }>(`/api/vets/icsfeed/${vetId}`, { method: 'POST' });
}

export function deleteIcsFeed(vetId: number) {
  return apiRequest<{ enabled: boolean }>(`/api/vets/icsfeed/${vetId}`, { method: 'DELETE' });
}

/** The vet's own calendar (ADR 019): GET /api/vets/{vet_id}/calendar. Never the password. */
export const calendarSyncQueryKey = (vetId: number) => ['calendar-sync', vetId] as const;

export function useCalendarSyncStatus(vetId: number) {
  return useQuery({
    queryKey: calendarSyncQueryKey(vetId),
    queryFn: () => apiRequest<CalendarSyncStatus>(`/api/vets/${vetId}/calendar`),
  });
}

/** PUT /api/vets/{vet_id}/calendar/caldav: the server checks the credentials before it saves them. */
export function linkCalDav(vetId: number, body: CalDavLinkBody) {
  return apiRequest<CalDavLinkResponse>(`/api/vets/${vetId}/calendar/caldav`, { method: 'PUT', body });
}

/** PUT /api/vets/{vet_id}/calendar/caldav/choices: busy and target calendars of the linked account. */
export function chooseCalDavCalendars(vetId: number, body: CalDavChoicesBody) {
  return apiRequest<CalendarSyncStatus>(`/api/vets/${vetId}/calendar/caldav/choices`, { method: 'PUT', body });
}

/** POST /api/vets/{vet_id}/calendar/refresh: read the busy times now. */
export function refreshCalendar(vetId: number) {
  return apiRequest<CalendarSyncStatus>(`/api/vets/${vetId}/calendar/refresh`, { method: 'POST' });
}
