import { useState } from 'react';
import { Button, Grid, Group, Modal, Select, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DATE_FLOOR, PET_WEIGHT_MAX, PET_WEIGHT_MIN, PET_WEIGHT_STEP } from '@vetcall/shared/constants';
import { canonicalSpecies } from '@vetcall/shared/pet-species';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { petInputSchemaFor, type PetInput } from '@vetcall/shared/schemas/pet';
import { DecimalInput } from '../../../components/ui/decimal-input';
import { clientConfig, clinicToday } from '../../../lib/client-config';
import { currentLocale } from '../../../lib/i18n';
import { useFieldProps } from '../../../lib/use-field-props';
import { useBreeds } from '../api/pets';
import type { DraftPet } from '../draft-pet';
import { fertileStatusLabel } from '../pet-labels';

type PetFormValues = {
  name: string;
  species_choice: 'Dog' | 'Cat' | 'Other';
  species_other: string;
  breed_id: string | null;
  breed: string;
  gender: 'F' | 'M' | '';
  birth: string;
  fertile_status: 'intact' | 'neutered' | '';
  weight: number | string;
  policy: string;
};

function valuesFromDraft(draft: DraftPet | null): PetFormValues {
  if (!draft) {
    return {
      name: '',
      species_choice: 'Dog',
      species_other: '',
      breed_id: null,
      breed: '',
      gender: '',
      birth: '',
      fertile_status: '',
      weight: '',
      policy: '',
    };
  }
  const canonical = canonicalSpecies(draft.species);
  return {
    name: draft.name,
    species_choice: canonical ?? 'Other',
    species_other: canonical || draft.species === 'Other' ? '' : draft.species,
    breed_id: draft.breed_id === null ? null : String(draft.breed_id),
    breed: draft.breed,
    gender: draft.gender,
    birth: draft.birth,
    fertile_status: draft.fertile_status,
    weight: draft.weight,
    policy: draft.policy ?? '',
  };
}

function toInput(values: PetFormValues): PetInput {
  const listed = values.species_choice !== 'Other';
  return {
    name: values.name,
    species: listed ? values.species_choice : values.species_other.trim() || 'Other',
    breed_id: listed && values.breed_id ? Number(values.breed_id) : null,
    breed: listed && values.breed_id ? '' : values.breed,
    gender: values.gender as PetInput['gender'],
    birth: values.birth,
    fertile_status: values.fertile_status as PetInput['fertile_status'],
    weight: typeof values.weight === 'number' ? values.weight : (undefined as unknown as number),
    policy: clientConfig().insurance_enabled ? values.policy : null,
  };
}

/** The server's rule: no birth after the clinic's today. */
const petInputSchema = petInputSchemaFor(clinicToday);

/** Form field names for the schema's paths (the species of "Other" is typed in its own field). */
const FIELD_FOR_PATH: Record<string, keyof PetFormValues> = { species: 'species_other' };

/** Adds or edits a pet locally; nothing is sent until the customer saves (docs/product-rules.md#states Pets). */
export function PetFormModal({
  opened,
  pet,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  pet: DraftPet | null;
  onClose: () => void;
  onSubmit: (input: PetInput, breedLabel: string) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const form = useForm<PetFormValues>({ initialValues: valuesFromDraft(pet) });
  const field = useFieldProps(form);
  // The pet being shown changes only when the dialog opens: while it closes (an animated exit) its title and
  // button keep saying "Edit"/"Apply" instead of flipping to "New pet"/"Add pet", and every opening starts
  // from the pet as it is now, not from what a cancelled edit left in the form.
  const [shown, setShown] = useState({ opened, pet });
  if (opened !== shown.opened || (opened && pet !== shown.pet)) {
    setShown({ opened, pet: opened ? pet : shown.pet });
    if (opened) {
      form.setValues(valuesFromDraft(pet));
      form.resetDirty(valuesFromDraft(pet));
      form.clearErrors();
    }
  }
  const editing = shown.pet !== null;
  const values = form.getValues();
  const breeds = useBreeds(values.species_choice, locale);
  const gender = values.gender === '' ? 'M' : values.gender;

  function submit(formValues: PetFormValues) {
    const input = toInput(formValues);
    const parsed = petInputSchema.safeParse(input);
    if (!parsed.success) {
      const errors = fieldErrorsFromIssues(parsed.error.issues);
      form.setErrors(
        Object.fromEntries(Object.entries(errors).map(([path, code]) => [FIELD_FOR_PATH[path] ?? path, code])),
      );
      return;
    }
    const breedLabel =
      input.breed_id !== null
        ? (breeds.data?.find((breed) => breed.breed_id === input.breed_id)?.name ?? '')
        : (input.breed ?? '');
    onSubmit(input, breedLabel);
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? t('pets.edit_title') : t('pets.add_title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Grid gap="md">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('pets.name')} required data-autofocus {...field('name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              label={t('pets.species')}
              required
              allowDeselect={false}
              data={(['Dog', 'Cat', 'Other'] as const).map((value) => ({ value, label: t(`pets.species_${value}`) }))}
              {...field('species_choice')}
              onChange={(value) => {
                form.setFieldValue('species_choice', (value ?? 'Dog') as PetFormValues['species_choice']);
                // docs/product-rules.md#states: the breed list is emptied when the species changes to Other or none.
                form.setFieldValue('breed_id', null);
              }}
            />
          </Grid.Col>
          {values.species_choice === 'Other' && (
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('pets.species_other')}
                description={t('pets.species_other_hint')}
                {...field('species_other')}
              />
            </Grid.Col>
          )}
          {values.species_choice !== 'Other' && (
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label={t('pets.breed')}
                searchable
                clearable
                nothingFoundMessage={t('pets.breed_not_found')}
                data={(breeds.data ?? []).map((breed) => ({ value: String(breed.breed_id), label: breed.name }))}
                {...field('breed_id')}
                clearButtonProps={{ 'aria-label': t('pets.clear_breed') }}
              />
            </Grid.Col>
          )}
          {(values.species_choice === 'Other' || !values.breed_id) && (
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={values.species_choice === 'Other' ? t('pets.breed') : t('pets.breed_free')}
                {...field('breed')}
              />
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              label={t('pets.gender')}
              required
              data={[
                { value: 'F', label: t('pets.gender_F') },
                { value: 'M', label: t('pets.gender_M') },
              ]}
              {...field('gender')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              label={t('pets.fertile_status')}
              required
              data={(['intact', 'neutered'] as const).map((value) => ({
                value,
                label: fertileStatusLabel(t, value, gender),
              }))}
              {...field('fertile_status')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <DateInput
              label={t('pets.birth')}
              required
              minDate={DATE_FLOOR}
              maxDate={clinicToday()}
              {...field('birth')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <DecimalInput
              label={t('pets.weight')}
              required
              min={PET_WEIGHT_MIN}
              max={PET_WEIGHT_MAX}
              step={PET_WEIGHT_STEP}
              decimals={1}
              unit="kg"
              {...field('weight')}
            />
          </Grid.Col>
          {clientConfig().insurance_enabled && (
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label={t('pets.policy')} description={t('pets.policy_hint')} {...field('policy')} />
            </Grid.Col>
          )}
        </Grid>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit">{editing ? t('pets.apply_changes') : t('pets.add_pet')}</Button>
        </Group>
      </form>
    </Modal>
  );
}
