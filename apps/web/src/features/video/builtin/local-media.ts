/**
 * The camera and microphone of the built-in room. A call must still happen when one of them is refused,
 * missing or busy (issue 8): `acquireLocalMedia` asks for both, then for whichever is left, and reports
 * what went wrong per device so the room can explain it in the person's language.
 */

export type MediaKind = 'audio' | 'video';

/** Why a device is not in the call; each is a catalog key `video.media_problem.<reason>_<kind>`. */
export type MediaProblemReason = 'denied' | 'missing' | 'busy' | 'unsupported';

export interface MediaProblem {
  kind: MediaKind;
  reason: MediaProblemReason;
}

export interface DeviceChoice {
  audioInput?: string;
  videoInput?: string;
}

export interface LocalMedia {
  /** The tracks that could be opened (possibly none: the call is then receive-only). */
  stream: MediaStream;
  problems: MediaProblem[];
}

/** The browser's getUserMedia, replaceable in tests. */
export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

const defaultGetUserMedia: GetUserMedia = (constraints) => {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(new DOMException('getUserMedia is not available', 'NotSupportedError'));
  }
  return navigator.mediaDevices.getUserMedia(constraints);
};

/** Maps the DOMException names of getUserMedia to what a person can act on. */
export function problemReason(error: unknown): MediaProblemReason {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return 'denied';
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return 'missing';
    case 'NotReadableError':
    case 'AbortError':
    case 'TrackStartError':
      return 'busy';
    default:
      return 'unsupported';
  }
}

/** Good enough for a consultation, light enough for a weak uplink; the browser scales down as needed. */
const VIDEO_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 1280 },
  height: { ideal: 720 },
  frameRate: { ideal: 24 },
};

export function constraintsFor(kind: MediaKind, deviceId?: string): MediaTrackConstraints | boolean {
  if (kind === 'audio') {
    const audio: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };
    return deviceId ? { ...audio, deviceId: { exact: deviceId } } : audio;
  }
  return deviceId ? { ...VIDEO_CONSTRAINTS, deviceId: { exact: deviceId } } : VIDEO_CONSTRAINTS;
}

/**
 * Opens the microphone and the camera. Both at once first (one permission prompt); when that fails,
 * each alone, so a refused camera still leaves the microphone, and the reason of each failure is kept.
 */
export async function acquireLocalMedia(
  choice: DeviceChoice = {},
  getUserMedia: GetUserMedia = defaultGetUserMedia,
): Promise<LocalMedia> {
  try {
    const stream = await getUserMedia({
      audio: constraintsFor('audio', choice.audioInput),
      video: constraintsFor('video', choice.videoInput),
    });
    return { stream, problems: [] };
  } catch {
    // Fall through: which device failed, and why, is learnt one device at a time.
  }
  const stream = new MediaStream();
  const problems: MediaProblem[] = [];
  for (const kind of ['audio', 'video'] as const) {
    try {
      const single = await getUserMedia({
        [kind]: constraintsFor(kind, choice[kind === 'audio' ? 'audioInput' : 'videoInput']),
      });
      for (const track of single.getTracks()) stream.addTrack(track);
    } catch (error) {
      problems.push({ kind, reason: problemReason(error) });
    }
  }
  return { stream, problems };
}

/** Opens one device (a switch in the device settings); throws a MediaProblem-carrying error on failure. */
export async function openTrack(
  kind: MediaKind,
  deviceId: string | undefined,
  getUserMedia: GetUserMedia = defaultGetUserMedia,
): Promise<MediaStreamTrack> {
  const stream = await getUserMedia({ [kind]: constraintsFor(kind, deviceId) });
  const track = kind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
  if (!track) throw new DOMException(`no ${kind} track`, 'NotFoundError');
  return track;
}

export interface MediaDeviceLists {
  audioInput: MediaDeviceInfo[];
  videoInput: MediaDeviceInfo[];
  audioOutput: MediaDeviceInfo[];
}

/** The devices to choose from; labels are only known once a permission was given. */
export async function listMediaDevices(): Promise<MediaDeviceLists> {
  const devices = (await navigator.mediaDevices?.enumerateDevices?.()) ?? [];
  return {
    audioInput: devices.filter((device) => device.kind === 'audioinput'),
    videoInput: devices.filter((device) => device.kind === 'videoinput'),
    audioOutput: devices.filter((device) => device.kind === 'audiooutput'),
  };
}

/** Whether the browser can share a screen (desktop browsers; not phones). */
export function canShareScreen(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';
}

/** Whether the browser can choose the speaker of a media element (HTMLMediaElement.setSinkId). */
export function canChooseSpeaker(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
