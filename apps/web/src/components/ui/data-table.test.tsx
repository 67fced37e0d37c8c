import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { Table } from '@mantine/core';
import { withProviders } from '../../test/render';
import { DataTable } from './data-table';

describe('DataTable', () => {
  it('names the table and renders the given headers in order, skipping the conditional ones left out', () => {
    render(
      withProviders(
        <DataTable label="Pets" columns={['Name', false, 'Species', undefined, 'Operations']} minWidth={600}>
          <Table.Tr>
            <Table.Td>Trovão</Table.Td>
            <Table.Td>Dog</Table.Td>
            <Table.Td>—</Table.Td>
          </Table.Tr>
        </DataTable>,
      ),
    );
    const table = screen.getByRole('table', { name: 'Pets' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Species', 'Operations']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Trovão', 'Dog', '—']);
  });
});
