import { useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isValidPostalCode, normalizePostalCode, type PostalCountry } from '@vetcall/shared/schemas/postal-code';
import { ApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { lookupPostalCode } from '../api/postal-codes';

export type AddressValues = {
  postal_code: string;
  city: string;
  state: string;
  address: string;
  country: PostalCountry;
};

/**
 * docs/product-rules.md#validation Postal code: a valid code fills city, state and address from the lookup; an invalid
 * one puts the invalid-postal-code message on the city field, clears state and address and sets the country to
 * Portugal. When the lookup service cannot be reached, the person is told and types the fields.
 */
export function usePostalCodeLookup<Values extends AddressValues>(form: UseFormReturnType<Values>) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'idle' | 'loading' | 'unavailable'>('idle');
  const set = form.setFieldValue as (path: keyof AddressValues, value: string) => void;

  function markInvalid() {
    set('state', '');
    set('address', '');
    set('country', 'PT');
    form.setFieldError('city', 'invalid_postal_code');
    notifyError(t('customer.invalid_postal_code'));
  }

  async function lookUp(rawCode = form.getValues().postal_code) {
    const country = form.getValues().country;
    const code = normalizePostalCode(country, rawCode);
    if (code === '') return;
    if (!isValidPostalCode(country, code)) return markInvalid();
    if (code !== rawCode) set('postal_code', code);
    setStatus('loading');
    try {
      const found = await lookupPostalCode(country, code);
      set('city', found.city);
      set('state', found.state);
      if (found.address) set('address', found.address);
      form.clearFieldError('city');
      setStatus('idle');
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        setStatus('idle');
        markInvalid();
      } else {
        setStatus('unavailable');
      }
    }
  }

  return { status, lookUp };
}
