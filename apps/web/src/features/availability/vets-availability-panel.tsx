import { useMemo, useState } from 'react';
import { Button, Group, Modal, NativeSelect, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import { availabilityWeeks } from '@vetcall/shared/scheduling/slots';
import { flattenVetsAvailability } from '@vetcall/shared/scheduling/vets-availability';
import { DataTable } from '../../components/ui/data-table';
import { QueryContent } from '../../components/ui/query-content';
import { browserTimeZone, formatDateKey } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { ExportButton } from '../staff/components/export-button';
import { allAvailabilitiesQueryKey, useAllAvailabilities } from './api/availability';
import { WeeklyEditor } from './weekly-editor';

/**
 * docs/product-rules.md#manager-screens vets_availability: every vet's working hours over the ten availability weeks,
 * one row per vet and date (date, name, hours), with Export to Excel. Managers also edit a vet's weeks here
 * (docs/product-rules.md#permissions).
 */
export function VetsAvailabilityPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const availabilities = useAllAvailabilities();
  const [vetFilter, setVetFilter] = useState('');
  const [editing, setEditing] = useState<{ vetId: number; name: string } | null>(null);
  const dates = useMemo(
    () =>
      availabilityWeeks(todayKey(new Date(), browserTimeZone())).flatMap((week) => week.days.map((day) => day.date)),
    [],
  );

  function closeEditor() {
    setEditing(null);
    void queryClient.invalidateQueries({ queryKey: allAvailabilitiesQueryKey });
  }

  return (
    <QueryContent query={availabilities} errorKey="availability.load_error" emptyKey="vets_availability.no_vets">
      {(vets) => {
        const selected = vets.find((vet) => String(vet.vet_id) === vetFilter);
        const rows = flattenVetsAvailability(selected ? [selected] : vets, dates);
        return (
          <>
            <Group justify="space-between" align="flex-end" mb="md">
              <Group align="flex-end">
                <NativeSelect
                  label={t('vets_availability.vet_filter')}
                  value={vetFilter}
                  onChange={(event) => setVetFilter(event.currentTarget.value)}
                  data={[
                    { value: '', label: t('vets_availability.all_vets') },
                    ...vets.map((vet) => ({ value: String(vet.vet_id), label: vet.name })),
                  ]}
                />
                <Button
                  variant="light"
                  disabled={!selected}
                  onClick={() => selected && setEditing({ vetId: selected.vet_id, name: selected.name })}
                >
                  {t('vets_availability.edit')}
                </Button>
              </Group>
              <ExportButton list="vets-availability" query={`&tz=${encodeURIComponent(browserTimeZone())}`} />
            </Group>
            {rows.length === 0 ? (
              <Text c="dimmed">{t('vets_availability.empty')}</Text>
            ) : (
              <DataTable
                label={t('modes.manager.vets_availability')}
                rows={rows}
                rowKey={(row) => `${row.date}-${row.vet_id}`}
                columns={[
                  { header: t('vets_availability.date'), cell: (row) => formatDateKey(row.date, locale) },
                  { header: t('staff.name'), cell: (row) => row.name },
                  { header: t('vets_availability.hours'), cell: (row) => row.hours },
                  { header: t('vets_availability.timezone'), cell: (row) => row.timezone },
                ]}
                minWidth={600}
                maxHeight={420}
                scrollRegion={t('vets_availability.table_region')}
                highlightOnHover
                stickyHeader
              />
            )}
            <Modal
              opened={editing !== null}
              onClose={closeEditor}
              size="xl"
              closeButtonProps={{ 'aria-label': t('common.close') }}
              title={editing ? t('vets_availability.edit_title', { name: editing.name }) : ''}
            >
              {editing && <WeeklyEditor vetId={editing.vetId} />}
            </Modal>
          </>
        );
      }}
    </QueryContent>
  );
}
