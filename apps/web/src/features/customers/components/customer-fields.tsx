import { Grid, Loader, Select, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { POSTAL_COUNTRIES, postalCodePatterns } from '@vetcall/shared/schemas/postal-code';
import { useFieldProps } from '../../../lib/use-field-props';
import { type AddressValues, usePostalCodeLookup } from './use-postal-code-lookup';

export type CustomerFormValues = AddressValues & {
  name: string;
  email: string;
  phone: string;
  tax_id: string;
  vet_center: string;
};

const POSTAL_PLACEHOLDERS = { PT: '1000-001', US: '90210', BR: '01001-000' } as const;

/** The customer fields of docs/product-rules.md#entities, shared by registration and the customer data screen. */
export function CustomerFields<Values extends CustomerFormValues>({
  form,
  onEmailBlur,
}: {
  form: UseFormReturnType<Values>;
  onEmailBlur?: () => void;
}) {
  const { t } = useTranslation();
  const field = useFieldProps(form);
  const postal = usePostalCodeLookup(form);
  const country = form.getValues().country;

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t('customer.name')} autoComplete="name" required {...field('name')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput
          label={t('customer.email')}
          type="email"
          autoComplete="email"
          required
          {...field('email')}
          onBlur={(event) => {
            field('email').onBlur?.(event);
            onEmailBlur?.();
          }}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t('customer.phone')} type="tel" autoComplete="tel" required {...field('phone')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t('customer.tax_id')} required {...field('tax_id')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <Select
          label={t('customer.country')}
          required
          allowDeselect={false}
          data={POSTAL_COUNTRIES.map((code) => ({ value: code, label: t(`countries.${code}`) }))}
          {...field('country')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput
          label={t('customer.postal_code')}
          placeholder={POSTAL_PLACEHOLDERS[country]}
          autoComplete="postal-code"
          required
          rightSection={postal.status === 'loading' ? <Loader size="xs" aria-label={t('app.loading')} /> : null}
          {...field('postal_code')}
          onChange={(event) => {
            const value = event.currentTarget.value;
            field('postal_code').onChange(event);
            // A complete code is looked up at once; a partial one waits for the field to be left.
            if (postalCodePatterns[country].test(value)) void postal.lookUp(value);
          }}
          onBlur={() => void postal.lookUp()}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput label={t('customer.city')} autoComplete="address-level2" required {...field('city')} />
      </Grid.Col>
      {postal.status === 'unavailable' && (
        <Grid.Col span={12}>
          <Text size="sm" c="orange.9" role="status">
            {t('customer.postal_lookup_unavailable')}
          </Text>
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput label={t('customer.state')} autoComplete="address-level1" required {...field('state')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <TextInput label={t('customer.address')} autoComplete="street-address" required {...field('address')} />
      </Grid.Col>
      <Grid.Col span={12}>
        <TextInput
          label={t('customer.vet_center')}
          description={t('customer.vet_center_hint')}
          {...field('vet_center')}
        />
      </Grid.Col>
    </Grid>
  );
}
