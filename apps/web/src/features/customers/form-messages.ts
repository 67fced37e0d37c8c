import type { FormErrors } from '@mantine/form';
import type { TFunction } from 'i18next';
import { notifyError } from '../../lib/notify';

/**
 * docs/product-rules.md#errors: a mismatch of the passwords, a password too easy to guess, or missing fields, are
 * also said in a toast.
 */
export function notifyInvalidForm(t: TFunction, errors: FormErrors): void {
  const codes = Object.values(errors);
  if (codes.includes('passwords_mismatch')) notifyError(t('new_password.passwords_mismatch'));
  else if (codes.includes('required')) notifyError(t('customer.fill_all_fields'));
  else if (codes.includes('weak_password')) notifyError(t('validation.weak_password'));
  else notifyError(t('errors.validation_failed'));
}
