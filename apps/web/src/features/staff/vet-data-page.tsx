import { useState } from 'react';
import { Alert, Grid, Loader, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DISCOUNT_MAX, DISCOUNT_MIN, DISCOUNT_STEP } from '@vetcall/shared/constants';
import { vetProfileSchema, type Vet } from '@vetcall/shared/schemas/staff';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { DataList } from '../../components/ui/data-list';
import { DecimalInput } from '../../components/ui/decimal-input';
import { apiErrorMessage } from '../../lib/form-errors';
import { useSession } from '../../lib/auth-store';
import { useProfileSave } from '../../lib/profile-save';
import { useFieldProps } from '../../lib/use-field-props';
import { CalendarLinkPanel } from '../calendar/calendar-link-panel';
import { IcsFeedPanel } from '../calendar/ics-feed-panel';
import { CalDavPanel } from '../calendar/caldav-panel';
import { updateVetProfile, useVetProfile } from './api/staff';
import { ProfileCard, ProfileFormButtons } from './components/profile-card';

type VetValues = { name: string; email: string; phone: string; specialty: string; discount: number };
const valuesOf = (vet: Vet): VetValues => ({
  name: vet.name,
  email: vet.email,
  phone: vet.phone,
  specialty: vet.specialty,
  discount: vet.discount,
});

/**
 * /vetdata (docs/product-rules.md#vet-screens): the vet's profile, photo, discount, calendar link and calendar
 * subscription. A failed load shows a toast and goes back.
 */
export function VetDataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const profile = useVetProfile(user?.type === 'vet' ? user.email : undefined);
  if (user?.type !== 'vet') return null;
  return (
    <AuthenticatedLayout heading={t('staff.my_data')}>
      {profile.isPending && <Loader aria-label={t('app.loading')} />}
      {profile.isError && (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, profile.error, 'staff.load_error')}
        </Alert>
      )}
      {profile.data && <VetProfile vet={profile.data} />}
    </AuthenticatedLayout>
  );
}

function VetProfile({ vet }: { vet: Vet }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const form = useForm<VetValues>({
    initialValues: valuesOf(vet),
    validate: schemaResolver(vetProfileSchema, { sync: true }),
  });
  const field = useFieldProps(form);

  const { save, saving } = useProfileSave({
    currentEmail: vet.email,
    emailChangeMessage: (email) => t('staff.vet_email_change_text', { email }),
    update: (input: Parameters<typeof updateVetProfile>[1]) => updateVetProfile(vet.user_id, input),
    queryKey: ['vet-profile'],
    setEmail: (email) => form.setFieldValue('email', email),
    setErrors: form.setErrors,
    onSaved: () => setEditing(false),
  });

  const rows: [string, string][] = [
    [t('staff.name'), vet.name],
    [t('staff.email'), vet.email],
    [t('staff.phone'), vet.phone],
    [t('staff.specialty'), vet.specialty],
    [t('staff.discount'), `${vet.discount} %`],
    [t('staff.calendar'), vet.calendar_linked ? t('staff.calendar_linked') : t('staff.calendar_not_linked')],
  ];
  return (
    <Stack maw={860}>
      <ProfileCard userId={vet.user_id} name={vet.name} editing={editing} onEdit={() => setEditing(true)}>
        {editing ? (
          <form noValidate onSubmit={form.onSubmit((values) => void save(values))}>
            <Grid gap="md">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('staff.name')} required {...field('name')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('staff.email')} type="email" required {...field('email')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('staff.phone')} type="tel" required {...field('phone')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('staff.specialty')} required {...field('specialty')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DecimalInput
                  label={t('staff.discount')}
                  description={t('staff.discount_hint')}
                  min={DISCOUNT_MIN}
                  max={DISCOUNT_MAX}
                  step={DISCOUNT_STEP}
                  decimals={0}
                  unit="%"
                  {...field('discount')}
                />
              </Grid.Col>
            </Grid>
            <ProfileFormButtons
              saving={saving}
              mt="md"
              onCancel={() => {
                form.setValues(valuesOf(vet));
                setEditing(false);
              }}
            />
          </form>
        ) : (
          <DataList items={rows} />
        )}
      </ProfileCard>
      <CalendarLinkPanel vet={vet} />
      <CalDavPanel vetId={vet.vet_id} />
      <IcsFeedPanel vetId={vet.vet_id} />
    </Stack>
  );
}
