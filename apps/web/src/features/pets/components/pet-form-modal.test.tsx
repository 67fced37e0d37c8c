import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import pt from '@vetcall/shared/i18n/pt.json';
import { breedListSchema } from '@vetcall/shared/schemas/breeds';
import type { PetInput } from '@vetcall/shared/schemas/pet';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { chooseOption, write, writeDate } from '../../../test/user-input';
import type { DraftPet } from '../draft-pet';
import { PetFormModal } from './pet-form-modal';

/** The breed catalogue at the network boundary, in the language asked for. */
function breedCatalogue() {
  return fakeApi()
    .answer('GET', /^\/api\/pets\/breeds\/Dog\/(en|pt)$/, breedListSchema, [
      { breed_id: 3, name: 'Labrador Retriever' },
      { breed_id: 4, name: 'Poodle' },
    ])
    .answer('GET', /^\/api\/pets\/breeds\/Cat\/(en|pt)$/, breedListSchema, [{ breed_id: 9, name: 'Persian' }]);
}

function renderForm(pet: DraftPet | null = null) {
  const onSubmit = vi.fn<(input: PetInput, breedLabel: string) => void>();
  render(withProviders(<PetFormModal opened pet={pet} onClose={() => {}} onSubmit={onSubmit} />));
  return { onSubmit, dialog: within(screen.getByRole('dialog')) };
}

/** Picks an option of the Select labelled `label`. */
const choose = (label: RegExp, option: string) => chooseOption(screen.getByRole('combobox', { name: label }), option);

async function fillRequired(options: { birth: string; weight: string }) {
  await write(screen.getByRole('textbox', { name: /^Name/ }), 'Trovão');
  await choose(/^Gender/, 'Male');
  await choose(/^Fertile status/, 'Neutered');
  await writeDate(screen.getByRole('textbox', { name: /^Birth date/ }), options.birth);
  await userEvent.type(screen.getByRole('textbox', { name: /^Weight/ }), options.weight);
}

const existingPet: DraftPet = {
  pet_id: 12,
  pet_pos: 0,
  name: 'Pérola',
  species: 'Cat',
  breed_id: 9,
  breed: '',
  breed_label: 'Persian',
  gender: 'F',
  birth: '2020-01-15',
  fertile_status: 'intact',
  weight: 4.2,
  policy: null,
};

// Mantine re-renders the whole form on each key press; a busy machine needs more than the default 5 s.
describe('PetFormModal', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
    i18next.addResourceBundle('pt', 'translation', pt);
  });
  beforeEach(async () => {
    // Birth dates are limited to today: the day is frozen, timers stay real for the user events.
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z'), toFake: ['Date'] });
    await loadTestClientConfig();
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await i18next.changeLanguage('en');
  });

  it('says what is missing and adds nothing', async () => {
    breedCatalogue();
    const { onSubmit, dialog } = renderForm();
    await userEvent.click(dialog.getByRole('button', { name: 'Add pet' }));
    // Name, gender, fertile status, birth date and weight.
    expect(await dialog.findAllByText('This field is required.')).toHaveLength(5);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('adds a dog of a listed breed, with a decimal weight and the birth date as typed', async () => {
    breedCatalogue();
    const { onSubmit, dialog } = renderForm();
    await fillRequired({ birth: '01/15/2020', weight: '31.4' });
    await choose(/^Breed/, 'Labrador Retriever');
    expect(dialog.queryByRole('textbox', { name: /^Breed \(if not in the list\)/ })).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: 'Add pet' }));
    expect(onSubmit).toHaveBeenCalledWith(
      {
        name: 'Trovão',
        species: 'Dog',
        breed_id: 3,
        breed: '',
        gender: 'M',
        birth: '2020-01-15',
        fertile_status: 'neutered',
        weight: 31.4,
        policy: null,
      },
      'Labrador Retriever',
    );
  });

  it('keeps one decimal of the weight', async () => {
    breedCatalogue();
    const { onSubmit, dialog } = renderForm();
    await fillRequired({ birth: '01/15/2020', weight: '4.25' });
    expect(screen.getByRole('textbox', { name: /^Weight/ })).toHaveProperty('value', '4.2 kg');
    await userEvent.click(dialog.getByRole('button', { name: 'Add pet' }));
    expect(onSubmit.mock.calls[0]![0].weight).toBe(4.2);
  });

  it('takes a species and a breed typed by the customer when the species is Other', async () => {
    const api = breedCatalogue();
    const { onSubmit, dialog } = renderForm();
    await choose(/^Species/, 'Other');
    await write(dialog.getByRole('textbox', { name: /^Which species/ }), 'Rabbit');
    await write(dialog.getByRole('textbox', { name: /^Breed/ }), 'Dwarf lop');
    await fillRequired({ birth: '03/02/2024', weight: '1.8' });
    await userEvent.click(dialog.getByRole('button', { name: 'Add pet' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ species: 'Rabbit', breed_id: null, breed: 'Dwarf lop', birth: '2024-03-02' }),
      'Dwarf lop',
    );
    // Other has no breed list to ask for.
    expect(api.urls.filter((url) => url.includes('/breeds/Other'))).toEqual([]);
  });

  it('accepts no birth date after today nor before 1950', async () => {
    breedCatalogue();
    renderForm();
    const birth = screen.getByRole('textbox', { name: /^Birth date/ });
    await writeDate(birth, '11/22/2026');
    expect(birth).toHaveProperty('value', '');
    await writeDate(birth, '12/31/1949');
    expect(birth).toHaveProperty('value', '');
    // The calendar offers today as the last day.
    await userEvent.click(birth);
    const day = (name: string) => screen.getByRole('button', { name, hidden: true });
    expect(day('21 November 2026')).toHaveProperty('disabled', false);
    expect(day('22 November 2026')).toHaveProperty('disabled', true);
    await userEvent.click(day('21 November 2026'));
    expect(birth).toHaveProperty('value', '11/21/2026');
  });

  it('shows an existing pet for editing, and applies the change', async () => {
    breedCatalogue();
    const { onSubmit, dialog } = renderForm(existingPet);
    expect(dialog.getByRole('textbox', { name: /^Birth date/ })).toHaveProperty('value', '01/15/2020');
    expect(dialog.getByRole('textbox', { name: /^Weight/ })).toHaveProperty('value', '4.2 kg');
    const weight = dialog.getByRole('textbox', { name: /^Weight/ });
    await userEvent.clear(weight);
    await userEvent.type(weight, '4.8');
    await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Pérola', species: 'Cat', breed_id: 9, birth: '2020-01-15', weight: 4.8 }),
      'Persian',
    );
  });

  it('in Portuguese, reads the birth date day first and the weight with a decimal comma', async () => {
    await i18next.changeLanguage('pt');
    breedCatalogue();
    const { onSubmit, dialog } = renderForm();
    const birth = dialog.getByRole('textbox', { name: /^Data de nascimento/ });
    expect(birth).toHaveProperty('placeholder', 'DD/MM/AAAA');
    await write(dialog.getByRole('textbox', { name: /^Nome/ }), 'Trovão');
    await choose(/^Sexo/, 'Macho');
    await choose(/^Estado reprodutivo/, 'Castrado');
    await writeDate(birth, '15/01/2020');
    expect(birth).toHaveProperty('value', '15/01/2020');
    await userEvent.type(dialog.getByRole('textbox', { name: /^Peso/ }), '31,4');
    await userEvent.click(dialog.getByRole('button', { name: 'Adicionar animal' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ birth: '2020-01-15', weight: 31.4 }), '');
  });
});
