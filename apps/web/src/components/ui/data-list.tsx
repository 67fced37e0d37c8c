import type { ReactNode } from 'react';
import { SimpleGrid, type SimpleGridProps, Text } from '@mantine/core';

/** Read-only label/value pairs as a definition list, in a responsive grid. */
export function DataList({
  items,
  cols = { base: 1, sm: 2, md: 3 },
}: {
  items: [string, ReactNode][];
  cols?: SimpleGridProps['cols'];
}) {
  return (
    <SimpleGrid cols={cols} spacing="md" component="dl" m={0}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed" fw={600}>
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
