import { Anchor, Button, Grid, Group, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { customerRegistrationSchema } from '@vetcall/shared/schemas/customer';
import { PublicLayout } from '../../app/layouts/public-layout';
import { NewPasswordField } from '../../components/ui/new-password-field';
import { PasswordField } from '../../components/ui/password-field';
import { ApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useFieldProps } from '../../lib/use-field-props';
import { isEmailTaken, registerCustomer } from './api/customers';
import { CustomerFields, type CustomerFormValues } from './components/customer-fields';
import { notifyInvalidForm } from './form-messages';

type RegistrationValues = CustomerFormValues & {
  password: string;
  confirmation: string;
};

const EMPTY: RegistrationValues = {
  name: '',
  email: '',
  phone: '',
  tax_id: '',
  address: '',
  postal_code: '',
  city: '',
  state: '',
  country: 'PT',
  vet_center: '',
  password: '',
  confirmation: '',
};

/** docs/product-rules.md#login-and-account Registration: a new customer's account; then they log in. */
export function RegistrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm<RegistrationValues>({
    initialValues: EMPTY,
    validate: schemaResolver(customerRegistrationSchema, { sync: true }),
  });
  const field = useFieldProps(form);

  const register = useMutation({
    mutationFn: (values: RegistrationValues) => registerCustomer({ ...values, locale: currentLocale() }),
    onSuccess: async () => {
      notifySuccess(t('registration.success'));
      await navigate('/');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'email_in_use') {
        form.setFieldError('email', 'taken');
        notifyError(t('errors.email_in_use'));
        return;
      }
      if (error instanceof ApiError) form.setErrors(error.fields);
      notifyError(apiErrorMessage(t, error, 'errors.error_creating_new_customer'));
    },
  });

  async function checkEmailFree() {
    const { email } = form.getValues();
    if (form.validateField('email').hasError) return;
    try {
      if (await isEmailTaken(email.trim())) form.setFieldError('email', 'taken');
    } catch {
      // The server checks again on submit; a failed pre-check only loses the early hint.
    }
  }

  return (
    <PublicLayout heading={t('registration.heading')} width={720}>
      <Text c="dimmed" size="sm" mb="lg">
        {t('registration.intro')}
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit(
          (values) => register.mutate(values),
          (errors) => notifyInvalidForm(t, errors),
        )}
      >
        <Stack>
          <CustomerFields form={form} onEmailBlur={() => void checkEmailFree()} />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NewPasswordField
                label={t('registration.password')}
                description={t('new_password.intro')}
                required
                userInputs={[form.values.email, form.values.name]}
                {...field('password')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <PasswordField
                label={t('registration.confirmation')}
                autoComplete="new-password"
                required
                {...field('confirmation')}
              />
            </Grid.Col>
          </Grid>
          <Group justify="space-between" mt="sm">
            <Anchor component={Link} to="/" size="sm">
              {t('reset_password.back_to_login')}
            </Anchor>
            <Button type="submit" loading={register.isPending}>
              {t('registration.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PublicLayout>
  );
}
