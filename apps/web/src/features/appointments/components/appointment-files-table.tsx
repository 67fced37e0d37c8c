import { Badge, Button, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentFile } from '@vetcall/shared/schemas/appointment';
import { DataTable } from '../../../components/ui/data-table';
import { formatDateTime } from '../../../lib/format';
import { formatFileSize } from '../file-size';
import type { PendingFile } from './use-appointment-edit';

interface FilesTableProps {
  files: AppointmentFile[];
  pending: PendingFile[];
  removals: number[];
  editing: boolean;
  canRemove: (file: AppointmentFile) => boolean;
  locale: Locale;
  onDownload: (file: AppointmentFile) => void;
  onRemove: (file: AppointmentFile) => void;
  onKeep: (file: AppointmentFile) => void;
  onDropPending: (entry: PendingFile) => void;
}

/** A row: a stored file, or one waiting for Save. */
type FileRow = { stored: AppointmentFile } | { pending: PendingFile };

/**
 * The appointment's files (docs/product-rules.md#appointment-records): the stored ones, struck through when marked for
 * removal, then the ones waiting for Save. Every file downloads; removal is offered while editing, where the rules
 * allow it.
 */
export function AppointmentFilesTable({
  files,
  pending,
  removals,
  editing,
  canRemove,
  locale,
  onDownload,
  onRemove,
  onKeep,
  onDropPending,
}: FilesTableProps) {
  const { t } = useTranslation();
  if (files.length === 0 && pending.length === 0) return <Text c="dimmed">{t('appointment.no_files')}</Text>;
  const removing = (row: FileRow) => 'stored' in row && removals.includes(row.stored.file_id);
  const nameOf = (row: FileRow) => ('stored' in row ? row.stored.file_name : row.pending.file.name);
  return (
    <DataTable<FileRow>
      label={t('appointment.files_table')}
      rows={[...files.map((stored) => ({ stored })), ...pending.map((entry) => ({ pending: entry }))]}
      rowKey={(row) => ('stored' in row ? row.stored.file_id : `pending-${row.pending.key}`)}
      columns={[
        {
          header: t('appointment.file_name'),
          cell: (row) => (
            <Text span inherit td={removing(row) ? 'line-through' : undefined}>
              {nameOf(row)}
            </Text>
          ),
          td: { style: { overflowWrap: 'anywhere' } },
        },
        {
          header: t('appointment.file_description'),
          cell: (row) => ('stored' in row ? row.stored.file_description : row.pending.description),
        },
        {
          header: t('appointment.file_type'),
          cell: (row) => ('stored' in row ? row.stored.file_type : row.pending.file.type || '—'),
        },
        {
          header: t('appointment.file_size'),
          cell: (row) => formatFileSize('stored' in row ? row.stored.file_size : row.pending.file.size, locale),
          td: { style: { whiteSpace: 'nowrap' } },
        },
        {
          header: t('appointment.upload_time'),
          cell: (row) => {
            if ('pending' in row) return <Badge variant="light">{t('appointment.pending_upload')}</Badge>;
            if (!removing(row)) return formatDateTime(row.stored.upload_time, locale);
            return (
              <Badge color="red" variant="light">
                {t('appointment.marked_for_removal')}
              </Badge>
            );
          },
        },
      ]}
      actions={{
        header: t('appointment.operations'),
        cell: (row) => {
          if ('pending' in row) {
            return (
              <Button
                size="xs"
                variant="default"
                onClick={() => onDropPending(row.pending)}
                aria-label={t('appointment.drop_pending_named', { name: row.pending.file.name })}
              >
                {t('appointment.drop_pending')}
              </Button>
            );
          }
          const file = row.stored;
          return (
            <>
              <Button
                size="xs"
                variant="light"
                onClick={() => onDownload(file)}
                aria-label={t('appointment.download_named', { name: file.file_name })}
              >
                {t('appointment.download')}
              </Button>
              {editing &&
                canRemove(file) &&
                (removing(row) ? (
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => onKeep(file)}
                    aria-label={t('appointment.keep_named', { name: file.file_name })}
                  >
                    {t('appointment.keep')}
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onRemove(file)}
                    aria-label={t('appointment.delete_named', { name: file.file_name })}
                  >
                    {t('appointment.delete')}
                  </Button>
                ))}
            </>
          );
        },
      }}
      minWidth={720}
    />
  );
}
