import { useState } from 'react';
import { Alert, Loader, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { managerProfileSchema, type Manager } from '@vetcall/shared/schemas/staff';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { DataList } from '../../components/ui/data-list';
import { apiErrorMessage } from '../../lib/form-errors';
import { useSession } from '../../lib/auth-store';
import { useProfileSave } from '../../lib/profile-save';
import { useFieldProps } from '../../lib/use-field-props';
import { updateManagerProfile, useManagerProfile } from './api/staff';
import { ProfileCard, ProfileFormButtons } from './components/profile-card';

/** /managerdata: a manager's own name, email and photo. */
export function ManagerDataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const profile = useManagerProfile(user?.type === 'manager' ? user.email : undefined);
  if (user?.type !== 'manager') return null;
  return (
    <AuthenticatedLayout heading={t('staff.my_data')}>
      {profile.isPending && <Loader aria-label={t('app.loading')} />}
      {profile.isError && <Alert color="red">{apiErrorMessage(t, profile.error, 'staff.load_error')}</Alert>}
      {profile.data && <ManagerProfile manager={profile.data} />}
    </AuthenticatedLayout>
  );
}

function ManagerProfile({ manager }: { manager: Manager }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const form = useForm({
    initialValues: { name: manager.name, email: manager.email },
    validate: schemaResolver(managerProfileSchema, { sync: true }),
  });
  const field = useFieldProps(form);

  const { save, saving } = useProfileSave({
    currentEmail: manager.email,
    emailChangeMessage: (email) => t('customer_data.email_change_text', { email }),
    update: (input: Parameters<typeof updateManagerProfile>[1]) => updateManagerProfile(manager.user_id, input),
    queryKey: ['manager-profile'],
    setEmail: (email) => form.setFieldValue('email', email),
    setErrors: form.setErrors,
    onSaved: () => setEditing(false),
  });

  return (
    <ProfileCard
      userId={manager.user_id}
      name={manager.name}
      editing={editing}
      onEdit={() => setEditing(true)}
      maw={720}
    >
      {editing ? (
        <form noValidate onSubmit={form.onSubmit((values) => void save(values))}>
          <Stack>
            <TextInput label={t('staff.name')} required {...field('name')} />
            <TextInput label={t('staff.email')} type="email" required {...field('email')} />
            <ProfileFormButtons
              saving={saving}
              onCancel={() => {
                form.setValues({ name: manager.name, email: manager.email });
                setEditing(false);
              }}
            />
          </Stack>
        </form>
      ) : (
        <DataList
          cols={{ base: 1, sm: 2 }}
          items={[
            [t('staff.name'), manager.name],
            [t('staff.email'), manager.email],
          ]}
        />
      )}
    </ProfileCard>
  );
}
