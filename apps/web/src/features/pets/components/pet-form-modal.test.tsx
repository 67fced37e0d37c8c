import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { breedListSchema } from '@vetcall/shared/schemas/breeds';
import type { PetInput } from '@vetcall/shared/schemas/pet';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi } from '../../../test/fake-api';
import { addPortugueseCatalogs, initTestI18n, withProviders } from '../../../test/render';
import { chooseOption, fill, write, writeDate } from '../../../test/user-input';
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

/**
 * The birth field ends at `last`, a day of November 2026: the day after is neither taken when typed nor offered
 * by the calendar, which offers `last` and fills it in.
 */
async function expectLastBirthDay(last: number) {
  const birth = screen.getByRole('textbox', { name: /^Birth date/ });
  await writeDate(birth, `11/${last + 1}/2026`);
  expect(birth).toHaveProperty('value', '');
  await userEvent.click(birth);
  await screen.findByRole('button', { name: `${last} November 2026`, hidden: true });
  const day = (date: number) => screen.getByRole('button', { name: `${date} November 2026`, hidden: true });
  expect(day(last)).toHaveProperty('disabled', false);
  expect(day(last + 1)).toHaveProperty('disabled', true);
  await userEvent.click(day(last));
  expect(birth).toHaveProperty('value', `11/${last}/2026`);
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
    addPortugueseCatalogs();
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
    await waitFor(() => expect(dialog.getAllByText('This field is required.')).toHaveLength(5));
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
    // The second decimal is not taken.
    expect(screen.getByRole('textbox', { name: /^Weight \(kg\)/ })).toHaveProperty('value', '4.2');
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
    await writeDate(birth, '12/31/1949');
    expect(birth).toHaveProperty('value', '');
    await expectLastBirthDay(21);
  });

  it('ends the birth dates at the clinic’s today, not the browser’s', async () => {
    // 12:00 UTC on 21 November (the browser's zone here) is already 01:00 on the 22nd in Auckland.
    await loadTestClientConfig({ clinic_time_zone: 'Pacific/Auckland' });
    breedCatalogue();
    renderForm();
    await expectLastBirthDay(22);
  });

  it('shows an existing pet for editing, and applies the change', async () => {
    breedCatalogue();
    const { onSubmit, dialog } = renderForm(existingPet);
    expect(dialog.getByRole('textbox', { name: /^Birth date/ })).toHaveProperty('value', '01/15/2020');
    expect(dialog.getByRole('textbox', { name: /^Weight \(kg\)/ })).toHaveProperty('value', '4.2');
    const weight = dialog.getByRole('textbox', { name: /^Weight/ });
    await userEvent.clear(weight);
    await userEvent.type(weight, '4.8');
    await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Pérola', species: 'Cat', breed_id: 9, birth: '2020-01-15', weight: 4.8 }),
      'Persian',
    );
  });

  it('keeps saying "Edit pet" while closing, and reopens with the pet as it was, not a cancelled edit', async () => {
    breedCatalogue();
    const props = { onClose: () => {}, onSubmit: () => {} };
    const { rerender } = render(withProviders(<PetFormModal opened pet={existingPet} {...props} />));
    const weight = () => screen.getByRole('textbox', { name: /^Weight/ });
    await userEvent.clear(weight());
    await userEvent.type(weight(), '9');

    // The page forgets the pet as it closes the dialog; the exit must not flip to the "New pet" form.
    rerender(withProviders(<PetFormModal opened={false} pet={null} {...props} />));
    const closing = within(screen.getByRole('dialog', { hidden: true }));
    expect(closing.getByRole('button', { name: 'Apply', hidden: true })).toBeTruthy();
    expect(closing.queryByText('New pet')).toBeNull();

    rerender(withProviders(<PetFormModal opened pet={existingPet} {...props} />));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit pet' }));
    expect(dialog.getByRole('textbox', { name: /^Weight/ })).toHaveProperty('value', '4.2');
  });

  it.each([
    ['en', '4.6'],
    ['pt', '4,6'],
    ['pt-BR', '4,6'],
  ])('in %s, reads 4.6 and 4,6 as 4.6 kg, typed or filled in at once, and shows %j on leaving', async (lang, shown) => {
    await i18next.changeLanguage(lang);
    breedCatalogue();
    const { onSubmit, dialog } = renderForm(existingPet);
    const weight = dialog.getByRole('textbox', { name: new RegExp(`^${i18next.t('pets.weight')}`) });
    for (const text of ['4.6', '4,6']) {
      for (const enter of [fill, (field: HTMLElement, typed: string) => userEvent.type(field, typed)]) {
        await userEvent.clear(weight);
        await enter(weight, text);
        await userEvent.tab();
        expect(weight, `${text} (${enter.name})`).toHaveProperty('value', shown);
        await userEvent.click(dialog.getByRole('button', { name: i18next.t('pets.apply_changes') }));
        expect(onSubmit.mock.lastCall?.[0].weight, `${text} (${enter.name})`).toBe(4.6);
        onSubmit.mockClear();
      }
    }
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
