import { useEffect, useState } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ACCESS_CODE_MIN, normalizeAccessCode } from '@vetcall/shared/schemas/access-code';
import { ApiError } from '../../lib/api-client';
import { tooManyRequestsMessage } from '../../lib/form-errors';
import { validateAccessCode } from '../access-codes/api/access-codes';

export interface AccessCodeState {
  value: string;
  /**
   * docs/product-rules.md#states Access code: unchecked, valid (included = free) or invalid; `limited` when the
   * check itself was refused (429), which says nothing about the code.
   */
  status: 'unchecked' | 'checking' | 'valid' | 'invalid' | 'limited';
  included: boolean;
  /** With `limited`: the answer's Retry-After. */
  retryAfterSeconds?: number;
}

/** Pause after typing before the code is checked. */
const CHECK_DELAY_MS = 400;

/**
 * docs/product-rules.md#booking, #validation: the access code, checked live (trimmed); the message under the field says
 * 'ValidAccessCode' or 'InvalidAccessCode' (also when the check call fails, docs/product-rules.md#errors), or when
 * to try again if the check was rate-limited.
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
    // Shorter than any code: invalid without asking (and without spending the person's wrong-code budget).
    if (code.length < ACCESS_CODE_MIN) {
      onChange({ value: code, status: 'invalid', included: false });
      return;
    }
    onChange({ value: code, status: 'checking', included: false });
    let current = true;
    const timer = window.setTimeout(() => {
      validateAccessCode(code)
        .then((result) => {
          if (current) onChange({ value: code, status: result.valid ? 'valid' : 'invalid', included: result.included });
        })
        .catch((error: unknown) => {
          if (!current) return;
          if (error instanceof ApiError && error.status === 429) {
            onChange({ value: code, status: 'limited', included: false, retryAfterSeconds: error.retryAfterSeconds });
          } else onChange({ value: code, status: 'invalid', included: false });
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
      error={
        state.status === 'invalid'
          ? t('booking.InvalidAccessCode')
          : state.status === 'limited'
            ? tooManyRequestsMessage(t, state.retryAfterSeconds)
            : undefined
      }
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
