import { Alert, Anchor, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JOIN_LINK_VALID_AFTER_START_MS } from '@vetcall/shared/constants';
import { DataList } from '../../../components/ui/data-list';
import { clientConfig } from '../../../lib/client-config';
import { formatDateKey, formatDateTime, formatNumber } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { usePetRecord } from '../api/pets';
import { ageLabel, fertileStatusLabel, speciesLabel } from '../pet-labels';

/** SPEC §4: a join link only for a confirmed appointment that started at most an hour ago. */
export function isJoinAvailable(status: string, schedule: string, now = Date.now()): boolean {
  return status === 'TK_Confirmed' && new Date(schedule).getTime() + JOIN_LINK_VALID_AFTER_START_MS >= now;
}

/** SPEC §2.14: the pet record, read-only, with its appointment history. */
export function PetRecordModal({ petId, onClose }: { petId: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const record = usePetRecord(petId, locale);
  const pet = record.data?.pet;

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
      {record.data && pet && (
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
                [t('pets.age'), ageLabel(t, record.data.age)],
                [t('pets.fertile_status'), fertileStatusLabel(t, pet.fertile_status, pet.gender)],
                [t('pets.weight'), `${formatNumber(pet.weight, locale)} kg`],
                ...(clientConfig().insurance_enabled ? [[t('pets.policy'), pet.policy ?? '—']] : []),
              ] as [string, string][]
            }
          />
          <Title order={3} size="h4" mt="md">
            {t('pet_record.history')}
          </Title>
          {record.data.history.length === 0 ? (
            <Text c="dimmed">{t('pet_record.no_history')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('pet_record.schedule')}</Table.Th>
                    <Table.Th>{t('pet_record.vet')}</Table.Th>
                    <Table.Th>{t('pet_record.status')}</Table.Th>
                    <Table.Th>{t('pet_record.status_date')}</Table.Th>
                    <Table.Th>{t('pet_record.link')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {record.data.history.map((entry) => (
                    <Table.Tr key={entry.appointment_id}>
                      <Table.Td>{formatDateTime(entry.schedule, locale)}</Table.Td>
                      <Table.Td>{entry.vet_name}</Table.Td>
                      <Table.Td>{t(`appointment_status.${entry.appointment_status_key}`)}</Table.Td>
                      <Table.Td>{formatDateTime(entry.status_date, locale)}</Table.Td>
                      <Table.Td>
                        {isJoinAvailable(entry.appointment_status_key, entry.schedule) ? (
                          <Anchor component={Link} to={`/appointment?lang=${locale}`}>
                            {t('pet_record.join')}
                          </Anchor>
                        ) : (
                          <Text size="sm" c="dimmed">
                            {t('pet_record.link_not_available')}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Modal>
  );
}
