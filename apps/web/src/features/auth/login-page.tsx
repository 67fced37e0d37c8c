import { type ChangeEvent, Suspense, lazy, useState } from 'react';
import { Anchor, Button, Divider, Group, Stack, Text, TextInput } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_ROUTE_BY_TYPE } from '@vetcall/shared/roles';
import type { LoginInput } from '@vetcall/shared/schemas/auth';
import { PasswordField } from '../../components/ui/password-field';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { authStore } from '../../lib/auth-store';
import { clientConfig } from '../../lib/client-config';
import { apiErrorMessage, translateFieldError } from '../../lib/form-errors';
import { notifyError } from '../../lib/notify';
import { loginRequest } from './api/login';
import { LanguageSelect } from './components/language-select';

/**
 * The form's check is the shared zod schema, read as the app's other forms read theirs (@mantine/form's
 * schemaResolver), but fetched when the form is first used rather than with the page (issue 16: zod and
 * @mantine/form are 30 KB gzip of the login route's budget). A blur comes after a focus, which starts the
 * fetch; a submit waits for it.
 */
let loginCheck: ((values: LoginInput) => FormErrors) | undefined;
function loadLoginCheck(): Promise<void> {
  return Promise.all([import('@vetcall/shared/schemas/auth'), import('@mantine/form')]).then(
    ([{ loginInputSchema }, { schemaResolver }]) => {
      loginCheck ??= schemaResolver(loginInputSchema, { sync: true });
    },
  );
}

/**
 * The two fields' values and errors, as @mantine/form keeps them in the app's other forms: a field's error
 * shows when it is left and on submit, and goes when it is typed in.
 */
function useLoginForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const field = (name: keyof LoginInput) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
    onBlur: () => setErrors((current) => ({ ...current, [name]: loginCheck?.(values)[name] })),
    error: translateFieldError(t, errors[name]),
  });
  /** Shows every field's error; true when there is none. */
  const validate = () => {
    const found = loginCheck?.(values) ?? {};
    setErrors(found);
    return Object.values(found).every((error) => !error);
  };
  return { values, field, validate };
}

const AboutDialog = lazy(async () => ({ default: (await import('./components/about-dialog')).AboutDialog }));

/** docs/product-rules.md#login-and-account Login: also the home of the product. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [aboutOpened, about] = useDisclosure(false);
  // Mounted from the first opening on, so its closing transition still plays.
  const [aboutWanted, setAboutWanted] = useState(false);
  const form = useLoginForm();
  const field = form.field;
  // A plain request, not TanStack Query's useMutation: the login route loads no TanStack Query (issue 16).
  const [pending, setPending] = useState(false);

  async function logIn(values: LoginInput) {
    setPending(true);
    try {
      const { token, user } = await loginRequest(values);
      authStore.setSession(token, user);
      // docs/product-rules.md#login-and-account: after login the user goes to the route of their access type. The
      // guard's redirect query can only ever name one of those routes, so it needs no separate handling.
      await navigate(HOME_ROUTE_BY_TYPE[user.type]);
    } catch (error) {
      const key = error instanceof ApiError && error.status === 401 ? 'errors.invalid_login_attempt' : undefined;
      notifyError(key ? t(key) : apiErrorMessage(t, error));
    } finally {
      setPending(false);
    }
  }

  const config = clientConfig();
  return (
    <PublicLayout heading={t('login.heading')}>
      <Text c="dimmed" size="sm" mb="lg">
        {t('login.subtitle')}
      </Text>
      <form
        onFocus={() => void loadLoginCheck()}
        onSubmit={(event) => {
          event.preventDefault();
          void loadLoginCheck().then(() => {
            if (form.validate()) void logIn(form.values);
          });
        }}
        noValidate
      >
        <Stack>
          <TextInput label={t('login.email')} type="email" autoComplete="username" required {...field('email')} />
          <PasswordField label={t('login.password')} autoComplete="current-password" required {...field('password')} />
          <Button type="submit" loading={pending} fullWidth>
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
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setAboutWanted(true);
              about.open();
            }}
          >
            {t('login.about')}
          </Anchor>
          <Anchor href={config.website_url} size="sm">
            {t('login.back_to_website')}
          </Anchor>
        </Group>
        {config.environment !== 'production' && <LanguageSelect />}
      </Group>
      {aboutWanted && (
        <Suspense fallback={null}>
          <AboutDialog opened={aboutOpened} onClose={about.close} />
        </Suspense>
      )}
    </PublicLayout>
  );
}
