import { Alert, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FailedMail } from '@vetcall/shared/schemas/failed-mail';
import { DataTable } from '../../components/ui/data-table';
import { SectionPanel } from '../../components/ui/section-panel';
import { ApiError } from '../../lib/api-client';
import { confirmDialog } from '../../lib/confirm';
import { actionErrorMessage, apiErrorMessage } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useBusyAction } from '../../lib/use-busy-action';
import { dismissFailedMail, failedMailQueryKey, retryFailedMail, useFailedMail } from './api/failed-mail';

const TABLE_MAX_HEIGHT = 500;

/** How a row is named in labels and messages; a mail the server can no longer open still gets a name. */
function namesOf(t: TFunction, mail: FailedMail) {
  return {
    to: mail.to ?? t('undelivered_mail.unknown_recipient'),
    subject: mail.subject ?? t('undelivered_mail.unknown_subject'),
  };
}

/** A 404 means another manager retried or dismissed the mail meanwhile: saying so beats a generic failure. */
function failureMessage(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError && error.code === 'not_found') return t('undelivered_mail.gone');
  return actionErrorMessage(t, error, fallbackKey);
}

/**
 * Manager mode 'undelivered_mail' (ours; docs/product-rules.md#manager-screens, docs/jobs-and-mail.md#failed-mail):
 * the emails the server gave up on after three days of retries, newest first, each retried or dismissed from
 * its row. Recipients and subjects only: the server never sends the bodies (PINs, reset links).
 */
export function UndeliveredMailPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const query = useFailedMail();

  const reload = () => queryClient.invalidateQueries({ queryKey: failedMailQueryKey });
  const { busy: busyId, run } = useBusyAction<number>(reload);

  function retry(mail: FailedMail) {
    const names = namesOf(t, mail);
    return run(
      mail.id,
      async () => {
        await retryFailedMail(mail.id);
        return t('undelivered_mail.retried', names);
      },
      (error) => failureMessage(t, error, 'undelivered_mail.retry_error'),
    );
  }

  async function dismiss(mail: FailedMail) {
    const names = namesOf(t, mail);
    // Dismissing loses the email for good: asked first, as other removals are.
    const confirmed = await confirmDialog({
      title: t('undelivered_mail.dismiss_title'),
      message: t('undelivered_mail.dismiss_confirm', names),
      confirmLabel: t('undelivered_mail.dismiss'),
      danger: true,
    });
    if (!confirmed) return;
    await run(
      mail.id,
      async () => {
        await dismissFailedMail(mail.id);
        return t('undelivered_mail.dismissed', names);
      },
      (error) => failureMessage(t, error, 'undelivered_mail.dismiss_error'),
    );
  }

  function content() {
    if (query.isPending) return <Loader aria-label={t('app.loading')} />;
    if (query.isError) {
      return (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, query.error, 'undelivered_mail.load_error')}
        </Alert>
      );
    }
    const items = query.data.pages.flatMap((page) => page.items);
    if (items.length === 0) return <Text c="dimmed">{t('undelivered_mail.none')}</Text>;
    return (
      <Stack gap="sm">
        <DataTable
          label={t('undelivered_mail.table_label')}
          rows={items}
          rowKey={(mail) => mail.id}
          columns={[
            {
              header: t('undelivered_mail.recipient'),
              cell: (mail) => (
                <Text span inherit fw={600} c={mail.to === null ? 'dimmed' : undefined}>
                  {namesOf(t, mail).to}
                </Text>
              ),
            },
            {
              header: t('undelivered_mail.subject'),
              cell: (mail) => (
                <Text span inherit c={mail.subject === null ? 'dimmed' : undefined}>
                  {namesOf(t, mail).subject}
                </Text>
              ),
            },
            { header: t('undelivered_mail.attempts'), cell: (mail) => mail.attempts },
            {
              header: t('undelivered_mail.last_error'),
              // SMTP replies can be long: two lines here, the whole text on hover.
              cell: (mail) => (
                <Text size="xs" ff="monospace" lineClamp={2} title={mail.last_error ?? undefined}>
                  {mail.last_error ?? '—'}
                </Text>
              ),
              td: { maw: 280 },
            },
            { header: t('undelivered_mail.failed_at'), cell: (mail) => formatDateTime(mail.failed_at, locale) },
          ]}
          actions={{
            header: t('undelivered_mail.operations'),
            cell: (mail) => {
              const names = namesOf(t, mail);
              const busy = busyId === mail.id;
              const otherBusy = busyId !== undefined && !busy;
              return (
                <>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => void retry(mail)}
                    loading={busy}
                    disabled={otherBusy}
                    aria-label={t('undelivered_mail.retry_named', names)}
                  >
                    {t('undelivered_mail.retry')}
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => void dismiss(mail)}
                    disabled={busy || otherBusy}
                    aria-label={t('undelivered_mail.dismiss_named', names)}
                  >
                    {t('undelivered_mail.dismiss')}
                  </Button>
                </>
              );
            },
          }}
          minWidth={900}
          maxHeight={TABLE_MAX_HEIGHT}
          highlightOnHover
          stickyHeader
        />
        {query.hasNextPage && (
          <Group justify="center">
            <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
              {t('undelivered_mail.load_more')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  const total = query.data?.pages[0]?.total;
  return (
    <SectionPanel
      headingId="undelivered-mail-heading"
      title={t('undelivered_mail.heading')}
      description={t('undelivered_mail.description')}
      aside={
        total !== undefined && (
          <Badge variant="light" color={total > 0 ? 'red' : 'gray'}>
            {t('undelivered_mail.total', { count: total })}
          </Badge>
        )
      }
    >
      {content()}
    </SectionPanel>
  );
}
