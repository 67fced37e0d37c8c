import { Anchor, Button, Divider, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_ROUTE_BY_TYPE } from '@vetcall/shared/roles';
import { type LoginInput, loginInputSchema } from '@vetcall/shared/schemas/auth';
import { PasswordField } from '../../components/ui/password-field';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { authStore } from '../../lib/auth-store';
import { clientConfig } from '../../lib/client-config';
import { apiErrorMessage } from '../../lib/form-errors';
import { notifyError } from '../../lib/notify';
import { useFieldProps } from '../../lib/use-field-props';
import { loginRequest } from './api/login';
import { LanguageSelect } from './components/language-select';

/** docs/product-rules.md#login-and-account Login: also the home of the product. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [aboutOpened, about] = useDisclosure(false);
  const form = useForm<LoginInput>({
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginInputSchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const field = useFieldProps(form);

  const login = useMutation({
    mutationFn: loginRequest,
    onSuccess: async ({ token, user }) => {
      authStore.setSession(token, user);
      // docs/product-rules.md#login-and-account: after login the user goes to the route of their access type. The
      // guard's redirect query can only ever name one of those routes, so it needs no separate handling.
      await navigate(HOME_ROUTE_BY_TYPE[user.type]);
    },
    onError: (error) => {
      const key = error instanceof ApiError && error.status === 401 ? 'errors.invalid_login_attempt' : undefined;
      notifyError(key ? t(key) : apiErrorMessage(t, error));
    },
  });

  const config = clientConfig();
  return (
    <PublicLayout heading={t('login.heading')}>
      <Text c="dimmed" size="sm" mb="lg">
        {t('login.subtitle')}
      </Text>
      <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
        <Stack>
          <TextInput label={t('login.email')} type="email" autoComplete="username" required {...field('email')} />
          <PasswordField label={t('login.password')} autoComplete="current-password" required {...field('password')} />
          <Button type="submit" loading={login.isPending} fullWidth>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      <Group justify="space-between" mt="md">
        <Anchor component={Link} to="/registration" size="sm">
          {t('login.new_customer')}
        </Anchor>
        <Anchor component={Link} to="/resetpassword" size="sm">
          {t('login.reset_password')}
        </Anchor>
      </Group>
      <Divider my="lg" />
      <Group justify="space-between" align="flex-end">
        <Group gap="md">
          <Anchor component="button" type="button" size="sm" onClick={about.open}>
            {t('login.about')}
          </Anchor>
          <Anchor href={config.website_url} size="sm">
            {t('login.back_to_website')}
          </Anchor>
        </Group>
        {config.environment !== 'production' && <LanguageSelect />}
      </Group>
      <Modal
        opened={aboutOpened}
        onClose={about.close}
        title={t('login.about_title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Text>{t('login.about_text')}</Text>
      </Modal>
    </PublicLayout>
  );
}
