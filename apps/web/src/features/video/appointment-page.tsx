import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PIN_CONNECTING_DELAY_MS } from '@vetcall/shared/constants';
import type { PinLookup } from '@vetcall/shared/schemas/video';
import { PublicLayout } from '../../app/layouts/public-layout';
import { clientConfig } from '../../lib/client-config';
import { formatDateTime } from '../../lib/format';
import { tooManyRequestsMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { useFieldProps } from '../../lib/use-field-props';
import { lookupPin, type PinRefusal } from './api/pin-lookup';
import { BuiltinRoom } from './builtin/builtin-room';
import { JitsiRoom } from './jitsi/jitsi-room';
import type { RoomExit } from './room-exit';
import { storedRoom } from './stored-room';

const pinFormSchema = z.object({
  pin: z
    .string()
    .min(1, { error: 'required' })
    .regex(/^\d{6}$/, { error: 'invalid_format' }),
});

type Notice = { kind: 'unavailable'; refusal: PinRefusal } | { kind: 'left' };

type Phase =
  | { name: 'form'; notice?: Notice }
  | { name: 'checking' }
  | { name: 'connecting'; pin: string; lookup: PinLookup; resumeToken?: string }
  | { name: 'room'; pin: string; lookup: PinLookup; resumeToken?: string };

/** The 'unavailable' explanation: when the room opens or closed if the server said, else the error's text. */
function refusalMessage(t: TFunction, refusal: PinRefusal): string {
  const locale = currentLocale();
  if (refusal.code === 'room_not_open' && refusal.opensAt) {
    return t('video.opens_at', { time: formatDateTime(refusal.opensAt, locale) });
  }
  if (refusal.code === 'room_closed' && refusal.closesAt) {
    return t('video.closed_at', { time: formatDateTime(refusal.closesAt, locale) });
  }
  if (refusal.code === 'too_many_requests') return tooManyRequestsMessage(t, refusal.retryAfterSeconds);
  return t(`errors.${refusal.code}`, { defaultValue: t('errors.internal_error') });
}

/**
 * docs/product-rules.md#pin-screen /appointment/{pin?}: the PIN screen, 'connecting' for about 2 s, then the
 * consultation room (built-in WebRTC or Jitsi, VIDEO_PROVIDER). Leaving hides the room, clears the stored room and
 * brings the PIN screen back, PIN kept, so a second Connect rejoins.
 */
export function AppointmentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const routePin = useParams().pin ?? '';
  const [phase, setPhase] = useState<Phase>({ name: 'form' });
  const form = useForm({
    initialValues: { pin: /^\d{1,6}$/.test(routePin) ? routePin : '' },
    validate: schemaResolver(pinFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const field = useFieldProps(form);
  const noticeRef = useRef<HTMLDivElement>(null);
  const lookupAbort = useRef<AbortController | null>(null);

  useEffect(() => () => lookupAbort.current?.abort(), []);

  // 'connecting' for PIN_CONNECTING_DELAY_MS (docs/product-rules.md#limits), then the room.
  useEffect(() => {
    if (phase.name !== 'connecting') return;
    const timer = setTimeout(() => setPhase({ ...phase, name: 'room' }), PIN_CONNECTING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  // A notice takes the focus, so a screen reader hears why the room is not there.
  useEffect(() => {
    if (phase.name === 'form' && phase.notice) noticeRef.current?.focus();
  }, [phase]);

  const connect = async ({ pin }: { pin: string }) => {
    lookupAbort.current?.abort();
    const controller = new AbortController();
    lookupAbort.current = controller;
    setPhase({ name: 'checking' });
    const result = await lookupPin(pin, controller.signal).catch(() => null);
    if (controller.signal.aborted || !result) return;
    if (!result.ok) {
      setPhase({ name: 'form', notice: { kind: 'unavailable', refusal: result } });
      return;
    }
    // The token of this tab's earlier connection to the same room (a reload): it takes that seat back.
    const stored = storedRoom.get(pin);
    const resumeToken = stored?.hash === result.lookup.hash ? stored.resumeToken : undefined;
    storedRoom.set({ pin, hash: result.lookup.hash, resumeToken });
    setPhase({ name: 'connecting', pin, lookup: result.lookup, resumeToken });
  };

  const exitRoom = useCallback((exit: RoomExit) => {
    storedRoom.clear();
    setPhase({
      name: 'form',
      notice: exit.kind === 'left' ? { kind: 'left' } : { kind: 'unavailable', refusal: { code: exit.error } },
    });
  }, []);

  const keepResumeToken = useCallback(
    (token: string) => {
      if (phase.name === 'room') storedRoom.set({ pin: phase.pin, hash: phase.lookup.hash, resumeToken: token });
    },
    [phase],
  );

  if (phase.name === 'room') {
    const config = clientConfig();
    return config.video_provider === 'jitsi' ? (
      <JitsiRoom lookup={phase.lookup} onLeave={() => exitRoom({ kind: 'left' })} />
    ) : (
      <BuiltinRoom
        pin={phase.pin}
        lookup={phase.lookup}
        resumeToken={phase.resumeToken}
        onResumeToken={keepResumeToken}
        onExit={exitRoom}
      />
    );
  }

  const back = () => {
    // Back where the person came from; a link opened from an email has no page before it.
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/');
  };

  return (
    <PublicLayout heading={t('video.heading')}>
      {phase.name === 'connecting' ? (
        <Stack align="center" gap="sm" py="md" role="status">
          <Loader aria-hidden="true" />
          <Text fw={600}>{t('video.connecting')}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {t('video.connecting_detail', { name: phase.lookup.user_name })}
          </Text>
        </Stack>
      ) : (
        <form onSubmit={(event) => form.onSubmit((values) => void connect(values))(event)} noValidate>
          <Stack>
            {phase.name === 'form' && phase.notice && (
              <Box ref={noticeRef} tabIndex={-1}>
                {phase.notice.kind === 'left' ? (
                  <Alert color="blue" role="status">
                    {t('video.left')}
                  </Alert>
                ) : (
                  <Alert color="red" role="alert" title={t('video.unavailable')}>
                    {refusalMessage(t, phase.notice.refusal)}
                  </Alert>
                )}
              </Box>
            )}
            <Text c="dimmed" size="sm">
              {t('video.intro')}
            </Text>
            <TextInput
              label={t('video.pin_label')}
              placeholder={t('video.pin_placeholder')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              {...field('pin')}
              onChange={(event) => form.setFieldValue('pin', event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
            />
            <Group justify="space-between">
              <Button variant="default" onClick={back}>
                {t('common.back')}
              </Button>
              <Button type="submit" loading={phase.name === 'checking'}>
                {t('video.connect')}
              </Button>
            </Group>
            {phase.name === 'checking' && (
              <span className="sr-only" role="status">
                {t('video.checking')}
              </span>
            )}
          </Stack>
        </form>
      )}
    </PublicLayout>
  );
}
