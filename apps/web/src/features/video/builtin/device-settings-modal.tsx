import { useEffect, useState } from 'react';
import { Button, Group, Modal, NativeSelect, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { canChooseSpeaker, listMediaDevices, type MediaDeviceLists, type MediaKind } from './local-media';
import type { VideoQuality } from './peer-link';

const EMPTY: MediaDeviceLists = { audioInput: [], videoInput: [], audioOutput: [] };

/** docs/product-rules.md#api "device selection" and "video quality": camera, microphone, speaker, and what to send. */
export function DeviceSettingsModal({
  opened,
  onClose,
  devices,
  quality,
  onSwitch,
  onSpeaker,
  onQuality,
}: {
  opened: boolean;
  onClose: () => void;
  devices: { audioInput?: string; videoInput?: string; audioOutput?: string };
  quality: VideoQuality;
  onSwitch: (kind: MediaKind, deviceId: string) => void;
  onSpeaker: (deviceId: string) => void;
  onQuality: (quality: VideoQuality) => void;
}) {
  const { t } = useTranslation();
  const [lists, setLists] = useState<MediaDeviceLists>(EMPTY);

  useEffect(() => {
    if (!opened) return;
    let current = true;
    const refresh = () =>
      void listMediaDevices()
        .then((found) => current && setLists(found))
        .catch(() => current && setLists(EMPTY));
    refresh();
    navigator.mediaDevices?.addEventListener?.('devicechange', refresh);
    return () => {
      current = false;
      navigator.mediaDevices?.removeEventListener?.('devicechange', refresh);
    };
  }, [opened]);

  const options = (found: MediaDeviceInfo[], fallbackKey: string) =>
    found.length === 0
      ? [{ value: '', label: t('video.settings.none') }]
      : found.map((device, index) => ({
          value: device.deviceId,
          label: device.label || t(fallbackKey, { n: index + 1 }),
        }));

  return (
    <Modal
      withinPortal={false}
      styles={{ content: { color: 'var(--mantine-color-text)' } }}
      opened={opened}
      onClose={onClose}
      title={t('video.settings.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <NativeSelect
          label={t('video.settings.camera')}
          data={options(lists.videoInput, 'video.settings.camera_n')}
          value={devices.videoInput ?? ''}
          disabled={lists.videoInput.length === 0}
          onChange={(event) => event.currentTarget.value && onSwitch('video', event.currentTarget.value)}
        />
        <NativeSelect
          label={t('video.settings.microphone')}
          data={options(lists.audioInput, 'video.settings.microphone_n')}
          value={devices.audioInput ?? ''}
          disabled={lists.audioInput.length === 0}
          onChange={(event) => event.currentTarget.value && onSwitch('audio', event.currentTarget.value)}
        />
        {canChooseSpeaker() && (
          <NativeSelect
            label={t('video.settings.speaker')}
            data={options(lists.audioOutput, 'video.settings.speaker_n')}
            value={devices.audioOutput ?? lists.audioOutput[0]?.deviceId ?? ''}
            disabled={lists.audioOutput.length === 0}
            onChange={(event) => onSpeaker(event.currentTarget.value)}
          />
        )}
        <NativeSelect
          label={t('video.settings.quality')}
          data={(['high', 'standard', 'low'] as const).map((value) => ({
            value,
            label: t(`video.settings.quality_${value}`),
          }))}
          value={quality}
          onChange={(event) => onQuality(event.currentTarget.value as VideoQuality)}
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('video.settings.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
