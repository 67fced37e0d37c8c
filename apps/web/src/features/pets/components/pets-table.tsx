import { Button, Text } from '@mantine/core';
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
      rows={pets}
      rowKey={(pet) => pet.pet_pos}
      columns={[
        { header: t('pets.name'), cell: (pet) => pet.name, td: { fw: 600 } },
        { header: t('pets.species'), cell: (pet) => speciesLabel(t, pet.species) },
        { header: t('pets.breed'), cell: (pet) => pet.breed_label || '—' },
        { header: t('pets.gender'), cell: (pet) => t(`pets.gender_${pet.gender}`) },
        { header: t('pets.birth'), cell: (pet) => formatDateKey(pet.birth, locale) },
        { header: t('pets.age'), cell: (pet) => ageLabel(t, ageBetween(pet.birth, today)) },
        { header: t('pets.fertile_status'), cell: (pet) => fertileStatusLabel(t, pet.fertile_status, pet.gender) },
        { header: t('pets.weight'), cell: (pet) => `${formatNumber(pet.weight, locale)} kg` },
        insurance && { header: t('pets.policy'), cell: (pet) => pet.policy ?? '—' },
      ]}
      actions={{
        header: t('pets.operations'),
        cell: (pet) =>
          editing ? (
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
          ),
      }}
      minWidth={720}
      highlightOnHover
    />
  );
}
