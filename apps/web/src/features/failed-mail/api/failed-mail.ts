import { useInfiniteQuery } from '@tanstack/react-query';
import type { FailedMailPage } from '@vetcall/shared/schemas/failed-mail';
import { apiRequest } from '../../../lib/api-client';

export const failedMailQueryKey = ['failed-mail'] as const;

/** GET /api/mail/failed?cursor (managers): the mail the server gave up on, newest failure first, page by page. */
export function useFailedMail() {
  return useInfiniteQuery({
    queryKey: failedMailQueryKey,
    queryFn: ({ pageParam }: { pageParam: string | null }) =>
      apiRequest<FailedMailPage>(
        pageParam ? `/api/mail/failed?${new URLSearchParams({ cursor: pageParam }).toString()}` : '/api/mail/failed',
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** POST /api/mail/failed/{id}/retry (managers): queued again now; 404 when it is no longer failed. */
export function retryFailedMail(id: number): Promise<void> {
  return apiRequest(`/api/mail/failed/${id}/retry`, { method: 'POST' });
}

/** DELETE /api/mail/failed/{id} (managers): deleted, never sent; 404 when it is no longer failed. */
export function dismissFailedMail(id: number): Promise<void> {
  return apiRequest(`/api/mail/failed/${id}`, { method: 'DELETE' });
}
