import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@vetcall/shared/schemas/customer';
import { customerProfileSchema } from '@vetcall/shared/schemas/customer';
import type { Pet } from '@vetcall/shared/schemas/pet';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { SectionPanel } from '../../components/ui/section-panel';
import { useSession } from '../../lib/auth-store';
import { confirmDialog } from '../../lib/confirm';
import { confirmEmailChange, reportSaveError, useLogoutAfterEmailChange } from '../../lib/profile-save';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import { RecordViewModals, useRecordViews } from '../appointments/components/record-views';
import { RESTORE_BOOKING_STATE } from '../booking/booking-draft';
import { savePetChanges, useCustomerPets, type PetChanges } from '../pets/api/pets';
import { PetFormModal } from '../pets/components/pet-form-modal';
import { PetsTable } from '../pets/components/pets-table';
import { type DraftPet, draftFromPet, inputFromDraft } from '../pets/draft-pet';
import { isEmailTaken, updateCustomer, useCustomer } from './api/customers';
import { CustomerFields, type CustomerFormValues } from './components/customer-fields';
import { CustomerProfileView } from './components/customer-profile-view';
import { notifyInvalidForm } from './form-messages';

function formValues(customer: Customer): CustomerFormValues {
  return {
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    tax_id: customer.tax_id,
    address: customer.address,
    postal_code: customer.postal_code,
    city: customer.city,
    state: customer.state,
    country: customer.country as CustomerFormValues['country'],
    vet_center: customer.vet_center,
  };
}

/** The creates, updates and deletes of one Save: only pets that really changed are sent. */
function pendingChanges(drafts: DraftPet[], removed: number[], saved: Pet[]): PetChanges {
  const savedById = new Map(
    saved.map((pet, index) => [pet.pet_id, JSON.stringify(inputFromDraft(draftFromPet(pet, index)))]),
  );
  return {
    create: drafts.filter((draft) => draft.pet_id === 0).map(inputFromDraft),
    update: drafts
      .filter((draft) => draft.pet_id !== 0 && savedById.get(draft.pet_id) !== JSON.stringify(inputFromDraft(draft)))
      .map((draft) => ({ ...inputFromDraft(draft), pet_id: draft.pet_id })),
    delete: removed,
  };
}

/**
 * docs/product-rules.md#customer-data Customer data: the profile and the pets, read-only or in editing mode; Save sends
 * the profile and every pet change; Cancel reloads. Managers and related vets open it read-only with
 * ?email= (docs/product-rules.md#manager-screens "A manager can open a customer's data").
 */
export function CustomerDataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const isOwner = user?.type === 'customer';
  const email = isOwner ? user.email : (search.get('email') ?? undefined);
  const customer = useCustomer(email);
  const paymentCanceled = search.has('payment_canceled');

  // Back from a canceled payment: the checkout sends customers here, since a page load of /customer is an entry the
  // guard refuses (docs/product-rules.md#navigation-guard), and from here they go on to the booking form as they left it.
  // Said once, though the page may render again (its language arriving) before the navigation is done.
  const toldCanceled = useRef(false);
  useEffect(() => {
    if (!paymentCanceled || toldCanceled.current) return;
    toldCanceled.current = true;
    notifySuccess(t('booking.payment_canceled'));
    if (isOwner) {
      void navigate('/customer', { replace: true, state: RESTORE_BOOKING_STATE });
      return;
    }
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('payment_canceled');
        return next;
      },
      { replace: true },
    );
  }, [isOwner, navigate, paymentCanceled, setSearch, t]);

  if (!user) return null;
  const heading = isOwner
    ? t('customer_data.heading')
    : t('customer_data.heading_of', { name: customer.data?.name ?? '' });
  return (
    <AuthenticatedLayout heading={heading}>
      {!email && <Alert color="blue">{t('customer_data.choose_customer')}</Alert>}
      {customer.isPending && email && <Loader aria-label={t('app.loading')} />}
      {customer.isError && (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, customer.error, 'customer_data.load_error')}
        </Alert>
      )}
      {customer.data && <CustomerData customer={customer.data} editable={isOwner} />}
    </AuthenticatedLayout>
  );
}

