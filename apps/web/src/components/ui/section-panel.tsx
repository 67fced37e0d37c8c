import type { ReactNode } from 'react';
import { Group, type GroupProps, Paper, Text, Title } from '@mantine/core';

/**
 * A bordered section of a page named by its h2 heading (`aria-labelledby`): an optional `aside` beside
 * the heading (a button, a badge) and an optional dimmed `description` under it, then the content.
 */
export function SectionPanel({
  headingId,
  title,
  description,
  aside,
  asideAlign,
  children,
}: {
  headingId: string;
  title: ReactNode;
  description?: ReactNode;
  /** When given (even as `false`), the heading stands in a row with it. */
  aside?: ReactNode;
  asideAlign?: GroupProps['align'];
  children?: ReactNode;
}) {
  const headingGap = description === undefined ? 'md' : 'xs';
  const heading = (
    <Title order={2} size="h3" id={headingId} mb={aside === undefined ? headingGap : undefined}>
      {title}
    </Title>
  );
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
      {aside === undefined ? (
        heading
      ) : (
        <Group justify="space-between" align={asideAlign} mb={headingGap}>
          {heading}
          {aside}
        </Group>
      )}
      {description !== undefined && (
        <Text size="sm" c="dimmed" mb="md">
          {description}
        </Text>
      )}
      {children}
    </Paper>
  );
}
