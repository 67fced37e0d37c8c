import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import { type AppointmentInfo, confirmAppointmentSchema } from '@vetcall/shared/schemas/booking';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { actionErrorMessage, apiErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFieldProps } from '../../lib/use-field-props';
import { confirmAppointment, fetchAppointmentInfo } from './api/confirmation';
import { DateTime24Input } from './datetime-24-input';
import { parseLocalInputValue, timezoneDiffAt, toConfirmSchedule, toLocalInputValue } from './schedule-input';

/** The vet confirms a requested appointment, or confirms a confirmed one again to get the same PIN. */
const CONFIRMABLE: readonly AppointmentStatus[] = ['TK_Requested', 'TK_Confirmed'];

/** Answers the vet can act on without leaving the form; anything else is 'Cant activate this appointment!'. */
const FORM_ERROR_CODES = new Set([
  'slot_taken',
  'too_many_requests',
  'network_error',
  'internal_error',
  'validation_failed',
]);

type ConfirmFormValues = {
  schedule: string;
  email: string;
};

const startOfCurrentMinute = () => Math.floor(Date.now() / 60_000) * 60_000;

const confirmFormSchema = z.object({
  schedule: z
    .string()
    .min(1, { error: 'required' })
    .refine((value) => parseLocalInputValue(value) !== undefined, { error: 'invalid_format' })
    .refine((value) => (parseLocalInputValue(value)?.getTime() ?? Infinity) >= startOfCurrentMinute(), {
      error: 'in_the_past',
    }),
  email: confirmAppointmentSchema.shape.email,
});

function useConfirmForm(bookedSchedule: string) {
  return useForm<ConfirmFormValues>({
    initialValues: { schedule: toLocalInputValue(new Date(bookedSchedule)), email: '' },
    validate: schemaResolver(confirmFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });
}
type ConfirmFormState = ReturnType<typeof useConfirmForm>;

/** Where the focus goes when the form comes back: the field the answer points at. */
type FocusField = 'schedule' | 'email';

type Phase =
  | { name: 'form'; focus?: FocusField }
  | { name: 'confirming' }
  | { name: 'confirmed'; pin: string }
  | { name: 'failed'; detail?: string };

/**
 * docs/product-rules.md#confirmation-page /confirmappointment/{hash}: the vet's link from the request email. The vet
 * checks the date-time (24-hour, in the browser's zone, prefilled with the booked time) and types the registered
 * email; then 'confirming', then 'Appointment confirmed' with 'Access appointment', or 'Cant activate this
 * appointment!' with 'Check inserted email' back to the form, values kept (docs/product-rules.md#states Confirmation).
 */
export function ConfirmAppointmentPage() {
  const { t } = useTranslation();
  const hash = useParams().hash ?? '';
  const info = useQuery({
    queryKey: ['appointment-info', hash],
    queryFn: ({ signal }) => fetchAppointmentInfo(hash, signal),
    // An unknown link stays unknown; only a failed connection or a server error is worth a second try.
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status > 0 && error.status < 500),
  });

  return (
    <PublicLayout heading={t('confirm_appointment.heading')} width={520}>
      {info.isPending && <Loader aria-label={t('app.loading')} />}
      {info.isError && (
        <Alert color="red" role="alert">
          {actionErrorMessage(t, info.error, 'confirm_appointment.load_error')}
        </Alert>
      )}
      {info.data && <Confirmation info={info.data} />}
    </PublicLayout>
  );
}

function Confirmation({ info }: { info: AppointmentInfo }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ name: 'form' });
  const [formError, setFormError] = useState<string | null>(null);
  // The form lives here, above the phases, so 'Check inserted email' finds the values as they were.
  const form = useConfirmForm(info.schedule);

  const confirm = useMutation({
    mutationFn: (values: ConfirmFormValues) => {
      const instant = parseLocalInputValue(values.schedule);
      if (!instant) throw new Error('schedule was validated');
      return confirmAppointment({
        hash: info.hash,
        email: values.email.trim(),
        schedule: toConfirmSchedule(values.schedule),
        timezone_diff: timezoneDiffAt(instant),
      });
    },
    onMutate: () => {
      setFormError(null);
      setPhase({ name: 'confirming' });
    },
    onSuccess: ({ appointment_pin }) => setPhase({ name: 'confirmed', pin: appointment_pin }),
    onError: (error) => {
      if (error instanceof ApiError && FORM_ERROR_CODES.has(error.code)) {
        if (Object.keys(error.fields).length > 0) form.setErrors(error.fields);
        setFormError(apiErrorMessage(t, error));
        setPhase({ name: 'form', focus: error.code === 'slot_taken' ? 'schedule' : 'email' });
        return;
      }
      const wrongEmail = error instanceof ApiError && error.code === 'cant_activate_appointment';
      setPhase({
        name: 'failed',
        detail: wrongEmail ? undefined : actionErrorMessage(t, error, 'confirm_appointment.failed'),
      });
    },
  });

  if (!CONFIRMABLE.includes(info.status)) {
    return (
      <Stack>
        <AppointmentSummary info={info} />
        <Alert color="red" role="alert">
          {t('errors.appointment_not_confirmable')}
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack>
      <AppointmentSummary info={info} />
      {phase.name === 'form' && (
        <ConfirmForm
          form={form}
          alreadyConfirmed={info.status === 'TK_Confirmed'}
          error={formError}
          focus={phase.focus}
          onSubmit={(values) => confirm.mutate(values)}
        />
      )}
      {phase.name === 'confirming' && (
        <Group role="status" wrap="nowrap">
          <Loader size="sm" aria-hidden />
          <Text>{t('confirm_appointment.confirming')}</Text>
        </Group>
      )}
      {phase.name === 'confirmed' && <ConfirmedPanel pin={phase.pin} />}
      {phase.name === 'failed' && (
        <FailedPanel detail={phase.detail} onBack={() => setPhase({ name: 'form', focus: 'email' })} />
      )}
    </Stack>
  );
}

