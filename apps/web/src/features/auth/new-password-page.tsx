import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { newPasswordFormSchema } from '@vetcall/shared/schemas/auth';
import { NewPasswordField } from '../../components/ui/new-password-field';
import { PasswordField } from '../../components/ui/password-field';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { apiErrorMessage, translateFieldError } from '../../lib/form-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useFieldProps } from '../../lib/use-field-props';
import { updatePassword } from './api/password-reset';

/**
 * docs/product-rules.md#login-and-account New password: token from ?token; a mismatch shows a message and sends
 * nothing.
 */
export function NewPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const form = useForm({
    initialValues: { password: '', confirmation: '' },
    validate: schemaResolver(newPasswordFormSchema, { sync: true }),
  });
  const field = useFieldProps(form);
  const update = useMutation({
    mutationFn: (password: string) => updatePassword({ password, token }),
    onSuccess: async () => {
      notifySuccess(t('new_password.success'));
      await navigate('/');
    },
    onError: (error) => {
      // The server also refuses a password made of the account's own email or name, which this form cannot know.
      if (error instanceof ApiError && error.fields.password) {
        form.setErrors(error.fields);
        notifyError(translateFieldError(t, error.fields.password)!);
        return;
      }
      const tooMany = error instanceof ApiError && error.status === 429;
      notifyError(tooMany ? apiErrorMessage(t, error) : t('new_password.error'));
    },
  });

  return (
    <PublicLayout heading={t('new_password.heading')}>
      {token === '' ? (
        <Stack>
          <Alert color="yellow" role="alert">
            {t('new_password.missing_token')}
          </Alert>
          <Anchor component={Link} to="/resetpassword">
            {t('login.reset_password')}
          </Anchor>
        </Stack>
      ) : (
        <>
          <Text c="dimmed" size="sm" mb="lg">
            {t('new_password.intro')}
          </Text>
          <form
            noValidate
            onSubmit={form.onSubmit(
              (values) => update.mutate(values.password),
              (errors) => {
                if (errors.confirmation === 'passwords_mismatch') notifyError(t('new_password.passwords_mismatch'));
                else if (errors.password === 'weak_password') notifyError(t('validation.weak_password'));
              },
            )}
          >
            <Stack>
              <NewPasswordField label={t('new_password.password')} required {...field('password')} />
              <PasswordField
                label={t('new_password.confirmation')}
                autoComplete="new-password"
                required
                {...field('confirmation')}
              />
              <Button type="submit" loading={update.isPending} fullWidth>
                {t('new_password.submit')}
              </Button>
            </Stack>
          </form>
        </>
      )}
    </PublicLayout>
  );
}
