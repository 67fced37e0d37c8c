import { Button, Group } from '@mantine/core';

/** The page query of a keyset-paginated list, as far as its "load more" button needs it. */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** "Load more" under a paged list: shown only while more pages follow, busy while the next one loads. */
export function LoadMoreButton({ query, label }: { query: PagedQuery; label: string }) {
  if (!query.hasNextPage) return null;
  return (
    <Group justify="center">
      <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
        {label}
      </Button>
    </Group>
  );
}
