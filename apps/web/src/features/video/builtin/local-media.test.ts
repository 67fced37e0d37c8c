import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  acquireLocalMedia,
  constraintsFor,
  type GetUserMedia,
  openTrack,
  problemReason,
  stopStream,
} from './local-media';
import { FakeMediaStream, FakeTrack } from '../../../test/fake-media';

const failure = (name: string) => new DOMException('refused', name);

/**
 * A getUserMedia whose devices behave as told: a device given an error name fails with it, any other
 * device opens. Every call's constraints are kept.
 */
function fakeGetUserMedia(fails: Partial<Record<'audio' | 'video', string>> = {}) {
  const calls: MediaStreamConstraints[] = [];
  const getUserMedia = vi.fn<GetUserMedia>(async (constraints) => {
    calls.push(constraints);
    const kinds = (['audio', 'video'] as const).filter((kind) => constraints[kind]);
    const failing = kinds.find((kind) => fails[kind]);
    if (failing) throw failure(fails[failing]!);
    return new FakeMediaStream(kinds.map((kind) => new FakeTrack(kind))) as unknown as MediaStream;
  });
  return { getUserMedia, calls };
}

const kindsOf = (stream: MediaStream) => stream.getTracks().map((track) => track.kind);

describe('acquireLocalMedia', () => {
  beforeEach(() => {
    vi.stubGlobal('MediaStream', FakeMediaStream);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens both devices with one request when it can', async () => {
    const { getUserMedia, calls } = fakeGetUserMedia();
    const media = await acquireLocalMedia({}, getUserMedia);
    expect(media.problems).toEqual([]);
    expect(kindsOf(media.stream)).toEqual(['audio', 'video']);
    expect(calls).toEqual([{ audio: constraintsFor('audio'), video: constraintsFor('video') }]);
    expect(calls[0]!.audio).toMatchObject({ echoCancellation: true, noiseSuppression: true, autoGainControl: true });
    expect(calls[0]!.video).not.toHaveProperty('deviceId');
  });

  it('keeps the microphone when the camera is refused', async () => {
    const { getUserMedia, calls } = fakeGetUserMedia({ video: 'NotAllowedError' });
    const media = await acquireLocalMedia({}, getUserMedia);
    expect(kindsOf(media.stream)).toEqual(['audio']);
    expect(media.problems).toEqual([{ kind: 'video', reason: 'denied' }]);
    expect(calls.map((constraints) => Object.keys(constraints))).toEqual([['audio', 'video'], ['audio'], ['video']]);
  });

  it('keeps the camera when the microphone is busy', async () => {
    const { getUserMedia } = fakeGetUserMedia({ audio: 'NotReadableError' });
    const media = await acquireLocalMedia({}, getUserMedia);
    expect(kindsOf(media.stream)).toEqual(['video']);
    expect(media.problems).toEqual([{ kind: 'audio', reason: 'busy' }]);
  });

  it('answers an empty stream and a problem per device when there is none', async () => {
    const { getUserMedia } = fakeGetUserMedia({ audio: 'NotFoundError', video: 'NotFoundError' });
    const media = await acquireLocalMedia({}, getUserMedia);
    expect(media.stream).toBeInstanceOf(FakeMediaStream);
    expect(kindsOf(media.stream)).toEqual([]);
    expect(media.problems).toEqual([
      { kind: 'audio', reason: 'missing' },
      { kind: 'video', reason: 'missing' },
    ]);
  });

  it('tells a busy camera from a missing microphone', async () => {
    const { getUserMedia } = fakeGetUserMedia({ audio: 'NotFoundError', video: 'NotReadableError' });
    const media = await acquireLocalMedia({}, getUserMedia);
    expect(media.problems).toEqual([
      { kind: 'audio', reason: 'missing' },
      { kind: 'video', reason: 'busy' },
    ]);
  });

  it('asks for the chosen devices exactly, in every request', async () => {
    const { getUserMedia, calls } = fakeGetUserMedia({ video: 'OverconstrainedError' });
    const media = await acquireLocalMedia({ audioInput: 'mic-2', videoInput: 'cam-3' }, getUserMedia);
    expect(media.problems).toEqual([{ kind: 'video', reason: 'missing' }]);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      audio: { deviceId: { exact: 'mic-2' } },
      video: { deviceId: { exact: 'cam-3' } },
    });
    expect(calls[1]).toEqual({ audio: { ...(constraintsFor('audio') as object), deviceId: { exact: 'mic-2' } } });
    expect(calls[2]).toEqual({ video: { ...(constraintsFor('video') as object), deviceId: { exact: 'cam-3' } } });
  });

  it('reports both devices unsupported when the browser has no getUserMedia', async () => {
    // jsdom has no navigator.mediaDevices.
    const media = await acquireLocalMedia();
    expect(kindsOf(media.stream)).toEqual([]);
    expect(media.problems).toEqual([
      { kind: 'audio', reason: 'unsupported' },
      { kind: 'video', reason: 'unsupported' },
    ]);
  });
});

describe('openTrack', () => {
  it('opens one device by id', async () => {
    const { getUserMedia, calls } = fakeGetUserMedia();
    const track = await openTrack('video', 'cam-3', getUserMedia);
    expect(track.kind).toBe('video');
    expect(calls).toEqual([{ video: { ...(constraintsFor('video') as object), deviceId: { exact: 'cam-3' } } }]);
  });

  it('fails with the device error, or NotFoundError when no track came', async () => {
    await expect(
      openTrack('audio', 'mic-9', fakeGetUserMedia({ audio: 'NotReadableError' }).getUserMedia),
    ).rejects.toMatchObject({
      name: 'NotReadableError',
    });
    const empty: GetUserMedia = async () => new FakeMediaStream() as unknown as MediaStream;
    await expect(openTrack('audio', undefined, empty)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});

describe('stopStream', () => {
  it('stops every track, and accepts no stream', () => {
    const tracks = [new FakeTrack('audio'), new FakeTrack('video')];
    stopStream(new FakeMediaStream(tracks) as unknown as MediaStream);
    for (const track of tracks) expect(track.stop).toHaveBeenCalledTimes(1);
    expect(() => stopStream(null)).not.toThrow();
  });
});

describe('problemReason', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['PermissionDeniedError', 'denied'],
    ['NotFoundError', 'missing'],
    ['OverconstrainedError', 'missing'],
    ['DevicesNotFoundError', 'missing'],
    ['NotReadableError', 'busy'],
    ['AbortError', 'busy'],
    ['TrackStartError', 'busy'],
    ['NotSupportedError', 'unsupported'],
    ['TypeError', 'unsupported'],
  ])('maps %s to %s', (name, reason) => {
    expect(problemReason(failure(name))).toBe(reason);
    // Older browsers throw plain errors with these names.
    expect(problemReason(Object.assign(new Error('refused'), { name }))).toBe(reason);
  });

  it('calls anything that is not an error unsupported', () => {
    expect(problemReason('NotAllowedError')).toBe('unsupported');
    expect(problemReason(undefined)).toBe('unsupported');
  });
});
