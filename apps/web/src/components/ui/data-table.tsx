import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

/**
 * A striped list table in a horizontal scroll container, named by `label` (`aria-label`): one header
 * row from `columns`, in which `false`/`undefined` entries (columns shown only sometimes) are skipped,
 * then `children` as the body rows.
 */
export function DataTable({
  label,
  columns,
  minWidth,
  maxHeight,
  highlightOnHover,
  stickyHeader,
  children,
}: {
  label: string;
  columns: readonly (string | false | undefined)[];
  minWidth: number;
  maxHeight?: number;
  highlightOnHover?: boolean;
  stickyHeader?: boolean;
  children?: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} maxHeight={maxHeight}>
      <Table striped highlightOnHover={highlightOnHover} stickyHeader={stickyHeader} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map(
              (column, index) => column !== false && column !== undefined && <Table.Th key={index}>{column}</Table.Th>,
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
