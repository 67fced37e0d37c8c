import { Fragment, type Key, type ReactNode } from 'react';
import { Box, Group, Paper, Stack, Table, type TableTdProps, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** Below this width a list shows as cards: a table's last columns, its operations, would sit off-screen. */
export const CARDS_BELOW_PX = 600;
const NARROW_QUERY = `(max-width: ${CARDS_BELOW_PX - 0.02}px)`;

/** A card's fields: each header beside its value, so a card stays short and a wide value (a form) has room. */
const CARD_FIELDS = {
  display: 'grid',
  gridTemplateColumns: 'minmax(5rem, 35%) 1fr',
  gap: '0.375rem var(--mantine-spacing-sm)',
  alignItems: 'baseline',
} as const;

export interface DataColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The table cell's props (weight, font, wrapping); cards show the value plainly. */
  td?: TableTdProps;
}

/** Whether lists show as cards (a phone's width). */
export function useCardLayout(): boolean {
  return useMediaQuery(NARROW_QUERY, false, { getInitialValueInEffect: false });
}

/**
 * A list of rows, named by `label`: a striped table in a horizontal scroll container, one column per entry of
 * `columns` (`false`/`undefined` entries, columns shown only sometimes, are skipped) and the row's `actions`
 * last; below 600 px, a card per row with each field beside its header and the actions underneath, all on
 * screen. `maxHeight` makes either a scroll region of its own.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  actions,
  onRowClick,
  minWidth,
  maxHeight,
  scrollRegion,
  highlightOnHover,
  stickyHeader,
}: {
  label: string;
  columns: readonly (DataColumn<Row> | false | undefined)[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** The operations column: its header and the row's buttons or links. */
  actions?: { header: string; cell: (row: Row) => ReactNode };
  /** A click anywhere on the row; keyboard users need a button among the actions doing the same. */
  onRowClick?: (row: Row) => void;
  minWidth: number;
  maxHeight?: number;
  /** With `maxHeight`: the scroll container is a region of this name, reachable by keyboard for scrolling. */
  scrollRegion?: string;
  highlightOnHover?: boolean;
  stickyHeader?: boolean;
}) {
  const cards = useCardLayout();
  const region = scrollRegion ? { role: 'region', 'aria-label': scrollRegion, tabIndex: 0 } : undefined;
  const shown = columns.filter((column): column is DataColumn<Row> => Boolean(column));
  const rowProps = (row: Row) =>
    onRowClick ? { onClick: () => onRowClick(row), style: { cursor: 'pointer' } } : undefined;
  // The buttons stop the row's click, so one click is one action.
  const actionsOf = (row: Row, wrap: 'wrap' | 'nowrap') =>
    actions && (
      <Group gap="xs" wrap={wrap} onClick={onRowClick && ((event) => event.stopPropagation())}>
        {actions.cell(row)}
      </Group>
    );

  if (cards) {
    const list = (
      <Stack component="ul" aria-label={label} gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {rows.map((row) => (
          <Paper component="li" key={rowKey(row)} withBorder p="sm" {...rowProps(row)}>
            <Box component="dl" m={0} style={CARD_FIELDS}>
              {shown.map((column) => (
                <Fragment key={column.header}>
                  <Text component="dt" size="xs" c="dimmed" fw={600}>
                    {column.header}
                  </Text>
                  <Text component="dd" m={0} size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {column.cell(row)}
                  </Text>
                </Fragment>
              ))}
            </Box>
            {actions && (
              <Box mt="sm" role="group" aria-label={actions.header}>
                {actionsOf(row, 'wrap')}
              </Box>
            )}
          </Paper>
        ))}
      </Stack>
    );
    if (!maxHeight) return list;
    return (
      <Box mah={maxHeight} style={{ overflow: 'auto' }} tabIndex={0} {...region}>
        {list}
      </Box>
    );
  }

  return (
    <Table.ScrollContainer minWidth={minWidth} maxHeight={maxHeight} {...(region && { type: 'native', ...region })}>
      <Table striped highlightOnHover={highlightOnHover} stickyHeader={stickyHeader} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {shown.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
            {actions && <Table.Th>{actions.header}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps(row)}>
              {shown.map((column) => (
                <Table.Td key={column.header} {...column.td}>
                  {column.cell(row)}
                </Table.Td>
              ))}
              {actions && <Table.Td>{actionsOf(row, 'nowrap')}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
