import { Alert, Anchor, Button, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/ui/data-table';
import { DataList } from '../../../components/ui/data-list';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { clientConfig } from '../../../lib/client-config';
import { formatDateKey, formatDateTime, formatNumber } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { usePetRecord } from '../api/pets';
import { ageLabel, fertileStatusLabel, speciesLabel } from '../pet-labels';

/**
 * docs/product-rules.md#pet-records: the pet record, read-only, with its appointment history (a page at a time,
 * docs/decisions/015-every-list-in-keyset-pages.md); Details opens an
 * appointment (docs/product-rules.md#appointment-records) through `onOpenAppointment`. The server sends a history row's
 * `join_pin` (the viewer's own PIN) only while docs/product-rules.md#states allows the join link, so the rule lives in
 * one place.
 */
export function PetRecordModal({
  petId,
  onClose,
  onOpenAppointment,
}: {
  petId: number | undefined;
  onClose: () => void;
  onOpenAppointment?: (appointmentId: number) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const record = usePetRecord(petId, locale);
  // The pet and its age come with every page; the history is the pages' rows, newest first.
  const first = record.data?.pages[0];
  const pet = first?.pet;
  const history = record.data?.pages.flatMap((page) => page.history) ?? [];

  return (
    <Modal
      opened={petId !== undefined}
      onClose={onClose}
      title={pet ? t('pet_record.title', { name: pet.name }) : t('pet_record.title_loading')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {record.isPending && <Loader aria-label={t('app.loading')} />}
      {record.isError && <Alert color="red">{t('pet_record.load_error')}</Alert>}
      {first && pet && (
        <Stack>
          <DataList
            cols={{ base: 2, sm: 3 }}
            items={
              [
                [t('pets.name'), pet.name],
                [t('pets.species'), speciesLabel(t, pet.species)],
                [t('pets.breed'), pet.breed || '—'],
                [t('pets.gender'), t(`pets.gender_${pet.gender}`)],
                [t('pets.birth'), formatDateKey(pet.birth, locale)],
                [t('pets.age'), ageLabel(t, first.age)],
                [t('pets.fertile_status'), fertileStatusLabel(t, pet.fertile_status, pet.gender)],
                [t('pets.weight'), `${formatNumber(pet.weight, locale)} kg`],
                ...(clientConfig().insurance_enabled ? [[t('pets.policy'), pet.policy ?? '—']] : []),
              ] as [string, string][]
            }
          />
          <Title order={3} size="h4" mt="md">
            {t('pet_record.history')}
          </Title>
          {history.length === 0 ? (
            <Text c="dimmed">{t('pet_record.no_history')}</Text>
          ) : (
            <DataTable
              label={t('pet_record.history')}
              rows={history}
              rowKey={(entry) => entry.appointment_id}
              columns={[
                { header: t('pet_record.schedule'), cell: (entry) => formatDateTime(entry.schedule, locale) },
                { header: t('pet_record.vet'), cell: (entry) => entry.vet_name },
                {
                  header: t('pet_record.status'),
                  cell: (entry) => t(`appointment_status.${entry.appointment_status_key}`),
                },
                { header: t('pet_record.status_date'), cell: (entry) => formatDateTime(entry.status_date, locale) },
                {
                  header: t('pet_record.link'),
                  cell: (entry) =>
                    entry.join_pin ? (
                      <Anchor component={Link} to={`/appointment/${entry.join_pin}?lang=${locale}`}>
                        {t('pet_record.join')}
                      </Anchor>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('pet_record.link_not_available')}
                      </Text>
                    ),
                },
              ]}
              actions={
                onOpenAppointment && {
                  header: t('pet_record.details'),
                  cell: (entry) => (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onOpenAppointment(entry.appointment_id)}
                      aria-label={t('pet_record.details_named', {
                        date: formatDateTime(entry.schedule, locale),
                      })}
                    >
                      {t('pet_record.details')}
                    </Button>
                  ),
                }
              }
              minWidth={680}
            />
          )}
          <LoadMoreButton query={record} label={t('pet_record.load_more')} />
        </Stack>
      )}
    </Modal>
  );
}
