import { Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ageBetween, todayKey } from '@vetcall/shared/dates';
import { DataTable } from '../../../components/ui/data-table';
import { clientConfig } from '../../../lib/client-config';
import { formatDateKey, formatNumber } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import type { DraftPet } from '../draft-pet';
import { ageLabel, fertileStatusLabel, speciesLabel } from '../pet-labels';

/** docs/product-rules.md#customer-data: Edit and Delete only while editing; Record only outside editing. */
export function PetsTable({
  pets,
  editing,
  onEdit,
  onDelete,
  onRecord,
}: {
  pets: DraftPet[];
  editing: boolean;
  onEdit: (pet: DraftPet) => void;
  onDelete: (pet: DraftPet) => void;
  onRecord: (pet: DraftPet) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const insurance = clientConfig().insurance_enabled;
  const today = todayKey(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);

  if (pets.length === 0) return <Text c="dimmed">{t('pets.none')}</Text>;
  return (
    <DataTable
      label={t('pets.table_label')}
      columns={[
        t('pets.name'),
        t('pets.species'),
        t('pets.breed'),
        t('pets.gender'),
        t('pets.birth'),
        t('pets.age'),
        t('pets.fertile_status'),
        t('pets.weight'),
        insurance && t('pets.policy'),
        t('pets.operations'),
      ]}
      minWidth={720}
      highlightOnHover
    >
      {pets.map((pet) => (
        <Table.Tr key={pet.pet_pos}>
          <Table.Td fw={600}>{pet.name}</Table.Td>
          <Table.Td>{speciesLabel(t, pet.species)}</Table.Td>
          <Table.Td>{pet.breed_label || '—'}</Table.Td>
          <Table.Td>{t(`pets.gender_${pet.gender}`)}</Table.Td>
          <Table.Td>{formatDateKey(pet.birth, locale)}</Table.Td>
          <Table.Td>{ageLabel(t, ageBetween(pet.birth, today))}</Table.Td>
          <Table.Td>{fertileStatusLabel(t, pet.fertile_status, pet.gender)}</Table.Td>
          <Table.Td>{formatNumber(pet.weight, locale)} kg</Table.Td>
          {insurance && <Table.Td>{pet.policy ?? '—'}</Table.Td>}
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              {editing ? (
                <>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => onEdit(pet)}
                    aria-label={t('pets.edit_named', { name: pet.name })}
                  >
                    {t('pets.edit')}
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onDelete(pet)}
                    aria-label={t('pets.delete_named', { name: pet.name })}
                  >
                    {t('pets.delete')}
                  </Button>
                </>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => onRecord(pet)}
                  aria-label={t('pets.record_named', { name: pet.name })}
                >
                  {t('pets.record')}
                </Button>
              )}
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
