import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import { authStore } from './auth-store';
import { confirmDialog } from './confirm';
import { apiErrorMessage } from './form-errors';
import { notifyError, notifySuccess } from './notify';

/**
 * SPEC §5: an email change asks for confirmation; declining restores the old email (through
 * `restore`) and the rest is saved. Answers the values to save.
 */
export async function confirmEmailChange<Values extends { email: string }>(
  values: Values,
  currentEmail: string,
  message: string,
  title: string,
  restore: (email: string) => void,
): Promise<Values> {
  if (values.email.trim().toLowerCase() === currentEmail) return values;
  if (await confirmDialog({ title, message })) return values;
  restore(currentEmail);
  return { ...values, email: currentEmail };
}

/** SPEC §4: a successful email change forces logout and a return to /. Answers whether it did. */
export function useLogoutAfterEmailChange() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (emailChanged: boolean) => {
      if (!emailChanged) return false;
      notifySuccess(t('customer_data.email_changed_logout'));
      authStore.clear();
      queryClient.clear();
      await navigate('/');
      return true;
    },
    [navigate, queryClient, t],
  );
}

/** A failed profile save: field errors onto the form, and 'email in use' or the error said in a toast. */
export function reportSaveError(
  t: TFunction,
  error: unknown,
  setErrors: (errors: Record<string, string>) => void,
  fallbackKey: string,
): void {
  if (error instanceof ApiError) setErrors(error.fields);
  const emailTaken = error instanceof ApiError && error.code === 'email_in_use';
  if (emailTaken) setErrors({ email: 'taken' });
  notifyError(emailTaken ? t('errors.email_in_use') : apiErrorMessage(t, error, fallbackKey));
}
