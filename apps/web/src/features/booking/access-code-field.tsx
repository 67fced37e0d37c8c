import { useEffect, useState } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { normalizeAccessCode } from '@vetcall/shared/schemas/access-code';
import { validateAccessCode } from '../access-codes/api/access-codes';

export interface AccessCodeState {
  value: string;
  /** docs/product-rules.md#states Access code: unchecked, valid (included = free) or invalid. */
  status: 'unchecked' | 'checking' | 'valid' | 'invalid';
  included: boolean;
}

/** Pause after typing before the code is checked. */
const CHECK_DELAY_MS = 400;

/**
 * docs/product-rules.md#booking, #validation: the access code, checked live (trimmed); the message under the field says
 * 'ValidAccessCode' or 'InvalidAccessCode' (also when the check call fails, docs/product-rules.md#errors).
 */
export function AccessCodeField({
  state,
  onChange,
}: {
  state: AccessCodeState;
  onChange: (state: AccessCodeState) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(state.value);

  useEffect(() => {
    const code = normalizeAccessCode(text);
    if (!code) {
      onChange({ value: '', status: 'unchecked', included: false });
      return;
    }
    onChange({ value: code, status: 'checking', included: false });
    let current = true;
    const timer = window.setTimeout(() => {
      validateAccessCode(code)
        .then((result) => {
          if (current) onChange({ value: code, status: result.valid ? 'valid' : 'invalid', included: result.included });
        })
        .catch(() => {
          if (current) onChange({ value: code, status: 'invalid', included: false });
        });
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
    // onChange is the parent's state setter: stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  return (
    <TextInput
      label={t('booking.access_code')}
      required
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      error={state.status === 'invalid' ? t('booking.InvalidAccessCode') : undefined}
      description={
        state.status === 'valid'
          ? state.included
            ? t('booking.ValidAccessCode_free')
            : t('booking.ValidAccessCode')
          : t('booking.access_code_help')
      }
      aria-live="polite"
    />
  );
}
