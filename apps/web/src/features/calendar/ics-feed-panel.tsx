import { useState } from 'react';
import { Alert, Button, CopyButton, Group, Loader, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SectionPanel } from '../../components/ui/section-panel';
import { confirmDialog } from '../../lib/confirm';
import { apiErrorMessage } from '../../lib/form-errors';
import { useBusyAction } from '../../lib/use-busy-action';
import { createIcsFeed, deleteIcsFeed, icsFeedQueryKey, useIcsFeedStatus } from './api/calendar';

/**
 * The vet's private calendar subscription (ICS): a secret URL that Google Calendar, Outlook or Apple
 * Calendar follow. The server keeps only a hash, so the URL is shown once, when it is made; making a new
 * one turns the old one off.
 */
export function IcsFeedPanel({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useIcsFeedStatus(vetId);
  const [url, setUrl] = useState<string | null>(null);
  const { busy, run } = useBusyAction();
  const enabled = status.data?.enabled ?? false;
  const errorMessage = (error: unknown) => apiErrorMessage(t, error, 'ics.error');

  async function create() {
    if (enabled) {
      const confirmed = await confirmDialog({ title: t('ics.regenerate'), message: t('ics.regenerate_confirm') });
      if (!confirmed) return;
    }
    await run(
      true,
      async () => {
        const created = await createIcsFeed(vetId);
        setUrl(created.url);
        queryClient.setQueryData(icsFeedQueryKey(vetId), { enabled: true });
        return t('ics.created');
      },
      errorMessage,
    );
  }

  async function turnOff() {
    const confirmed = await confirmDialog({
      title: t('ics.turn_off'),
      message: t('ics.turn_off_confirm'),
      danger: true,
    });
    if (!confirmed) return;
    await run(
      true,
      async () => {
        await deleteIcsFeed(vetId);
        setUrl(null);
        queryClient.setQueryData(icsFeedQueryKey(vetId), { enabled: false });
        return t('ics.turned_off');
      },
      errorMessage,
    );
  }

  return (
    <SectionPanel headingId="ics-feed-heading" title={t('ics.heading')} description={t('ics.help')}>
      {status.isError && (
        <Alert color="red" role="alert" mb="md">
          {apiErrorMessage(t, status.error, 'ics.error')}
        </Alert>
      )}
      {url && (
        <Group align="flex-end" mb="md" wrap="nowrap">
          <TextInput
            label={t('ics.url_label')}
            description={t('ics.url_once')}
            value={url}
            readOnly
            style={{ flex: 1 }}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('ics.copied') : t('ics.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      {!url && enabled && (
        <Text size="sm" mb="md">
          {t('ics.active')}
        </Text>
      )}
      {/* Until the status is known, no button: one labelled "Create" would turn into "Create a new link"
          under the pointer, and the click meant for one would land on the other. */}
      {status.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : (
        <Group>
          <Button loading={busy} onClick={() => void create()}>
            {enabled ? t('ics.regenerate') : t('ics.create')}
          </Button>
          {enabled && (
            <Button variant="default" disabled={busy} onClick={() => void turnOff()}>
              {t('ics.turn_off')}
            </Button>
          )}
        </Group>
      )}
    </SectionPanel>
  );
}
