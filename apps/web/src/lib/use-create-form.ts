import { useState } from 'react';
import { useForm } from '@mantine/form';
import type { z } from 'zod';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { ApiError } from './api-client';
import { notifyError, notifySuccess } from './notify';

/**
 * A form that makes a new item: checked by the shared schema first (its codes onto the fields), then
 * sent; on success a toast, the form empty again and `onCreated`; on failure the server's field codes
 * onto the fields and `errorMessage` in a toast.
 */
export function useCreateForm<Values extends Record<string, unknown>, Input, Created>(options: {
  empty: () => Values;
  parse: (values: Values) => z.ZodSafeParseResult<Input>;
  create: (input: Input) => Promise<Created>;
  createdMessage: (created: Created) => string;
  errorMessage: (error: unknown) => string;
  onCreated: () => Promise<unknown>;
}) {
  const form = useForm<Values>({ initialValues: options.empty() });
  const [saving, setSaving] = useState(false);

  async function submit(values: Values) {
    const parsed = options.parse(values);
    if (!parsed.success) {
      form.setErrors(fieldErrorsFromIssues(parsed.error.issues));
      return;
    }
    setSaving(true);
    try {
      const created = await options.create(parsed.data);
      notifySuccess(options.createdMessage(created));
      form.setValues(options.empty());
      form.resetDirty(options.empty());
      await options.onCreated();
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      notifyError(options.errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return { form, saving, onSubmit: form.onSubmit((values) => void submit(values)) };
}
