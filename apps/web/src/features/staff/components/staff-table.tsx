import { useState } from 'react';
import { Alert, Button, Group, Loader, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  emailUpdateSchema,
  nameUpdateSchema,
  phoneUpdateSchema,
  specialtyUpdateSchema,
  type UserRow,
} from '@vetcall/shared/schemas/staff';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { DataTable } from '../../../components/ui/data-table';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { confirmDialog } from '../../../lib/confirm';
import { apiErrorMessage, translateFieldError } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { changeUserField, removeUser, type UserField, useUsers, usersQueryKey } from '../api/staff';
import { ExportButton } from './export-button';
import { NewUserModal } from './new-user-modal';
import { PhotoUploadButton } from './photo-upload-button';
import { UserAvatar } from './user-avatar';

type Draft = { name: string; email: string; phone: string; specialty: string };

const FIELDS: {
  key: keyof Draft;
  route: UserField;
  schema: typeof nameUpdateSchema | typeof emailUpdateSchema | typeof phoneUpdateSchema | typeof specialtyUpdateSchema;
  vetOnly: boolean;
}[] = [
  { key: 'name', route: 'name', schema: nameUpdateSchema, vetOnly: false },
  { key: 'email', route: 'email', schema: emailUpdateSchema, vetOnly: false },
  { key: 'phone', route: 'vetphone', schema: phoneUpdateSchema, vetOnly: true },
  { key: 'specialty', route: 'vetspecialty', schema: specialtyUpdateSchema, vetOnly: true },
];

/**
 * docs/product-rules.md#manager-screens: the vets and managers tables; rows edit inline, then Save; New Vet / New
 * Manager; delete.
 */
export function StaffTable({ type }: { type: 'vet' | 'manager' }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const users = useUsers(type);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<{
    row: UserRow;
    draft: Draft;
    errors: Partial<Record<keyof Draft, string>>;
  }>();
  const [saving, setSaving] = useState(false);
  const isVet = type === 'vet';
  const fields = FIELDS.filter((field) => isVet || !field.vetOnly);

  function startEdit(row: UserRow) {
    setEditing({
      row,
      draft: { name: row.name, email: row.email, phone: row.phone ?? '', specialty: row.specialty ?? '' },
      errors: {},
    });
  }

  async function save() {
    if (!editing) return;
    const errors: Partial<Record<keyof Draft, string>> = {};
    for (const field of fields) {
      const parsed = field.schema.safeParse({
        [field.key === 'phone' ? 'phone' : field.key]: editing.draft[field.key],
      });
      if (!parsed.success) errors[field.key] = Object.values(fieldErrorsFromIssues(parsed.error.issues))[0];
    }
    if (Object.keys(errors).length) return setEditing({ ...editing, errors });
    setSaving(true);
    try {
      const original: Draft = {
        name: editing.row.name,
        email: editing.row.email,
        phone: editing.row.phone ?? '',
        specialty: editing.row.specialty ?? '',
      };
      for (const field of fields) {
        const value = editing.draft[field.key].trim();
        if (value !== original[field.key]) await changeUserField(field.route, editing.row.user_id, value);
      }
      notifySuccess(t('staff.data_edited'));
      setEditing(undefined);
    } catch (error) {
      const emailTaken = error instanceof ApiError && error.code === 'email_in_use';
      notifyError(emailTaken ? t('errors.email_in_use') : apiErrorMessage(t, error, 'staff.error_updating'));
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: usersQueryKey(type) });
    }
  }

  async function remove(row: UserRow) {
    const confirmed = await confirmDialog({
      title: t('staff.remove_title'),
      message: t('staff.remove_confirm', { name: row.name }),
      confirmLabel: t('staff.remove'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await removeUser(row.user_id);
      notifySuccess(t('staff.user_removed'));
    } catch (error) {
      notifyError(apiErrorMessage(t, error, 'errors.error_removing_user'));
    }
    await queryClient.invalidateQueries({ queryKey: usersQueryKey(type) });
  }

  const cell = (key: keyof Draft, row: UserRow) => {
    if (editing?.row.user_id !== row.user_id)
      return key === 'name' ? row.name : key === 'email' ? row.email : (row[key] ?? '');
    return (
      <TextInput
        size="xs"
        aria-label={t(`staff.${key}`)}
        value={editing.draft[key]}
        error={translateFieldError(t, editing.errors[key])}
        onChange={(event) => setEditing({ ...editing, draft: { ...editing.draft, [key]: event.currentTarget.value } })}
      />
    );
  };

  return (
    <>
      <Group justify="space-between" mb="md">
        <Button onClick={() => setCreating(true)}>{isVet ? t('staff.new_vet') : t('staff.new_manager')}</Button>
        <ExportButton list={isVet ? 'vets' : 'managers'} />
      </Group>
      {users.isPending && <Loader aria-label={t('app.loading')} />}
      {users.isError && <Alert color="red">{apiErrorMessage(t, users.error)}</Alert>}
      {users.data && (
        <DataTable
          label={isVet ? t('modes.manager.vets') : t('modes.manager.managers')}
          rows={users.data}
          rowKey={(row) => row.user_id}
          columns={[
            { header: t('staff.id'), cell: (row) => row.user_id },
            { header: t('staff.photo'), cell: (row) => <UserAvatar userId={row.user_id} name={row.name} /> },
            ...fields.map((field) => ({
              header: t(`staff.${field.key}`),
              cell: (row: UserRow) => cell(field.key, row),
            })),
          ]}
          actions={{
            header: t('staff.operations'),
            cell: (row) =>
              editing?.row.user_id === row.user_id ? (
                <>
                  <Button size="xs" onClick={() => void save()} loading={saving}>
                    {t('common.save')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setEditing(undefined)}>
                    {t('common.cancel')}
                  </Button>
                </>
              ) : (
                <>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => startEdit(row)}
                    aria-label={t('staff.edit_named', { name: row.name })}
                  >
                    {t('staff.edit')}
                  </Button>
                  <PhotoUploadButton userId={row.user_id} />
                  {row.user_id !== user?.user_id && (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() => void remove(row)}
                      aria-label={t('staff.remove_named', { name: row.name })}
                    >
                      {t('staff.remove')}
                    </Button>
                  )}
                </>
              ),
          }}
          minWidth={800}
          highlightOnHover
        />
      )}
      <NewUserModal type={type} opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
