import { useState } from 'react';
import { Button, FileInput, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FILE_DESCRIPTION_MAX } from '@vetcall/shared/constants';
import type { Locale } from '@vetcall/shared/locales';
import { fileDescriptionField } from '@vetcall/shared/schemas/appointment';
import { translateFieldError } from '../../../lib/form-errors';
import { notifyError } from '../../../lib/notify';
import { formatFileSize } from '../file-size';

/**
 * New file (docs/product-rules.md#appointment-records): a description and one or more files, added to the appointment's
 * pending files; nothing is uploaded before Save. Files that would take the appointment over `uploadCap` are refused
 * here.
 */
export function NewFileForm({
  uploadCap,
  keptBytes,
  locale,
  onAdd,
  onCancel,
}: {
  uploadCap: number;
  /** What the appointment holds once Save has run, without these files. */
  keptBytes: number;
  locale: Locale;
  onAdd: (description: string, files: File[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [description, setDescription] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ description?: string; files?: string }>({});

  // docs/product-rules.md#validation/#errors: over the role's cap for the appointment → 'max files size exceeded',
  // selection cleared.
  function choose(selected: File[]) {
    const chosenBytes = selected.reduce((sum, file) => sum + file.size, 0);
    if (keptBytes + chosenBytes > uploadCap) {
      notifyError(t('errors.files_too_large'));
      setFiles([]);
      return;
    }
    setFiles(selected);
    setErrors((current) => ({ ...current, files: undefined }));
  }

  function add() {
    const parsed = fileDescriptionField.safeParse(description);
    setErrors({
      description: parsed.success ? undefined : translateFieldError(t, parsed.error.issues[0]?.message),
      files: files.length === 0 ? t('appointment.new_file_missing') : undefined,
    });
    if (parsed.success && files.length > 0) onAdd(parsed.data, files);
  }

  return (
    <Paper withBorder p="md" mt="md" role="group" aria-label={t('appointment.new_file')}>
      <Stack gap="sm">
        <TextInput
          label={t('appointment.new_file_description')}
          description={t('appointment.new_file_description_hint')}
          required
          maxLength={FILE_DESCRIPTION_MAX}
          value={description}
          error={errors.description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        <FileInput
          label={t('appointment.new_file_choose')}
          description={t('appointment.new_file_cap', { size: formatFileSize(uploadCap, locale) })}
          required
          multiple
          clearable
          clearButtonProps={{ 'aria-label': t('appointment.new_file_clear') }}
          value={files}
          error={errors.files}
          onChange={choose}
          placeholder={t('appointment.new_file_placeholder')}
          // Mantine's default placeholder grey is below WCAG AA contrast.
          styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
        />
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button size="xs" onClick={add}>
            {t('appointment.new_file_add')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
