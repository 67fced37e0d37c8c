import { Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CallState } from './call-session';
import styles from './builtin-room.module.css';
import { MediaVideo } from './media-video';
import { MicrophoneIcon } from './room-icons';

function initialsOf(name: string): string {
  const parts = name
    .replace(/^(dr|dra)\.?\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** What the remote tile says instead of a picture: nobody there yet, gone, or the link being (re)made. */
function remoteStatus(state: CallState, t: (key: string) => string): string | null {
  if (state.phase === 'reconnecting') return t('video.room.reconnecting');
  if (state.phase === 'starting') return t('video.connecting');
  if (!state.peer) {
    if (state.peerLeft) return t('video.room.peer_left');
    return state.party === 'vet' ? t('video.room.waiting_for_customer') : t('video.room.waiting_for_vet');
  }
  if (state.mediaState === 'disconnected' || state.mediaState === 'failed') return t('video.room.media_interrupted');
  if (state.mediaState !== 'connected') return t('video.room.media_connecting');
  return null;
}

/** The two pictures: the other party (with their sound) and ours, in spotlight or side by side. */
export function RoomStage({ state, tileView }: { state: CallState; tileView: boolean }) {
  const { t } = useTranslation();
  const peerName = state.peer?.name ?? '';
  const status = remoteStatus(state, t);
  const hint =
    !state.peer && state.phase === 'waiting'
      ? t(state.peerLeft ? 'video.room.peer_left_hint' : 'video.room.waiting_hint')
      : null;
  const showRemoteVideo = Boolean(state.peer) && state.remoteMedia.video && !status;
  const hasLocalVideo = Boolean(state.localStream?.getVideoTracks().length);

  return (
    <div className={`${styles.stage} ${tileView ? styles.tiles : styles.spotlight}`}>
      <div className={styles.tile}>
        <MediaVideo
          data-testid="remote-video"
          className={styles.video}
          stream={state.remoteStream}
          sinkId={state.devices.audioOutput}
          aria-label={peerName ? t('video.room.remote_video_label', { name: peerName }) : undefined}
          style={{ visibility: showRemoteVideo ? 'visible' : 'hidden' }}
        />
        {!showRemoteVideo && (
          <div className={styles.placeholder} role="status" aria-live="polite">
            {state.peer ? (
              <div className={styles.initials} aria-hidden="true">
                {initialsOf(peerName)}
              </div>
            ) : null}
            {status ? (
              <>
                {state.phase !== 'waiting' && <Loader color="gray.3" size="sm" aria-hidden="true" />}
                <Text fw={600}>{status}</Text>
                {hint && (
                  <Text size="sm" className={styles.status}>
                    {hint}
                  </Text>
                )}
              </>
            ) : (
              <Text fw={600}>{t('video.room.peer_camera_off', { name: peerName })}</Text>
            )}
          </div>
        )}
        {state.peer && (
          <div className={styles.nameTag}>
            {!state.remoteMedia.audio && (
              <span role="img" aria-label={t('video.room.peer_microphone_off', { name: peerName })}>
                <MicrophoneIcon off />
              </span>
            )}
            <Text span size="sm" truncate>
              {peerName}
            </Text>
          </div>
        )}
        {state.peer && !state.remoteMedia.audio && (
          <Text className="sr-only" role="status">
            {t('video.room.peer_microphone_off', { name: peerName })}
          </Text>
        )}
      </div>

      <div className={styles.localTile}>
        <MediaVideo
          data-testid="local-video"
          className={`${styles.video} ${state.sharingScreen ? '' : styles.mirrored}`}
          stream={state.localStream}
          muted
          aria-label={t('video.room.local_video_label')}
          style={{ visibility: hasLocalVideo && (state.videoOn || state.sharingScreen) ? 'visible' : 'hidden' }}
        />
        {!(hasLocalVideo && (state.videoOn || state.sharingScreen)) && (
          <div className={styles.placeholder}>
            <Text size="sm">{t('video.room.camera_off')}</Text>
          </div>
        )}
        <div className={styles.nameTag}>
          {!state.audioOn && (
            <span role="img" aria-label={t('video.room.microphone_off')}>
              <MicrophoneIcon off />
            </span>
          )}
          <Text span size="sm" truncate>
            {state.sharingScreen ? t('video.room.sharing_screen') : t('video.room.you')}
          </Text>
        </div>
      </div>
    </div>
  );
}
