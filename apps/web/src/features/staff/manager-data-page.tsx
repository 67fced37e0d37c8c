import { useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, TextInput, Title } from '@mantine/core';
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
import { PhotoUploadButton } from './components/photo-upload-button';
import { UserAvatar } from './components/user-avatar';

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
    <Paper withBorder p="lg" radius="md" maw={720}>
      <Group justify="space-between" mb="md" align="flex-start">
        <Group>
          <UserAvatar userId={manager.user_id} name={manager.name} size={72} />
          <PhotoUploadButton userId={manager.user_id} />
        </Group>
        {!editing && (
          <Button variant="light" onClick={() => setEditing(true)}>
            {t('customer_data.edit')}
          </Button>
        )}
      </Group>
      <Title order={2} size="h3" mb="sm">
        {t('customer_data.profile')}
      </Title>
      {editing ? (
        <form noValidate onSubmit={form.onSubmit((values) => void save(values))}>
          <Stack>
            <TextInput label={t('staff.name')} required {...field('name')} />
            <TextInput label={t('staff.email')} type="email" required {...field('email')} />
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  form.setValues({ name: manager.name, email: manager.email });
                  setEditing(false);
                }}
              >
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={saving}>
                {t('common.save')}
              </Button>
            </Group>
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
    </Paper>
  );
}