/** Focus follows the answer, so a keyboard or screen-reader user lands on what to do next. */
function useFocusOnMount<Element extends HTMLElement>() {
  const ref = useRef<Element>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

function ConfirmedPanel({ pin }: { pin: string }) {
  const { t } = useTranslation();
  const access = useFocusOnMount<HTMLAnchorElement>();
  return (
    <Alert color="brand" role="status" title={t('confirm_appointment.confirmed_title')}>
      <Text size="sm">{t('confirm_appointment.confirmed')}</Text>
      <Button ref={access} component={Link} to={`/appointment/${encodeURIComponent(pin)}`} mt="md">
        {t('confirm_appointment.access')}
      </Button>
    </Alert>
  );
}

function FailedPanel({ detail, onBack }: { detail?: string; onBack: () => void }) {
  const { t } = useTranslation();
  const back = useFocusOnMount<HTMLButtonElement>();
  return (
    <Alert color="red" role="alert" title={t('confirm_appointment.failed_title')}>
      <Text size="sm">{detail ?? t('confirm_appointment.failed')}</Text>
      <Button ref={back} variant="light" color="red" mt="md" onClick={onBack}>
        {t('confirm_appointment.check_email')}
      </Button>
    </Alert>
  );
}

function AppointmentSummary({ info }: { info: AppointmentInfo }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const rows: [string, string][] = [
    [t('confirm_appointment.pet'), info.pet_name],
    [t('confirm_appointment.vet'), info.vet_name],
    [t('confirm_appointment.status'), t(`appointment_status.${info.status}`)],
    [t('confirm_appointment.booked_time'), formatDateTime(info.schedule, locale)],
    [t('confirm_appointment.duration'), t('confirm_appointment.minutes', { count: info.duration_minutes })],
  ];
  return (
    <Box component="dl" m={0}>
      {rows.map(([label, value]) => (
        <Group key={label} justify="space-between" align="baseline" wrap="nowrap" gap="md" py={2}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} size="sm" fw={500} ta="right">
            {value}
          </Text>
        </Group>
      ))}
    </Box>
  );
}

function ConfirmForm({
  form,
  alreadyConfirmed,
  error,
  focus,
  onSubmit,
}: {
  form: ConfirmFormState;
  alreadyConfirmed: boolean;
  error: string | null;
  focus?: FocusField;
  onSubmit: (values: ConfirmFormValues) => void;
}) {
  const { t } = useTranslation();
  const field = useFieldProps(form);
  const [minimum] = useState(() => toLocalInputValue(new Date()));
  const scheduleRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  // Back from an answer: a taken slot points at the time, 'Cant activate this appointment!' at the email.
  useEffect(() => {
    if (focus) (focus === 'schedule' ? scheduleRef : emailRef).current?.focus();
    // Only when the form appears again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <Text size="sm">{t('confirm_appointment.intro')}</Text>
        {alreadyConfirmed && (
          <Alert color="blue" role="status">
            {t('confirm_appointment.already_confirmed')}
          </Alert>
        )}
        <DateTime24Input
          ref={scheduleRef}
          label={t('confirm_appointment.schedule')}
          description={t('confirm_appointment.schedule_hint', { zone: browserTimeZone() })}
          min={minimum}
          required
          value={form.values.schedule}
          error={field('schedule').error}
          onChange={(value) => form.setFieldValue('schedule', value)}
          onBlur={() => form.validateField('schedule')}
        />
        <TextInput
          ref={emailRef}
          type="email"
          label={t('confirm_appointment.email')}
          autoComplete="email"
          required
          {...field('email')}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit">{t('confirm_appointment.submit')}</Button>
      </Stack>
    </form>
  );
}