function CustomerData({ customer, editable }: { customer: Customer; editable: boolean }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const logoutAfterEmailChange = useLogoutAfterEmailChange();
  const queryClient = useQueryClient();
  const pets = useCustomerPets(customer.customer_id, locale);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [drafts, setDrafts] = useState<DraftPet[]>([]);
  const [removed, setRemoved] = useState<number[]>([]);
  const [petForm, setPetForm] = useState<{ opened: boolean; pet: DraftPet | null }>({ opened: false, pet: null });
  // The pet record, and from its history the appointment detail (docs/product-rules.md#customer-data,
  // #appointment-records, #pet-records).
  const recordViews = useRecordViews();
  const [startedWithoutPets, setStartedWithoutPets] = useState(false);
  const form = useForm<CustomerFormValues>({
    initialValues: formValues(customer),
    validate: schemaResolver(customerProfileSchema, { sync: true }),
  });

  const savedPets = pets.data ?? [];
  // Outside editing the screen shows the server's pets; editing works on a copy until Save.
  const shownPets = editing ? drafts : savedPets.map(draftFromPet);

  function startEditing() {
    form.setValues(formValues(customer));
    form.clearErrors();
    setDrafts(savedPets.map(draftFromPet));
    setRemoved([]);
    setEditing(true);
  }

  // docs/product-rules.md#customer-data: a customer with no pets starts in edit mode with the add-pet form open. Done
  // while rendering (not in an effect) so the first paint already shows it.
  if (editable && pets.data && pets.data.length === 0 && !startedWithoutPets) {
    setStartedWithoutPets(true);
    startEditing();
    setPetForm({ opened: true, pet: null });
  }

  async function reload() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['customer'] }),
      queryClient.invalidateQueries({ queryKey: ['pets'] }),
    ]);
  }

  async function cancel() {
    setEditing(false);
    form.clearErrors();
    await reload();
  }

  async function removePet(pet: DraftPet) {
    const confirmed = await confirmDialog({
      title: t('pets.delete_title'),
      message: t('pets.delete_confirm', { name: pet.name }),
      confirmLabel: t('pets.delete'),
      danger: true,
    });
    if (!confirmed) return;
    setDrafts((current) => current.filter((draft) => draft.pet_pos !== pet.pet_pos));
    if (pet.pet_id !== 0) setRemoved((current) => [...current, pet.pet_id]);
  }

  async function save() {
    const validation = form.validate();
    if (validation.hasErrors) return notifyInvalidForm(t, validation.errors);
    const entered = form.getValues();
    const values = await confirmEmailChange(
      entered,
      customer.email,
      t('customer_data.email_change_text', { email: entered.email }),
      t('customer_data.email_change_title'),
      (email) => form.setFieldValue('email', email),
    );
    // docs/product-rules.md#validation: the email must be free; checked before anything is sent, so nothing is
    // half-saved.
    if (values.email.trim().toLowerCase() !== customer.email && (await isEmailTaken(values.email).catch(() => false))) {
      form.setFieldError('email', 'taken');
      return notifyError(t('errors.email_in_use'));
    }

    setSaving(true);
    try {
      const changes = pendingChanges(drafts, removed, savedPets);
      const hasPetChanges = changes.create.length + changes.update.length + changes.delete.length > 0;
      const petResult = hasPetChanges ? await savePetChanges(customer.customer_id, changes, locale) : undefined;
      const result = await updateCustomer(customer.user_id, values);
      notifySuccess(t('customer_data.saved'));
      if (petResult) {
        if (petResult.created.length) notifySuccess(t('pets.added', { count: petResult.created.length }));
        if (petResult.updated.length) notifySuccess(t('pets.modified', { count: petResult.updated.length }));
        const archived = petResult.removed.filter((entry) => entry.archived).length;
        if (petResult.removed.length - archived)
          notifySuccess(t('pets.removed', { count: petResult.removed.length - archived }));
        if (archived) notifySuccess(t('pets.archived', { count: archived }));
      }
      if (await logoutAfterEmailChange(result.email_changed)) return;
      setEditing(false);
      await reload();
    } catch (error) {
      reportSaveError(t, error, form.setErrors, 'customer_data.save_error');
    } finally {
      setSaving(false);
    }
  }

  function applyPet(input: Parameters<Parameters<typeof PetFormModal>[0]['onSubmit']>[0], breedLabel: string) {
    setDrafts((current) => {
      const editingPet = petForm.pet;
      const base = {
        ...input,
        breed_id: input.breed_id ?? null,
        breed: input.breed ?? '',
        policy: input.policy ?? null,
        breed_label: breedLabel,
      } as Omit<DraftPet, 'pet_id' | 'pet_pos'>;
      if (editingPet) {
        return current.map((draft) => (draft.pet_pos === editingPet.pet_pos ? { ...draft, ...base } : draft));
      }
      const nextPosition = Math.max(-1, ...current.map((draft) => draft.pet_pos)) + 1;
      return [...current, { ...base, pet_id: 0, pet_pos: nextPosition }];
    });
    setPetForm({ opened: false, pet: null });
  }

  return (
    <Stack gap="lg">
      <SectionPanel
        headingId="profile-heading"
        title={t('customer_data.profile')}
        aside={
          editable &&
          !editing && (
            <Button onClick={startEditing} variant="light">
              {t('customer_data.edit')}
            </Button>
          )
        }
      >
        {editing ? <CustomerFields form={form} /> : <CustomerProfileView customer={customer} />}
      </SectionPanel>

      <SectionPanel
        headingId="pets-heading"
        title={t('pets.heading')}
        aside={
          editing && (
            <Button variant="light" onClick={() => setPetForm({ opened: true, pet: null })}>
              {t('pets.add_pet')}
            </Button>
          )
        }
      >
        {pets.isPending ? (
          <Loader aria-label={t('app.loading')} />
        ) : editable && shownPets.length === 0 ? (
          <Alert color="blue">{t('pets.add_first')}</Alert>
        ) : (
          <PetsTable
            pets={shownPets}
            editing={editing}
            onEdit={(pet) => setPetForm({ opened: true, pet })}
            onDelete={(pet) => void removePet(pet)}
            onRecord={(pet) => recordViews.open({ kind: 'pet', petId: pet.pet_id })}
          />
        )}
      </SectionPanel>

      {editing && (
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void cancel()} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            {t('common.save')}
          </Button>
        </Group>
      )}

      <PetFormModal
        opened={petForm.opened}
        pet={petForm.pet}
        onClose={() => setPetForm({ opened: false, pet: null })}
        onSubmit={applyPet}
      />
      <RecordViewModals views={recordViews} />
    </Stack>
  );
}
