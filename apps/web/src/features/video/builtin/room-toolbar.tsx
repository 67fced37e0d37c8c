import type { ReactNode } from 'react';
import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import styles from './builtin-room.module.css';
import {
  CameraIcon,
  ChatIcon,
  FullscreenIcon,
  HangUpIcon,
  MicrophoneIcon,
  ScreenShareIcon,
  SettingsIcon,
  TileViewIcon,
} from './room-icons';

export interface RoomToolbarProps {
  audioOn: boolean;
  videoOn: boolean;
  hasAudio: boolean;
  hasVideo: boolean;
  sharingScreen: boolean;
  canShareScreen: boolean;
  tileView: boolean;
  fullscreen: boolean;
  chatOpen: boolean;
  unread: number;
  onToggleAudio: () => void;
  onToggleVideo: () => void;
  onToggleScreenShare: () => void;
  onToggleTileView: () => void;
  onToggleFullscreen: () => void;
  onToggleChat: () => void;
  onOpenSettings: () => void;
  onHangUp: () => void;
}

function ToolButton({
  label,
  pressed,
  expanded,
  off = false,
  disabled = false,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  expanded?: boolean;
  off?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow openDelay={400} withinPortal={false}>
      <ActionIcon
        className={`${styles.toolButton} ${off ? styles.toolButtonOff : ''}`}
        radius="xl"
        aria-label={label}
        aria-pressed={pressed}
        aria-expanded={expanded}
        disabled={disabled}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** The toolbar (docs/product-rules.md#pin-screen) for the built-in room: toggles say their state with aria-pressed. */
export function RoomToolbar(props: RoomToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('video.toolbar.label')}>
      <ToolButton
        label={props.hasAudio ? t('video.toolbar.mute') : t('video.toolbar.no_microphone')}
        pressed={props.hasAudio ? !props.audioOn : undefined}
        off={!props.audioOn || !props.hasAudio}
        disabled={!props.hasAudio}
        onClick={props.onToggleAudio}
      >
        <MicrophoneIcon off={!props.audioOn || !props.hasAudio} />
      </ToolButton>
      <ToolButton
        label={props.hasVideo ? t('video.toolbar.camera_off') : t('video.toolbar.no_camera')}
        pressed={props.hasVideo ? !props.videoOn : undefined}
        off={!props.videoOn || !props.hasVideo}
        disabled={!props.hasVideo}
        onClick={props.onToggleVideo}
      >
        <CameraIcon off={!props.videoOn || !props.hasVideo} />
      </ToolButton>
      {props.canShareScreen && (
        <ToolButton
          label={t('video.toolbar.share_screen')}
          pressed={props.sharingScreen}
          onClick={props.onToggleScreenShare}
        >
          <ScreenShareIcon />
        </ToolButton>
      )}
      <ToolButton label={t('video.toolbar.tile_view')} pressed={props.tileView} onClick={props.onToggleTileView}>
        <TileViewIcon />
      </ToolButton>
      <ToolButton label={t('video.toolbar.fullscreen')} pressed={props.fullscreen} onClick={props.onToggleFullscreen}>
        <FullscreenIcon exit={props.fullscreen} />
      </ToolButton>
      <Indicator label={props.unread} size={18} color="red" disabled={props.unread === 0 || props.chatOpen} offset={6}>
        <ToolButton
          label={
            props.unread > 0 && !props.chatOpen
              ? `${t('video.toolbar.chat')} (${t('video.toolbar.unread', { count: props.unread })})`
              : t('video.toolbar.chat')
          }
          expanded={props.chatOpen}
          onClick={props.onToggleChat}
        >
          <ChatIcon />
        </ToolButton>
      </Indicator>
      <ToolButton label={t('video.toolbar.settings')} onClick={props.onOpenSettings}>
        <SettingsIcon />
      </ToolButton>
      <Tooltip label={t('video.toolbar.hang_up')} withArrow openDelay={400} withinPortal={false}>
        <ActionIcon
          className={styles.hangUp}
          radius="xl"
          aria-label={t('video.toolbar.hang_up')}
          onClick={props.onHangUp}
        >
          <HangUpIcon />
        </ActionIcon>
      </Tooltip>
    </div>
  );
}
