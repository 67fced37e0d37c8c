import { useEffect, useRef } from 'react';
import { Alert, Loader } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { currentMode } from '../../app/modes';
import { useSession } from '../../lib/auth-store';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError } from '../../lib/notify';
import { VetAppointmentsPanel } from '../appointments/components/vet-appointments-panel';
import { VetCustomersTable } from '../appointments/components/vet-customers-table';
import { SlotsMonthView } from '../availability/slots-month-view';
import { WeeklyEditor } from '../availability/weekly-editor';
import { useVetProfile } from '../staff/api/staff';

/** The modes that need the vet's calendar (docs/product-rules.md#vet-screens). */
const AVAILABILITY_MODES = new Set(['availabilityconfig', 'availabilityslots']);

/**
 * docs/product-rules.md#vet-screens Vet mode: one screen per mode, chosen in the navbar (?mode=). The availability
 * modes need a linked calendar; without one the vet is sent to /vetdata, where the calendar is linked. The customers
 * and appointments modes need only the vet's id.
 */
export function VetPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const isVet = user?.type === 'vet';
  const vet = useVetProfile(isVet ? user.email : undefined);
  const mode = currentMode('vet', search);
  const needsCalendar = AVAILABILITY_MODES.has(mode);
  const mustLinkCalendar = needsCalendar && vet.data !== undefined && !vet.data.calendar_linked;
  const redirected = useRef(false);

  useEffect(() => {
    if (!mustLinkCalendar || redirected.current) return;
    redirected.current = true;
    notifyError(t('availability.calendar_not_linked'));
    void navigate(`/vetdata?lang=${currentLocale()}&access=vet`);
  }, [mustLinkCalendar, navigate, t]);

  if (!isVet) return null;

  function content() {
    if (vet.isPending) return <Loader aria-label={t('app.loading')} />;
    if (vet.isError) {
      return (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, vet.error, needsCalendar ? 'availability.load_error' : 'staff.load_error')}
        </Alert>
      );
    }
    if (mode === 'customers') return <VetCustomersTable vetId={vet.data.vet_id} />;
    if (mode === 'appointments') return <VetAppointmentsPanel vetId={vet.data.vet_id} />;
    if (!vet.data.calendar_linked) return null;
    if (mode === 'availabilityconfig') return <WeeklyEditor vetId={vet.data.vet_id} />;
    return <SlotsMonthView vetId={vet.data.vet_id} />;
  }

  return (
    <AuthenticatedLayout heading={t(`modes.vet.${mode}`)}>
      <div data-testid="mode-content" data-mode={mode}>
        {content()}
      </div>
    </AuthenticatedLayout>
  );
}
