import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from './form-errors';

/** `form.getInputProps` with the field's error code translated into the current language. */
export function useFieldProps<Values extends Record<string, unknown>>(form: UseFormReturnType<Values>) {
  const { t } = useTranslation();
  return (name: keyof Values & string, options?: Parameters<typeof form.getInputProps>[1]) => {
    const props = form.getInputProps(name, options);
    return { ...props, error: translateFieldError(t, props.error) };
  };
}
