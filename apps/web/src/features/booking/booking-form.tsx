import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Grid,
  Group,
  LoadingOverlay,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAX_CUSTOMER_UPLOAD_BYTES, PAYMENT_LOADING_DELAY_MS } from '@vetcall/shared/constants';
import { todayKey } from '@vetcall/shared/dates';
import { DESCRIPTION_MAX } from '@vetcall/shared/schemas/booking';
import type { Pet } from '@vetcall/shared/schemas/pet';
import type { PublicVet } from '@vetcall/shared/schemas/staff';
import { useSession } from '../../lib/auth-store';
import { clientConfig } from '../../lib/client-config';
import { apiErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateTime, formatEuros } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { notifyError } from '../../lib/notify';
import { storage } from '../../lib/storage';
import { lastBookableDate } from '../scheduler/booking-window';
import { isSchedulerMessage } from '../scheduler/scheduler-messages';
import { AccessCodeField, type AccessCodeState } from './access-code-field';
import { type BookingDraft, forgetBookingDraft, keepBookingDraft } from './booking-draft';
import { createAppointment, submitPaymentForm, useQuote, useVetsAvailableOn, VETS_ON_DATE_KEY } from './api/booking';
import { claimSchedulerEvent } from './scheduler-events';

/**
 * docs/product-rules.md#booking and #validation booking form, then the embedded scheduler (docs/product-rules.md#api)
 * and the booking flow of docs/product-rules.md#states: on the scheduler's success message the appointment request is
 * sent (multipart), then the payment form. What was filled in is kept for the tab before leaving for payment; back
 * from a canceled payment, `draft` fills the form again.
 */
