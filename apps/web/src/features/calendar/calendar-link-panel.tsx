import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Vet } from '@vetcall/shared/schemas/staff';
import { SectionPanel } from '../../components/ui/section-panel';
import { confirmDialog } from '../../lib/confirm';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import { fetchAuthorizeUrl, removeCalendarAssociation } from './api/calendar';

/**
 * docs/product-rules.md#vet-screens /vetdata calendar linking (#states Calendar linking): Link starts the provider's
 * authorisation (it comes back at /auth/callback); Unlink removes the association.
 */
export function CalendarLinkPanel({ vet }: { vet: Vet }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function link() {
    setBusy(true);
    try {
      const { url } = await fetchAuthorizeUrl(vet.vet_id, currentLocale());
      window.location.assign(url);
    } catch (error) {
      notifyError(apiErrorMessage(t, error, 'calendar.link_error'));
      setBusy(false);
    }
  }

  async function unlink() {
    const confirmed = await confirmDialog({
      title: t('calendar.unlink'),
      message: t('calendar.unlink_confirm'),
      confirmLabel: t('calendar.unlink'),
      danger: true,
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await removeCalendarAssociation(vet.vet_id);
      await queryClient.invalidateQueries({ queryKey: ['vet-profile'] });
      notifySuccess(t('calendar.association_removed'));
    } catch (error) {
      notifyError(apiErrorMessage(t, error, 'calendar.unlink_error'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SectionPanel
      headingId="calendar-link-heading"
      title={t('calendar.heading')}
      description={t(vet.calendar_linked ? 'calendar.linked_help' : 'calendar.unlinked_help')}
      aside={
        <Badge color={vet.calendar_linked ? 'teal.9' : 'gray.7'} variant="filled">
          {vet.calendar_linked ? t('staff.calendar_linked') : t('staff.calendar_not_linked')}
        </Badge>
      }
      asideAlign="flex-start"
    >
      {vet.calendar_linked ? (
        <Button variant="default" color="red" loading={busy} onClick={() => void unlink()}>
          {t('calendar.unlink')}
        </Button>
      ) : (
        <Button loading={busy} onClick={() => void link()}>
          {t('calendar.link')}
        </Button>
      )}
    </SectionPanel>
  );
}
