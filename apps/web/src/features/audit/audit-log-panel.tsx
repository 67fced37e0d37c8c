import { useState } from 'react';
import { Alert, Button, Group, Loader, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, auditActionKey, auditGroupKey } from '@vetcall/shared/audit-actions';
import type { AuditEventDto } from '@vetcall/shared/schemas/audit';
import { DataTable } from '../../components/ui/data-table';
import { LoadMoreButton } from '../../components/ui/load-more-button';
import { SectionPanel } from '../../components/ui/section-panel';
import { clientConfig } from '../../lib/client-config';
import { apiErrorMessage } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { notifyError } from '../../lib/notify';
import { type AuditFilterValues, downloadAuditLog, useAuditLog } from './api/audit';

const EMPTY_FILTERS: AuditFilterValues = { actor: '', action: '', from: '', to: '' };
/** Typing an email part refetches once the typing pauses, not at every key. */
const ACTOR_DEBOUNCE_MS = 300;
const TABLE_MAX_HEIGHT = 600;
/** The filters' row: labelled inputs, the buttons lined up with the inputs (below their labels). */
const BELOW_INPUT_LABEL = 'calc(var(--mantine-font-size-sm) * var(--mantine-line-height))';

function actorOf(t: TFunction, event: AuditEventDto) {
  const role = event.actor_role ? t(`audit.roles.${event.actor_role}`) : null;
  if (!event.actor_email) return t('audit.system');
  return role ? `${event.actor_email} (${role})` : event.actor_email;
}

function subjectOf(t: TFunction, event: AuditEventDto) {
  if (!event.subject_type) return '—';
  const name = t(`audit.subjects.${event.subject_type}`, { defaultValue: event.subject_type });
  return event.subject_id === null ? name : `${name} #${event.subject_id}`;
}

/**
 * Manager mode 'audit' (ours; docs/audit-log.md): who did what, when and from where, newest first, filtered by a
 * part of the actor's email, an action or a group of actions, and days of the clinic's time zone; the same
 * selection exports to Excel.
 */
export function AuditLogPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [filters, setFilters] = useState<AuditFilterValues>(EMPTY_FILTERS);
  const [actor] = useDebouncedValue(filters.actor, ACTOR_DEBOUNCE_MS);
  const [exporting, setExporting] = useState(false);
  const rangeReversed = filters.from !== '' && filters.to !== '' && filters.to < filters.from;
  const applied = { ...filters, actor };
  const query = useAuditLog(applied, !rangeReversed);

  async function exportExcel() {
    setExporting(true);
    try {
      await downloadAuditLog(applied, locale);
    } catch (error) {
      notifyError(apiErrorMessage(t, error));
    } finally {
      setExporting(false);
    }
  }

  const actionOptions = [
    { value: '', label: t('audit.all_actions') },
    ...AUDIT_ACTION_GROUPS.map((group) => ({ value: group, label: t(auditGroupKey(group)) })),
    ...AUDIT_ACTIONS.map((action) => ({ value: action, label: t(auditActionKey(action)) })),
  ];

  function content() {
    if (rangeReversed) return null;
    if (query.isPending) return <Loader aria-label={t('app.loading')} />;
    // A failed Load more keeps the rows already shown, with the error under them.
    const error = query.isError && (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, query.error, 'audit.load_error')}
      </Alert>
    );
    if (!query.data) return error;
    const items = query.data.pages.flatMap((page) => page.items);
    if (items.length === 0) return <Text c="dimmed">{t('audit.none')}</Text>;
    return (
      <Stack gap="sm">
        <DataTable
          label={t('audit.table_label')}
          rows={items}
          rowKey={(event) => event.id}
          columns={[
            { header: t('audit.when'), cell: (event) => formatDateTime(event.occurred_at, locale) },
            { header: t('audit.who'), cell: (event) => actorOf(t, event) },
            {
              header: t('audit.what'),
              cell: (event) => (
                <Text span inherit fw={600}>
                  {t(auditActionKey(event.action))}
                </Text>
              ),
            },
            { header: t('audit.subject'), cell: subjectOf.bind(null, t) },
            {
              header: t('audit.from_where'),
              cell: (event) => (
                <Text span size="xs" title={event.user_agent ?? undefined}>
                  {event.ip ?? '—'}
                </Text>
              ),
            },
            {
              header: t('audit.details'),
              cell: (event) =>
                Object.keys(event.details).length === 0 ? (
                  '—'
                ) : (
                  <Text size="xs" ff="monospace" lineClamp={2} title={JSON.stringify(event.details)}>
                    {JSON.stringify(event.details)}
                  </Text>
                ),
              td: { maw: 280 },
            },
          ]}
          minWidth={960}
          maxHeight={TABLE_MAX_HEIGHT}
          scrollRegion={t('audit.table_region')}
          highlightOnHover
          stickyHeader
        />
        {query.isFetchNextPageError && error}
        <LoadMoreButton query={query} label={t('audit.load_more')} />
      </Stack>
    );
  }

  return (
    <SectionPanel headingId="audit-log-heading" title={t('audit.heading')} description={t('audit.description')}>
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Group align="flex-start">
            <TextInput
              label={t('audit.actor')}
              type="search"
              value={filters.actor}
              onChange={(event) => setFilters({ ...filters, actor: event.currentTarget.value })}
            />
            <NativeSelect
              label={t('audit.action')}
              value={filters.action}
              data={actionOptions}
              onChange={(event) => setFilters({ ...filters, action: event.currentTarget.value })}
            />
            <DateInput
              label={t('audit.from')}
              clearable
              value={filters.from || null}
              onChange={(date) => setFilters({ ...filters, from: date ?? '' })}
            />
            <DateInput
              label={t('audit.to')}
              clearable
              value={filters.to || null}
              error={rangeReversed ? t('audit.to_before_from') : undefined}
              onChange={(date) => setFilters({ ...filters, to: date ?? '' })}
            />
            <Button variant="default" mt={BELOW_INPUT_LABEL} onClick={() => setFilters(EMPTY_FILTERS)}>
              {t('audit.reset_filter')}
            </Button>
          </Group>
          <Button
            variant="default"
            mt={BELOW_INPUT_LABEL}
            onClick={() => void exportExcel()}
            loading={exporting}
            disabled={rangeReversed}
          >
            {t('audit.export_excel')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('audit.time_zone_note', { zone: clientConfig().clinic_time_zone })}
        </Text>
        {content()}
      </Stack>
    </SectionPanel>
  );
}