export function BookingForm({
  pets,
  vets,
  customerEmail,
  draft = null,
  loading = false,
}: {
  pets: Pet[];
  vets: PublicVet[];
  customerEmail: string;
  draft?: BookingDraft | null;
  /** The pets and vets are still on their way: the form shows, every field held (a disabled fieldset). */
  loading?: boolean;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const codesEnabled = clientConfig().access_codes_enabled;
  const tz = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), tz), [tz]);
  const lastDate = lastBookableDate(today);
  // A date that has left the booking window is not restored, nor the vet and time chosen for it.
  const [restored] = useState(() => restoredFields(draft, today, lastDate));

  const [code, setCode] = useState<AccessCodeState>({
    value: draft?.access_code ?? '',
    status: 'unchecked',
    included: false,
  });
  const [petId, setPetId] = useState(() => firstPetId(draft, pets));
  // The pets arrive after the form first shows (`loading`): the pet is chosen from them then, as on a first draw.
  const [waitingForPets, setWaitingForPets] = useState(loading);
  if (waitingForPets && !loading) {
    setWaitingForPets(false);
    setPetId(firstPetId(draft, pets));
  }
  const [description, setDescription] = useState(draft?.description ?? '');
  const [files, setFiles] = useState<File[]>([]);
  const [date, setDate] = useState(restored.date);
  const [vetUserId, setVetUserId] = useState(restored.vetUserId);
  const [privacy, setPrivacy] = useState(draft !== null);
  const [terms, setTerms] = useState(draft !== null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [scheduling, setScheduling] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const busyRef = useRef(false);

  const availability = useVetsAvailableOn(date || null, tz);
  const availableVets = useMemo(
    () => vets.filter((vet) => availability.data?.includes(vet.user_id)),
    [vets, availability.data],
  );
  const vet = availableVets.find((item) => String(item.user_id) === vetUserId);
  const quote = useQuote(vet ? vet.user_id : null, code.status === 'valid' ? code.value : '');

  // docs/product-rules.md#errors: no vets on the chosen date → error toast (5 s).
  useEffect(() => {
    if (date && availability.data && availability.data.length === 0) notifyError(t('booking.no_vets'));
  }, [availability.data, date, t]);

  // The draft serves one return from payment; a fresh visit of the form leaves none behind.
  useEffect(() => {
    if (!draft) forgetBookingDraft();
  }, [draft]);
  // The time chosen before, offered again while the date and vet are the ones it was chosen with.
  const restoredStart =
    restored.start && date === restored.date && vetUserId === restored.vetUserId ? restored.start : undefined;

  const noPets = !loading && pets.length === 0;
  const canSchedule = privacy && terms && !noPets && (!codesEnabled || code.status === 'valid');
  const pet = pets.find((item) => String(item.pet_id) === petId);

  // The latest form values for the message listener, which is registered once.
  const latest = useRef({ vet, pet, description, files, code, date });
  useEffect(() => {
    latest.current = { vet, pet, description, files, code, date };
  });

  useEffect(() => {
    async function onMessage(event: MessageEvent) {
      if (!isSchedulerMessage(event)) return;
      const message = event.data;
      if (message.status === 'error') {
        console.warn('scheduler reported', message.reason);
        return;
      }
      const {
        vet: chosenVet,
        pet: chosenPet,
        description: complaint,
        files: attachments,
        code: access,
        date: chosenDate,
      } = latest.current;
      const token = storage.getToken();
      // docs/product-rules.md#states: only with vet, pet, description, token and email, nothing running, and a new
      // event id.
      if (!chosenVet || !chosenPet || !complaint.trim() || !token || !customerEmail || !user) return;
      if (busyRef.current || !claimSchedulerEvent(message.eventId)) return;
      busyRef.current = true;
      setBusy(true);
      setFailure(null);
      try {
        const created = await createAppointment(
          {
            customer_user_id: user.user_id,
            pet_id: chosenPet.pet_id,
            vet_user_id: chosenVet.user_id,
            description: complaint.trim(),
            schedule: message.startTime,
            calendar_event_id: message.eventId,
            timezone_diff: -new Date(message.startTime).getTimezoneOffset() * 60,
            ...(access.status === 'valid' ? { access_code: access.value } : {}),
          },
          attachments,
        );
        keepBookingDraft({
          pet_id: chosenPet.pet_id,
          description: complaint,
          date: chosenDate,
          vet_user_id: chosenVet.user_id,
          access_code: access.status === 'valid' ? access.value : '',
          start: message.startTime,
          file_names: attachments.map((file) => file.name),
        });
        submitPaymentForm(currentLocale(), {
          payment_hash: created.payment_hash,
          payment_email: customerEmail,
          customer_user_id: user.user_id,
          auth_token: token,
          ga_client_id: '',
          appointment_included: created.included,
        });
        // The page is being left for the payment; docs/product-rules.md#limits keeps the panel 2 s at least.
        window.setTimeout(() => setBusy(false), PAYMENT_LOADING_DELAY_MS);
      } catch (error) {
        // docs/product-rules.md#errors logs the failure; the customer also sees the form again with what went wrong.
        console.error('Failed to request appointment', error);
        setFailure(apiErrorMessage(t, error, 'booking.request_failed'));
        setScheduling(false);
        setBusy(false);
        // The time may be gone (taken, lapsed): the vets offered for the date are asked again.
        void queryClient.invalidateQueries({ queryKey: VETS_ON_DATE_KEY });
      } finally {
        busyRef.current = false;
      }
    }
    const listener = (event: MessageEvent) => void onMessage(event);
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [customerEmail, queryClient, t, user]);

  function chooseFiles(selected: File[]) {
    const total = selected.reduce((sum, file) => sum + file.size, 0);
    if (total > MAX_CUSTOMER_UPLOAD_BYTES) {
      notifyError(t('errors.files_too_large'));
      setFiles([]);
      return;
    }
    setFiles(selected);
  }

  function schedule() {
    const problems: Record<string, string> = {};
    if (!pet) problems.pet = t('booking.pet_required');
    if (!description.trim()) problems.description = t('booking.description_required');
    if (!date) problems.date = t('booking.date_required');
    if (!vet) problems.vet = t('booking.vet_required');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setFailure(null);
    setScheduling(true);
  }

  if (scheduling && vet) {
    const params = new URLSearchParams({
      vet_id: String(vet.vet_id),
      email: customerEmail,
      name: user?.name ?? '',
      date,
      prefix: t('booking.scheduler_prefix', { vet: vet.name }),
      lang: locale,
    });
    if (restoredStart) params.set('start', restoredStart);
    return (
      <Stack pos="relative">
        <LoadingOverlay visible={busy} overlayProps={{ blur: 1 }} loaderProps={{ children: <WaitForPayment /> }} />
        <Group justify="space-between">
          <Text>{t('booking.scheduler_intro', { vet: vet.name })}</Text>
          <Button variant="default" onClick={() => setScheduling(false)} disabled={busy}>
            {t('common.back')}
          </Button>
        </Group>
        <iframe
          title={t('booking.scheduler_title')}
          src={`/embed/scheduler?${params.toString()}`}
          style={{ width: '100%', minHeight: 640, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
        />
      </Stack>
    );
  }

  return (
    <Paper withBorder p="lg" radius="md" maw={860}>
      <fieldset className="plain-fieldset" disabled={loading} aria-busy={loading}>
        <Stack>
          {draft && (
            <Alert color="blue" title={t('booking.draft_restored_title')}>
              <Text size="sm">{t('booking.draft_restored')}</Text>
              {restoredStart && (
                <Text size="sm">{t('booking.draft_time', { time: formatDateTime(restoredStart, locale) })}</Text>
              )}
              {draft.file_names.length > 0 && files.length === 0 && (
                <Text size="sm" fw={600}>
                  {t('booking.draft_files', { files: draft.file_names.join(', ') })}
                </Text>
              )}
            </Alert>
          )}
          {failure && (
            <Alert color="red" role="alert" title={t('booking.request_failed_title')}>
              {failure}
            </Alert>
          )}
          {codesEnabled && <AccessCodeField state={code} onChange={setCode} />}
          {noPets ? (
            <Alert color="blue">
              {t('booking.no_pets')}{' '}
              <Link to={`/customerdata?lang=${locale}&access=customer`}>{t('booking.add_pets')}</Link>
            </Alert>
          ) : (
            <NativeSelect
              label={t('booking.pet')}
              required
              value={petId}
              error={errors.pet}
              onChange={(event) => setPetId(event.currentTarget.value)}
              data={[
                { value: '', label: t('booking.choose_pet') },
                ...pets.map((item) => ({ value: String(item.pet_id), label: item.name })),
              ]}
            />
          )}
          <Textarea
            label={t('booking.description')}
            required
            disabled={noPets}
            autosize
            minRows={3}
            maxLength={DESCRIPTION_MAX}
            value={description}
            error={errors.description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <FileInput
            label={t('booking.files')}
            description={t('booking.files_help')}
            multiple
            clearable
            clearButtonProps={{ 'aria-label': t('booking.clear_files') }}
            value={files}
            onChange={chooseFiles}
            placeholder={t('booking.files_placeholder')}
            // Mantine's default placeholder grey is below WCAG AA contrast.
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
          />
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <DateInput
                label={t('booking.date')}
                required
                minDate={today}
                maxDate={lastDate}
                value={date}
                error={errors.date}
                onChange={(value) => {
                  // Choosing the shown date again is how a person asks for its vets again; the vet stays chosen.
                  if (date && value === date) {
                    void availability.refetch();
                    return;
                  }
                  setDate(value ?? '');
                  setVetUserId('');
                }}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect
                label={t('booking.vet')}
                required
                disabled={!date || availableVets.length === 0}
                // A vet no longer free that date (the list was asked again) is no longer chosen.
                value={vet ? vetUserId : ''}
                error={errors.vet}
                onChange={(event) => setVetUserId(event.currentTarget.value)}
                data={[
                  { value: '', label: t('booking.choose_vet') },
                  ...availableVets.map((item) => ({
                    value: String(item.user_id),
                    label: item.specialty ? `${item.name} · ${item.specialty}` : item.name,
                  })),
                ]}
              />
            </Grid.Col>
          </Grid>
          {vet && quote.data && (
            <Text role="status" fw={600}>
              {quote.data.included
                ? t('booking.price_free')
                : t('booking.price', { price: formatEuros(quote.data.price_cents, locale) })}
              {!quote.data.included && quote.data.discount_percent > 0 && (
                <Text span size="sm" c="dimmed" fw={400} ml="xs">
                  {t('booking.price_discount', {
                    list: formatEuros(quote.data.list_price_cents, locale),
                    discount: quote.data.discount_percent,
                  })}
                </Text>
              )}
            </Text>
          )}
          {vet && quote.isError && <Text c="red.9">{apiErrorMessage(t, quote.error)}</Text>}
          <Checkbox
            label={t('booking.consent_privacy')}
            checked={privacy}
            onChange={(event) => setPrivacy(event.currentTarget.checked)}
          />
          <Checkbox
            label={t('booking.consent_terms')}
            checked={terms}
            onChange={(event) => setTerms(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button disabled={!canSchedule} onClick={schedule}>
              {t('booking.schedule')}
            </Button>
          </Group>
        </Stack>
      </fieldset>
    </Paper>
  );
}

/** The pet chosen at first: the kept draft's if it is still listed, else the only pet, else none. */
function firstPetId(draft: BookingDraft | null, pets: Pet[]): string {
  if (draft && pets.some((pet) => pet.pet_id === draft.pet_id)) return String(draft.pet_id);
  return pets.length === 1 ? String(pets[0]!.pet_id) : '';
}

/** The parts of a kept draft that still hold: the date still bookable, and the vet and time chosen for it. */
function restoredFields(draft: BookingDraft | null, today: string, lastDate: string) {
  const dateHolds = draft !== null && draft.date >= today && draft.date <= lastDate;
  return {
    date: dateHolds ? draft.date : '',
    vetUserId: dateHolds ? String(draft.vet_user_id) : '',
    start: dateHolds ? draft.start : undefined,
  };
}

function WaitForPayment() {
  const { t } = useTranslation();
  return (
    <Stack align="center" role="status">
      <Title order={2} size="h4">
        {t('booking.wait_for_payment')}
      </Title>
      <Text size="sm">{t('booking.wait_for_payment_help')}</Text>
    </Stack>
  );
}
