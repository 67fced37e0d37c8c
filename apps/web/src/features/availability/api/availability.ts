import { useQuery } from '@tanstack/react-query';
import type { AvailabilityProfile } from '@vetcall/shared/schemas/availability';
import type { BookedTimeDto, FreeSlotDto, VetAvailability } from '@vetcall/shared/schemas/scheduling';
import { apiRequest } from '../../../lib/api-client';
import { REFETCH_ON_RETURN } from '../../../lib/fresh-lists';

export interface CalendarProfileSummary {
  id: number;
  name: string;
}

export interface TimeLimit {
  time_limit_id: number;
  time_limit: string;
}

export const calendarProfilesQueryKey = (vetId: number) => ['availability', 'profiles', vetId] as const;
export const availabilityProfileQueryKey = (vetId: number, profileId: number) =>
  ['availability', 'profile', vetId, profileId] as const;

/** GET /api/vets/calendarprofiles/{vet_id}: the vet's availability profiles (id and name). */
export function fetchCalendarProfiles(vetId: number) {
  return apiRequest<CalendarProfileSummary[]>(`/api/vets/calendarprofiles/${vetId}`);
}

/** GET /api/vets/availability/{vet_id}/{profile_id}: one whole profile. */
export function fetchAvailabilityProfile(vetId: number, profileId: number) {
  return apiRequest<AvailabilityProfile>(`/api/vets/availability/${vetId}/${profileId}`);
}

/** PATCH /api/vets/availability/{vet_id}/{profile_id}: replaces the profile (everything but its id). */
export function updateAvailabilityProfile(vetId: number, profile: AvailabilityProfile) {
  const { id, ...body } = profile;
  return apiRequest<AvailabilityProfile>(`/api/vets/availability/${vetId}/${id}`, { method: 'PATCH', body });
}

/** GET /api/vets/time-limits: the selectable times of working intervals. */
export function fetchTimeLimits() {
  return apiRequest<TimeLimit[]>('/api/vets/time-limits');
}

export function useCalendarProfiles(vetId: number) {
  return useQuery({ queryKey: calendarProfilesQueryKey(vetId), queryFn: () => fetchCalendarProfiles(vetId) });
}

export function useAvailabilityProfile(vetId: number, profileId: number | undefined) {
  return useQuery({
    queryKey: availabilityProfileQueryKey(vetId, profileId ?? 0),
    queryFn: () => fetchAvailabilityProfile(vetId, profileId!),
    enabled: profileId !== undefined,
  });
}

export function useTimeLimits() {
  return useQuery({ queryKey: ['availability', 'time-limits'], queryFn: fetchTimeLimits, staleTime: Infinity });
}

export const allAvailabilitiesQueryKey = ['availability', 'all'] as const;

/** GET /api/vets/all_availabilities (managers): every active vet with their first profile. */
export function useAllAvailabilities() {
  return useQuery({
    queryKey: allAvailabilitiesQueryKey,
    queryFn: () => apiRequest<VetAvailability[]>('/api/vets/all_availabilities'),
  });
}

export interface DateRange {
  from: string;
  to: string;
  /** The zone the dates are taken in and the labels written in. */
  tz: string;
}

function rangeQuery(range: DateRange, extra: Record<string, string> = {}) {
  return new URLSearchParams({ from: range.from, to: range.to, tz: range.tz, ...extra }).toString();
}

/** GET /api/vets/{vet_id}/slots: free slots starting on the dates of the range (none when `range` is null). */
export function useFreeSlots(vetId: number, range: DateRange | null, profileId?: number) {
  return useQuery({
    queryKey: ['availability', 'slots', vetId, profileId ?? 0, range],
    queryFn: () =>
      apiRequest<FreeSlotDto[]>(
        `/api/vets/${vetId}/slots?${rangeQuery(range!, profileId ? { profile_id: String(profileId) } : {})}`,
      ),
    enabled: range !== null,
    ...REFETCH_ON_RETURN,
  });
}

/** GET /api/vets/{vet_id}/bookedtimes (the vet and managers): bookings and holds starting in the range. */
export function useBookedTimes(vetId: number, range: DateRange | null) {
  return useQuery({
    queryKey: ['availability', 'booked', vetId, range],
    queryFn: () => apiRequest<BookedTimeDto[]>(`/api/vets/${vetId}/bookedtimes?${rangeQuery(range!)}`),
    enabled: range !== null,
  });
}
