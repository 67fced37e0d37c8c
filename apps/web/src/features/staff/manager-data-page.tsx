import { useState } from 'react';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { managerProfileSchema, type Manager } from '@vetcall/shared/schemas/staff';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { ApiError } from '../../lib/api-client';
import { authStore, useSession } from '../../lib/auth-store';
import { confirmDialog } from '../../lib/confirm';
import { apiErrorMessage } from '../../lib/form-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { name: manager.name, email: manager.email },
    validate: schemaResolver(managerProfileSchema, { sync: true }),
  });
  const field = useFieldProps(form);

  async function save(values: { name: string; email: string }) {
    let input = values;
    if (values.email.trim().toLowerCase() !== manager.email) {
      const confirmed = await confirmDialog({
        title: t('customer_data.email_change_title'),
        message: t('customer_data.email_change_text', { email: values.email }),
      });
      if (!confirmed) {
        input = { ...values, email: manager.email };
        form.setFieldValue('email', manager.email);
      }
    }
    setSaving(true);
    try {
      const result = await updateManagerProfile(manager.user_id, input);
      notifySuccess(t('staff.data_edited'));
      if (result.email_changed) {
        notifySuccess(t('customer_data.email_changed_logout'));
        authStore.clear();
        queryClient.clear();
        await navigate('/');
        return;
      }
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: ['manager-profile'] });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      notifyError(
        error instanceof ApiError && error.code === 'email_in_use'
          ? t('errors.email_in_use')
          : apiErrorMessage(t, error, 'staff.error_updating'),
      );
    } finally {
      setSaving(false);
    }
  }

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
        <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
          {[
            [t('staff.name'), manager.name],
            [t('staff.email'), manager.email],
          ].map(([label, value]) => (
            <div key={label}>
              <Text component="dt" size="xs" c="dimmed" fw={600}>
                {label}
              </Text>
              <Text component="dd" m={0}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
