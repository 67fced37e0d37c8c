import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { type PasswordResetRequest, resetPasswordFormSchema } from '@vetcall/shared/schemas/auth';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useFieldProps } from '../../lib/use-field-props';
import { sendPasswordResetEmail } from './api/password-reset';

/** docs/product-rules.md#login-and-account Reset password: sends a link in the current language, then goes to /. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<PasswordResetRequest>({
    initialValues: { email: '' },
    validate: schemaResolver(resetPasswordFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const field = useFieldProps(form);
  const send = useMutation({
    mutationFn: (email: string) => sendPasswordResetEmail(email, currentLocale()),
    onSuccess: async () => {
      notifySuccess(t('reset_password.link_sent'));
      await navigate('/');
    },
    onError: (error) => {
      const tooMany = error instanceof ApiError && error.status === 429;
      notifyError(tooMany ? apiErrorMessage(t, error) : t('reset_password.error_sending'));
    },
  });

  return (
    <PublicLayout heading={t('reset_password.heading')}>
      <Text c="dimmed" size="sm" mb="lg">
        {t('reset_password.intro')}
      </Text>
      <form onSubmit={form.onSubmit((values) => send.mutate(values.email))} noValidate>
        <Stack>
          <TextInput label={t('reset_password.email')} type="email" autoComplete="email" required {...field('email')} />
          <Button type="submit" loading={send.isPending} fullWidth>
            {t('reset_password.submit')}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            {t('reset_password.back_to_login')}
          </Anchor>
        </Stack>
      </form>
    </PublicLayout>
  );
}
