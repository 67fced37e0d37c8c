import { useEffect, useRef, useState } from 'react';
import { Alert, CloseButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PinLookup } from '@vetcall/shared/schemas/video';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/ui/skip-link';
import { notifyError } from '../../../lib/notify';
import type { RoomExit } from '../room-exit';
import styles from './builtin-room.module.css';
import { ChatPanel } from './chat-panel';
import { DeviceSettingsModal } from './device-settings-modal';
import { canShareScreen, type MediaProblem } from './local-media';
import { RoomStage } from './room-stage';
import { RoomToolbar } from './room-toolbar';
import { useCallSession } from './use-call-session';

function useFullscreen(target: React.RefObject<HTMLElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const update = () => setFullscreen(document.fullscreenElement === target.current && target.current !== null);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, [target]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void target.current?.requestFullscreen?.().catch(() => undefined);
  };
  return { fullscreen, toggle };
}

/**
 * The built-in consultation room (VIDEO_PROVIDER=builtin): WebRTC between the two browsers, our server
 * only introducing them (docs/video-signalling.md). Leaving, or a refusal of the room, hands back to the
 * PIN screen through `onExit`.
 */
export function BuiltinRoom({
  pin,
  lookup,
  resumeToken,
  onResumeToken,
  onExit,
}: {
  pin: string;
  lookup: PinLookup;
  resumeToken?: string;
  onResumeToken: (token: string) => void;
  onExit: (exit: RoomExit) => void;
}) {
  const { t } = useTranslation();
  const room = useRef<HTMLDivElement>(null);
  const { session, state } = useCallSession({ pin, resumeToken, onResumeToken });
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(room);
  const [tileView, setTileView] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [dismissed, setDismissed] = useState<MediaProblem[]>([]);
  const [readCount, setReadCount] = useState(0);

  const phase = state.phase;
  const failure = state.failure;
  useEffect(() => {
    if (phase === 'ended') onExit({ kind: 'left' });
    else if (phase === 'failed') onExit({ kind: 'failed', error: failure ?? 'service_unavailable' });
  }, [phase, failure, onExit]);

  // Messages of the other party seen so far: all of them while the chat is open.
  const peerMessages = state.chat.filter((message) => message.from === 'peer').length;
  const unread = chatOpen ? 0 : Math.max(0, peerMessages - readCount);
  const toggleChat = () => {
    setReadCount(peerMessages);
    setChatOpen((open) => !open);
  };

  const problems = state.problems.filter((problem) => !dismissed.includes(problem));
  const hasAudio = Boolean(state.localStream?.getAudioTracks().length);
  const hasVideo = Boolean(state.localStream?.getVideoTracks().length);
  const peerName = state.peer?.name ?? '';

  const toggleScreenShare = () => {
    const action = state.sharingScreen ? session.stopScreenShare() : session.startScreenShare();
    action.catch((error: unknown) => {
      // Closing the browser's picker is a choice, not a failure.
      if (!(error instanceof DOMException && error.name === 'NotAllowedError'))
        notifyError(t('video.screen_share_failed'));
    });
  };

  return (
    <div className={styles.room} ref={room}>
      <SkipLink />
      <header className={styles.header}>
        <div>
          <Text component="h1" fw={700} size="lg">
            {peerName ? t('video.room.with', { name: peerName }) : t('video.room.consultation')}
          </Text>
          <Text size="sm" className={styles.status}>
            {state.selfName || lookup.user_name}
          </Text>
        </div>
      </header>
      {/* The call, what stops it and its controls are the screen's main content. */}
      <main className={styles.main} id={MAIN_CONTENT_ID} tabIndex={-1}>
        {(problems.length > 0 || (!hasAudio && !hasVideo && state.phase !== 'starting')) && (
          <Stack gap={4} px="sm" pt="sm">
            {problems.map((problem) => (
              <Alert key={`${problem.kind}-${problem.reason}`} color="blue" variant="filled" role="alert" py={6}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm">{t(`video.media_problem.${problem.reason}_${problem.kind}`)}</Text>
                  <CloseButton
                    aria-label={t('video.dismiss')}
                    c="white"
                    variant="transparent"
                    onClick={() => setDismissed((list) => [...list, problem])}
                  />
                </Group>
              </Alert>
            ))}
            {!hasAudio && !hasVideo && state.phase !== 'starting' && (
              <Text size="sm" className={styles.status}>
                {t('video.room.no_local_media')}
              </Text>
            )}
          </Stack>
        )}
        <div className={styles.body}>
          <RoomStage state={state} tileView={tileView} />
          {chatOpen && (
            <ChatPanel
              messages={state.chat}
              canSend={state.phase === 'in-call'}
              onSend={(text) => session.sendChat(text)}
              onClose={toggleChat}
            />
          )}
        </div>
        <RoomToolbar
          audioOn={state.audioOn}
          videoOn={state.videoOn}
          hasAudio={hasAudio}
          hasVideo={hasVideo}
          sharingScreen={state.sharingScreen}
          canShareScreen={canShareScreen()}
          tileView={tileView}
          fullscreen={fullscreen}
          chatOpen={chatOpen}
          unread={unread}
          onToggleAudio={() => session.toggleAudio()}
          onToggleVideo={() => session.toggleVideo()}
          onToggleScreenShare={toggleScreenShare}
          onToggleTileView={() => setTileView((value) => !value)}
          onToggleFullscreen={toggleFullscreen}
          onToggleChat={toggleChat}
          onOpenSettings={() => setSettingsOpen(true)}
          onHangUp={() => session.hangUp()}
        />
      </main>
      <DeviceSettingsModal
        opened={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        devices={state.devices}
        quality={state.quality}
        onSwitch={(kind, deviceId) =>
          void session.switchDevice(kind, deviceId).then((problem) => {
            if (problem) notifyError(t(`video.media_problem.${problem.reason}_${problem.kind}`));
          })
        }
        onSpeaker={(deviceId) => session.chooseSpeaker(deviceId)}
        onQuality={(quality) => void session.setQuality(quality)}
      />
    </div>
  );
}
