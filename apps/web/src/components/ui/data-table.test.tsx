import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { initTestI18n, withProviders } from '../../test/render';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { CARDS_BELOW_PX, DataTable } from './data-table';

interface Pet {
  id: number;
  name: string;
  species: string;
}

const PETS: Pet[] = [
  { id: 1, name: 'Trovão', species: 'Dog' },
  { id: 2, name: 'Mia', species: 'Cat' },
];

function renderPets(onOpen = vi.fn()) {
  render(
    withProviders(
      <DataTable
        label="Pets"
        rows={PETS}
        rowKey={(pet) => pet.id}
        columns={[
          { header: 'Name', cell: (pet) => pet.name },
          false,
          { header: 'Species', cell: (pet) => pet.species },
          undefined,
        ]}
        actions={{
          header: 'Operations',
          cell: (pet) => (
            <Button size="xs" onClick={() => onOpen(pet)} aria-label={`Open ${pet.name}`}>
              Open
            </Button>
          ),
        }}
        onRowClick={onOpen}
        minWidth={600}
      />,
    ),
  );
  return onOpen;
}

describe('DataTable', () => {
  beforeAll(async () => {
    await initTestI18n();
  });

  it('on a wide screen, names the table and renders the given headers in order, the operations last', () => {
    renderPets();
    const table = screen.getByRole('table', { name: 'Pets' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Species', 'Operations']);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Trovão', 'Dog', 'Open']);
  });

  it(`below ${CARDS_BELOW_PX} px, shows a card per row: each field beside its header, and the row's actions`, () => {
    setViewportWidth(PHONE_WIDTH);
    renderPets();
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Pets' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [first] = cards;
    expect(
      within(first!)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Name', 'Species']);
    expect(
      within(first!)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['Trovão', 'Dog']);
    const actions = within(first!).getByRole('group', { name: 'Operations' });
    expect(within(actions).getByRole('button', { name: 'Open Trovão' })).toBeTruthy();
    expect(within(cards[1]!).getByRole('button', { name: 'Open Mia' })).toBeTruthy();
  });

  it('opens a row once whether its card or its button is clicked', async () => {
    setViewportWidth(PHONE_WIDTH);
    const onOpen = renderPets();
    await userEvent.click(screen.getByRole('button', { name: 'Open Mia' }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByText('Trovão'));
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenLastCalledWith(PETS[0]);
  });
});
