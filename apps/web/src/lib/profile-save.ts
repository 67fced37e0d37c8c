import { useCallback, useState } from 'react';
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
 * docs/product-rules.md#validation: an email change asks for confirmation; declining restores the old email (through
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

/** docs/product-rules.md#states: a successful email change forces logout and a return to /. Answers whether it did. */
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

/**
 * The save of an own-profile screen: confirm an email change, send, toast, log out when the email
 * changed, otherwise leave editing and reload. Answers `save` and whether it is running.
 */
export function useProfileSave<Values extends { email: string }>(options: {
  currentEmail: string;
  emailChangeMessage: (email: string) => string;
  update: (values: Values) => Promise<{ email_changed: boolean }>;
  queryKey: readonly unknown[];
  setEmail: (email: string) => void;
  setErrors: (errors: Record<string, string>) => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const logoutAfterEmailChange = useLogoutAfterEmailChange();
  const [saving, setSaving] = useState(false);

  async function save(values: Values) {
    const input = await confirmEmailChange(
      values,
      options.currentEmail,
      options.emailChangeMessage(values.email),
      t('customer_data.email_change_title'),
      options.setEmail,
    );
    setSaving(true);
    try {
      const result = await options.update(input);
      notifySuccess(t('staff.data_edited'));
      if (await logoutAfterEmailChange(result.email_changed)) return;
      options.onSaved();
      await queryClient.invalidateQueries({ queryKey: options.queryKey });
    } catch (error) {
      reportSaveError(t, error, options.setErrors, 'staff.error_updating');
    } finally {
      setSaving(false);
    }
  }

  return { save, saving };
}
