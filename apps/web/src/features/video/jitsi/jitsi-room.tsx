import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import type { PinLookup } from '@vetcall/shared/schemas/video';
import { clientConfig } from '../../../lib/client-config';
import { currentLocale } from '../../../lib/i18n';
import { type JitsiMeetExternalApi, type JitsiMeetExternalApiOptions, loadJitsiApi } from './load-jitsi-api';

/** Jitsi's names for our interface languages. */
const JITSI_LANGUAGES: Record<Locale, string> = { en: 'en', pt: 'pt', 'pt-BR': 'ptBR' };

/** The toolbar of docs/product-rules.md#api, in Jitsi's button names. */
export const JITSI_TOOLBAR_BUTTONS = [
  'microphone',
  'camera',
  'desktop',
  'fullscreen',
  'fodeviceselection',
  'hangup',
  'chat',
  'videoquality',
  'tileview',
  'select-background',
  'sharedvideo',
  'download',
];

/** Jitsi events after which this person is out of the call: back to the appointment page. */
const LEAVE_EVENTS = ['readyToClose', 'videoConferenceLeft'];

/**
 * The room of docs/product-rules.md#api: named by the appointment hash, not stored, no welcome or prejoin page, our
 * branding file. `jwt` is there when the Jitsi deployment uses token auth (the server then adds it to the lookup).
 */
export function jitsiRoomOptions(
  lookup: PinLookup,
  parentNode: HTMLElement,
  context: { locale: Locale; origin: string },
): JitsiMeetExternalApiOptions {
  return {
    roomName: lookup.hash,
    parentNode,
    width: '100%',
    height: '100%',
    lang: JITSI_LANGUAGES[context.locale],
    ...(lookup.jitsi_jwt ? { jwt: lookup.jitsi_jwt } : {}),
    userInfo: { displayName: lookup.user_name, email: lookup.user_email },
    configOverwrite: {
      prejoinConfig: { enabled: false },
      prejoinPageEnabled: false,
      enableWelcomePage: false,
      doNotStoreRoom: true,
      disableDeepLinking: true,
      toolbarButtons: [...JITSI_TOOLBAR_BUTTONS],
      dynamicBrandingUrl: `${context.origin}/api/video/jitsi-branding`,
    },
    interfaceConfigOverwrite: {
      SHOW_JITSI_WATERMARK: false,
      SHOW_WATERMARK_FOR_GUESTS: false,
      MOBILE_APP_PROMO: false,
    },
  };
}

/**
 * The consultation in a self-hosted Jitsi Meet (VIDEO_PROVIDER=jitsi), through its IFrame API. The room is
 * made once per appointment: a new lookup of the same PIN (a fresh token, say) does not restart the call.
 */
export function JitsiRoom({ lookup, onLeave }: { lookup: PinLookup; onLeave: () => void }) {
  const { t } = useTranslation();
  const domain = clientConfig().jitsi_domain;
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const latest = useRef({ lookup, onLeave });
  useEffect(() => {
    latest.current = { lookup, onLeave };
  });

  const hash = lookup.hash;
  useEffect(() => {
    const parentNode = container.current;
    if (!domain || !parentNode) return;
    let active = true;
    let api: JitsiMeetExternalApi | undefined;
    loadJitsiApi(domain).then(
      (JitsiMeetExternalAPI) => {
        if (!active) return;
        const options = jitsiRoomOptions(latest.current.lookup, parentNode, {
          locale: currentLocale(),
          origin: window.location.origin,
        });
        api = new JitsiMeetExternalAPI(domain, options);
        let left = false;
        const leave = () => {
          if (left) return;
          left = true;
          latest.current.onLeave();
        };
        for (const event of LEAVE_EVENTS) api.addListener(event, leave);
        setStatus('ready');
      },
      (error: unknown) => {
        console.error(error);
        if (active) setStatus('failed');
      },
    );
    return () => {
      active = false;
      api?.dispose();
    };
  }, [domain, hash]);

  if (!domain || status === 'failed') {
    return (
      <Alert color="red" role="alert" title={t('video.jitsi.load_failed_title')}>
        <Text size="sm" mb="sm">
          {t('video.jitsi.load_failed')}
        </Text>
        <Button variant="default" onClick={onLeave}>
          {t('common.back')}
        </Button>
      </Alert>
    );
  }

  return (
    <Box
      component="section"
      aria-label={t('video.jitsi.room_label')}
      aria-busy={status === 'loading'}
      style={{ position: 'relative', height: '100%', minHeight: '70vh' }}
    >
      {/* Jitsi puts its iframe here; React leaves this element's children alone. */}
      <div ref={container} style={{ position: 'absolute', inset: 0 }} />
      {status === 'loading' && (
        <Center style={{ position: 'absolute', inset: 0 }}>
          <Loader aria-label={t('app.loading')} />
        </Center>
      )}
    </Box>
  );
}
