import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import pt from '@vetcall/shared/i18n/pt.json';
import { loadTestClientConfig } from '../../../test/client-config';
import { initTestI18n, withProviders } from '../../../test/render';
import type { DraftPet } from '../draft-pet';
import { PetsTable } from './pets-table';

const pets: DraftPet[] = [
  {
    pet_id: 11,
    pet_pos: 0,
    name: 'Trovão',
    species: 'Dog',
    breed_id: 3,
    breed: '',
    breed_label: 'Labrador Retriever',
    gender: 'M',
    birth: '2020-01-15',
    fertile_status: 'neutered',
    weight: 31.4,
    policy: 'ABC12345',
  },
  {
    pet_id: 12,
    pet_pos: 1,
    name: 'Nuvem',
    species: 'Rabbit',
    breed_id: null,
    breed: '',
    breed_label: '',
    gender: 'F',
    birth: '2026-05-01',
    fertile_status: 'neutered',
    weight: 1.8,
    policy: null,
  },
];

function renderTable(editing: boolean) {
  const handlers = { onEdit: vi.fn(), onDelete: vi.fn(), onRecord: vi.fn() };
  render(withProviders(<PetsTable pets={pets} editing={editing} {...handlers} />));
  const rows = within(screen.getByRole('table')).getAllByRole('row');
  return { handlers, rows };
}

describe('PetsTable', () => {
  beforeAll(async () => {
    await initTestI18n();
    i18next.addResourceBundle('pt', 'translation', pt);
  });
  beforeEach(async () => {
    // Ages are counted to today.
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z'), toFake: ['Date'] });
    await loadTestClientConfig();
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await i18next.changeLanguage('en');
  });

  it('shows each pet with its age, worded fertile status and weight; Record outside editing', async () => {
    const { handlers, rows } = renderTable(false);
    expect(screen.getByRole('table', { name: 'Your pets' })).toBe(rows[0]!.closest('table'));
    expect(rows.map((row) => row.textContent)).toEqual([
      'NameSpeciesBreedGenderBirth dateAgeFertile statusWeightOperations',
      'TrovãoDogLabrador RetrieverMaleJan 15, 20206 years and 10 monthsNeutered31.4 kgRecord',
      'NuvemRabbit—FemaleMay 1, 20266 monthsSpayed1.8 kgRecord',
    ]);
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Record of Nuvem' }));
    expect(handlers.onRecord).toHaveBeenCalledWith(pets[1]);
  });

  it('offers Edit and Delete per pet while editing, and no Record', async () => {
    const { handlers } = renderTable(true);
    expect(screen.queryByRole('button', { name: /^Record/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Trovão' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Nuvem' }));
    expect(handlers.onEdit).toHaveBeenCalledWith(pets[0]);
    expect(handlers.onDelete).toHaveBeenCalledWith(pets[1]);
  });

  it('shows the insurance policy only when insurance is in use', async () => {
    await loadTestClientConfig({ insurance_enabled: true });
    const { rows } = renderTable(false);
    expect(within(rows[0]!).getByText('Insurance policy')).toBeTruthy();
    expect(within(rows[1]!).getByText('ABC12345')).toBeTruthy();
  });

  it('writes dates and weights as a Portuguese reader does', async () => {
    await i18next.changeLanguage('pt');
    const { rows } = renderTable(false);
    expect(within(rows[1]!).getByText('31,4 kg')).toBeTruthy();
    expect(within(rows[1]!).getByText('15 de jan. de 2020')).toBeTruthy();
    expect(within(rows[1]!).getByText('6 anos e 10 meses')).toBeTruthy();
  });
});
