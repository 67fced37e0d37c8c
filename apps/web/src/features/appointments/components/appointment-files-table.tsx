import { Badge, Button, Group, Table, Text } from '@mantine/core';
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

/**
 * The appointment's files (docs/product-rules.md#appointment-records): the stored ones, struck through when marked for
 * removal, then the ones waiting for Save. Every file downloads; removal is offered while editing, where the rules
 * allow it.
 */
export function AppointmentFilesTable({ files, pending, locale, onDropPending, ...storedProps }: FilesTableProps) {
  const { t } = useTranslation();
  if (files.length === 0 && pending.length === 0) return <Text c="dimmed">{t('appointment.no_files')}</Text>;
  return (
    <DataTable
      label={t('appointment.files_table')}
      columns={[
        t('appointment.file_name'),
        t('appointment.file_description'),
        t('appointment.file_type'),
        t('appointment.file_size'),
        t('appointment.upload_time'),
        t('appointment.operations'),
      ]}
      minWidth={720}
    >
      {files.map((file) => (
        <StoredFileRow key={file.file_id} file={file} locale={locale} {...storedProps} />
      ))}
      {pending.map((entry) => (
        <PendingFileRow key={`pending-${entry.key}`} entry={entry} locale={locale} onDrop={onDropPending} />
      ))}
    </DataTable>
  );
}

function StoredFileRow({
  file,
  removals,
  editing,
  canRemove,
  locale,
  onDownload,
  onRemove,
  onKeep,
}: Omit<FilesTableProps, 'files' | 'pending' | 'onDropPending'> & { file: AppointmentFile }) {
  const { t } = useTranslation();
  const removing = removals.includes(file.file_id);
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere', textDecoration: removing ? 'line-through' : undefined }}>
        {file.file_name}
      </Table.Td>
      <Table.Td>{file.file_description}</Table.Td>
      <Table.Td>{file.file_type}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(file.file_size, locale)}</Table.Td>
      <Table.Td>
        {removing ? (
          <Badge color="red" variant="light">
            {t('appointment.marked_for_removal')}
          </Badge>
        ) : (
          formatDateTime(file.upload_time, locale)
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
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
            (removing ? (
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
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function PendingFileRow({
  entry,
  locale,
  onDrop,
}: {
  entry: PendingFile;
  locale: Locale;
  onDrop: (entry: PendingFile) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.file.name}</Table.Td>
      <Table.Td>{entry.description}</Table.Td>
      <Table.Td>{entry.file.type || '—'}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(entry.file.size, locale)}</Table.Td>
      <Table.Td>
        <Badge variant="light">{t('appointment.pending_upload')}</Badge>
      </Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          onClick={() => onDrop(entry)}
          aria-label={t('appointment.drop_pending_named', { name: entry.file.name })}
        >
          {t('appointment.drop_pending')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
