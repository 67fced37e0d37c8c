import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { newManagerSchema, newVetSchema } from '@vetcall/shared/schemas/staff';
import { NewPasswordField } from '../../../components/ui/new-password-field';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError } from '../../../lib/api-client';
import { apiErrorMessage } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useFieldProps } from '../../../lib/use-field-props';
import { notifyInvalidForm } from '../../customers/form-messages';
import { createStaffUser, usersQueryKey } from '../api/staff';

type NewUserValues = {
  name: string;
  email: string;
  password: string;
  confirmation: string;
  phone: string;
  specialty: string;
};
const EMPTY: NewUserValues = { name: '', email: '', password: '', confirmation: '', phone: '', specialty: '' };

/**
 * docs/product-rules.md#manager-screens New Vet / New Manager, with the rules of docs/product-rules.md#validation New
 * user.
 */
export function NewUserModal({
  type,
  opened,
  onClose,
}: {
  type: 'vet' | 'manager';
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<NewUserValues>({
    initialValues: EMPTY,
    validate: schemaResolver(type === 'vet' ? newVetSchema : newManagerSchema, { sync: true }),
  });
  const field = useFieldProps(form);
  const create = useMutation({
    mutationFn: (values: NewUserValues) =>
      createStaffUser(
        type,
        type === 'vet'
          ? values
          : { name: values.name, email: values.email, password: values.password, confirmation: values.confirmation },
      ),
    onSuccess: async () => {
      notifySuccess(t('staff.user_added'));
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: usersQueryKey(type) });
    },
    onError: (error) => {
      if (error instanceof ApiError) form.setErrors(error.fields);
      notifyError(apiErrorMessage(t, error, 'errors.error_creating_new_user'));
    },
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={type === 'vet' ? t('staff.new_vet') : t('staff.new_manager')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit(
          (values) => create.mutate(values),
          (errors) => notifyInvalidForm(t, errors),
        )}
      >
        <Stack>
          <TextInput label={t('staff.name')} required data-autofocus {...field('name')} />
          <TextInput label={t('staff.email')} type="email" required {...field('email')} />
          {type === 'vet' && (
            <>
              <TextInput label={t('staff.phone')} type="tel" required {...field('phone')} />
              <TextInput label={t('staff.specialty')} required {...field('specialty')} />
            </>
          )}
          <NewPasswordField
            label={t('staff.password')}
            required
            userInputs={[form.values.email, form.values.name]}
            {...field('password')}
          />
          <PasswordField
            label={t('staff.confirmation')}
            autoComplete="new-password"
            required
            {...field('confirmation')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('staff.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
