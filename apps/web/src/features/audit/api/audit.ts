import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '@vetcall/shared/schemas/audit';
import { apiDownload, apiRequest } from '../../../lib/api-client';

/** The filters of the audit log, as the form holds them: empty strings are "any". */
export interface AuditFilterValues {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The query string of the filters that are set (docs/audit-log.md). */
export function auditSearch(filters: AuditFilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (value.trim() !== '') params.set(key, value.trim());
  }
  return params.toString();
}

/** GET /api/audit?actor&action&from&to&cursor (managers): newest first, page by page. */
export function useAuditLog(filters: AuditFilterValues, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }: { pageParam: string | null }) =>
      apiRequest<AuditPage>(`/api/audit?${auditSearch(filters, pageParam ? { cursor: pageParam } : {})}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // A new filter keeps the rows on screen until its own arrive, instead of flashing a loader.
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/audit/export (managers): the same filters as a .xlsx download, in the given language. */
export function downloadAuditLog(filters: AuditFilterValues, lang: string): Promise<void> {
  return apiDownload(`/api/audit/export?${auditSearch(filters, { lang })}`, 'audit-log.xlsx');
}
