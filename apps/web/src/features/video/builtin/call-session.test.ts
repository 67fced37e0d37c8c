import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import type { Party } from '@vetcall/shared/schemas/video';
import { CallSession, type CallSessionDeps } from './call-session';
import type { GetUserMedia } from './local-media';
import type { SignalConnectionOptions, SignalEvent } from './signal-connection';
import { FakeMediaStream, FakeTrack } from '../../../test/fake-media';

// ----- the peer connection: records what PeerLink asks of it

class FakeSender {
  track: unknown = null;
  replaceTrack = vi.fn(async (track: unknown) => {
    this.track = track;
  });
  setStreams = vi.fn();
  getParameters() {
    return { encodings: [] as RTCRtpEncodingParameters[] };
  }
  setParameters = vi.fn(async () => undefined);
}

class FakeTransceiver {
  sender = new FakeSender();
  receiver: { track: { kind: string } };
  direction = 'recvonly';
  constructor(kind: string) {
    this.receiver = { track: { kind } };
  }
}

class FakePeerConnection {
  static count = 0;
  readonly id = ++FakePeerConnection.count;
  transceivers: FakeTransceiver[] = [];
  addTransceiver = vi.fn((trackOrKind: FakeTrack | string, init?: RTCRtpTransceiverInit) => {
    const transceiver = new FakeTransceiver(typeof trackOrKind === 'string' ? trackOrKind : trackOrKind.kind);
    if (typeof trackOrKind !== 'string') transceiver.sender.track = trackOrKind;
    transceiver.direction = init?.direction ?? 'sendrecv';
    this.transceivers.push(transceiver);
    return transceiver;
  });
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  onicecandidate: ((event: { candidate: unknown }) => void) | null = null;
  ontrack: ((event: unknown) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  createOffer = vi.fn(async () => ({ type: 'offer' as const, sdp: `offer-sdp-${this.id}` }));
  createAnswer = vi.fn(async () => ({ type: 'answer' as const, sdp: `answer-sdp-${this.id}` }));
  setLocalDescription = vi.fn(async (description: RTCSessionDescriptionInit) => {
    this.localDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
  });
  setRemoteDescription = vi.fn(async (description: RTCSessionDescriptionInit) => {
    this.remoteDescription = description;
    if (description.type === 'offer') {
      this.signalingState = 'have-remote-offer';
      // The offer's m-lines become transceivers, as in a browser.
      if (this.transceivers.length === 0)
        this.transceivers.push(new FakeTransceiver('audio'), new FakeTransceiver('video'));
    } else {
      this.signalingState = 'stable';
    }
  });
  addIceCandidate = vi.fn(async () => undefined);
  getTransceivers() {
    return [...this.transceivers];
  }
  close = vi.fn();
  constructor(public config: RTCConfiguration) {}
}

// ----- the signalling connection

type Signal = ReturnType<NonNullable<CallSessionDeps['createSignal']>>;

interface FakeSignal {
  options: SignalConnectionOptions;
  start: Mock<Signal['start']>;
  send: Mock<Signal['send']>;
  leave: Mock<Signal['leave']>;
  close: Mock<Signal['close']>;
}

const NOW = new Date('2030-03-01T09:00:00.000Z');
const ICE_SERVERS = [{ urls: 'stun:turn.clinic.test:3478' }];
const VET = { name: 'Rui Vet', party: 'vet' as const };
const CUSTOMER = { name: 'Ana Dona', party: 'customer' as const };

/** Lets the peer link's queued steps (offer, answer, candidates) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function startSession(options: { devices?: ('audio' | 'video')[]; deps?: Partial<CallSessionDeps> } = {}) {
  const tracks = (options.devices ?? ['audio', 'video']).map((kind) => new FakeTrack(kind));
  const getUserMedia = vi.fn<GetUserMedia>(async () => new FakeMediaStream(tracks) as unknown as MediaStream);
  const signals: FakeSignal[] = [];
  const connections: FakePeerConnection[] = [];
  const session = new CallSession({
    pin: '123456',
    getUserMedia,
    now: () => NOW,
    createSignal: (signalOptions) => {
      const signal: FakeSignal = {
        options: signalOptions,
        start: vi.fn<Signal['start']>(),
        send: vi.fn<Signal['send']>(() => true),
        leave: vi.fn<Signal['leave']>(),
        close: vi.fn<Signal['close']>(),
      };
      signals.push(signal);
      return signal;
    },
    createPeerConnection: (config) => {
      const connection = new FakePeerConnection(config);
      connections.push(connection);
      return connection as unknown as RTCPeerConnection;
    },
    ...options.deps,
  });
  const notified = vi.fn();
  session.subscribe(notified);
  await session.start();
  const signal = signals[0]!;
  return {
    session,
    signal,
    tracks,
    connections,
    notified,
    state: () => session.getSnapshot(),
    emit: (event: SignalEvent) => signal.options.onEvent(event),
    /** Every message the session sent, in order. */
    sent: () => signal.send.mock.calls.map(([message]) => message as { type: string }),
    sentOf: (type: string) =>
      signal.send.mock.calls.map(([message]) => message as { type: string }).filter((message) => message.type === type),
  };
}

function joinedEvent(party: Party, peer: { name: string; party: Party } | null): SignalEvent {
  return {
    type: 'joined',
    joined: {
      type: 'joined',
      party,
      self_name: party === 'vet' ? VET.name : CUSTOMER.name,
      peer,
      ice_servers: ICE_SERVERS,
      resume_token: 'token-1',
    },
  };
}

describe('CallSession', () => {
  beforeEach(() => {
    FakePeerConnection.count = 0;
    vi.stubGlobal('MediaStream', FakeMediaStream);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens the devices, then the signalling connection with the PIN', async () => {
    const onResumeToken = vi.fn();
    const t = await startSession({ deps: { resumeToken: 'stored', onResumeToken } });
    expect(t.state()).toMatchObject({ phase: 'starting', audioOn: true, videoOn: true, problems: [] });
    expect(t.state().devices).toEqual({ audioInput: 'audio-default', videoInput: 'video-default' });
    expect(t.state().localStream?.getTracks()).toEqual(t.tracks);
    expect(t.signal.options).toMatchObject({ pin: '123456', resumeToken: 'stored', onResumeToken });
    expect(t.signal.start).toHaveBeenCalledTimes(1);
  });

  describe('as the vet', () => {
    it('offers as soon as it joins a room with the customer in it', async () => {
      const t = await startSession();
      t.emit(joinedEvent('vet', CUSTOMER));
      expect(t.state()).toMatchObject({
        phase: 'in-call',
        party: 'vet',
        selfName: 'Rui Vet',
        peer: CUSTOMER,
        peerLeft: false,
      });
      expect(t.connections).toHaveLength(1);
      const pc = t.connections[0]!;
      expect(pc.config).toEqual({ iceServers: ICE_SERVERS });
      // The local tracks go on the wire.
      expect(pc.addTransceiver.mock.calls.map(([track]) => track)).toEqual(t.tracks);
      await settle();
      expect(pc.createOffer).toHaveBeenCalledTimes(1);
      expect(pc.setLocalDescription).toHaveBeenCalledWith({ type: 'offer', sdp: 'offer-sdp-1' });
      expect(t.sentOf('offer')).toEqual([{ type: 'offer', sdp: 'offer-sdp-1' }]);
      expect(t.sentOf('media-state')).toEqual([{ type: 'media-state', audio: true, video: true }]);
    });

    it('waits alone, then offers on a fresh connection for every new customer connection', async () => {
      const t = await startSession();
      t.emit(joinedEvent('vet', null));
      expect(t.state()).toMatchObject({ phase: 'waiting', peer: null });
      await settle();
      expect(t.connections).toHaveLength(0);
      expect(t.sentOf('offer')).toEqual([]);

      t.emit({ type: 'peer-joined', ...CUSTOMER });
      expect(t.state()).toMatchObject({ phase: 'in-call', peer: CUSTOMER });
      await settle();
      expect(t.connections).toHaveLength(1);
      expect(t.sentOf('offer')).toEqual([{ type: 'offer', sdp: 'offer-sdp-1' }]);

      // The customer's tab reconnected: the old connection is useless.
      t.emit({ type: 'peer-joined', ...CUSTOMER });
      await settle();
      expect(t.connections).toHaveLength(2);
      expect(t.connections[0]!.close).toHaveBeenCalledTimes(1);
      expect(t.connections[1]!.close).not.toHaveBeenCalled();
      expect(t.sentOf('offer')).toEqual([
        { type: 'offer', sdp: 'offer-sdp-1' },
        { type: 'offer', sdp: 'offer-sdp-2' },
      ]);
      // Each new peer connection hears the media state again.
      expect(t.sentOf('media-state')).toHaveLength(3);
    });

    it('keeps ICE candidates that arrive before the answer, and adds them after it', async () => {
      const t = await startSession();
      t.emit(joinedEvent('vet', CUSTOMER));
      await settle();
      const pc = t.connections[0]!;
      const candidate = {
        candidate: 'candidate:1 1 udp 2122260223 10.0.0.2 54321 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      };

      t.emit({ type: 'relay', message: { type: 'ice-candidate', candidate } });
      t.emit({ type: 'relay', message: { type: 'ice-candidate', candidate: null } });
      await settle();
      expect(pc.addIceCandidate).not.toHaveBeenCalled();

      t.emit({ type: 'relay', message: { type: 'answer', sdp: 'answer-from-customer' } });
      await settle();
      expect(pc.setRemoteDescription).toHaveBeenCalledWith({ type: 'answer', sdp: 'answer-from-customer' });
      expect(pc.addIceCandidate.mock.calls).toEqual([[candidate], [undefined]]);
      expect(pc.setRemoteDescription.mock.invocationCallOrder[0]).toBeLessThan(
        pc.addIceCandidate.mock.invocationCallOrder[0]!,
      );

      // Once the answer is in, a candidate goes straight on.
      const late = { ...candidate, candidate: 'candidate:2 1 udp 1 10.0.0.3 5 typ host' };
      t.emit({ type: 'relay', message: { type: 'ice-candidate', candidate: late } });
      await settle();
      expect(pc.addIceCandidate).toHaveBeenLastCalledWith(late);
    });

    it('ignores an offer: only the vet offers', async () => {
      const t = await startSession();
      t.emit(joinedEvent('vet', CUSTOMER));
      await settle();
      t.emit({ type: 'relay', message: { type: 'offer', sdp: 'stray-offer' } });
      await settle();
      expect(t.connections[0]!.setRemoteDescription).not.toHaveBeenCalled();
      expect(t.sentOf('answer')).toEqual([]);
    });
  });

  describe('as the customer', () => {
    it('never offers, and answers the vet’s offer', async () => {
      const t = await startSession();
      t.emit(joinedEvent('customer', VET));
      expect(t.state()).toMatchObject({ phase: 'in-call', party: 'customer', peer: VET });
      await settle();
      expect(t.connections).toHaveLength(0);

      t.emit({ type: 'relay', message: { type: 'offer', sdp: 'offer-from-vet' } });
      await settle();
      expect(t.connections).toHaveLength(1);
      const pc = t.connections[0]!;
      expect(pc.config).toEqual({ iceServers: ICE_SERVERS });
      expect(pc.addTransceiver).not.toHaveBeenCalled();
      expect(pc.createOffer).not.toHaveBeenCalled();
      expect(pc.setRemoteDescription).toHaveBeenCalledWith({ type: 'offer', sdp: 'offer-from-vet' });
      expect(pc.createAnswer).toHaveBeenCalledTimes(1);
      expect(pc.setLocalDescription).toHaveBeenCalledWith({ type: 'answer', sdp: 'answer-sdp-1' });
      expect(t.sentOf('answer')).toEqual([{ type: 'answer', sdp: 'answer-sdp-1' }]);
      expect(t.sentOf('offer')).toEqual([]);
      // The offered transceivers carry the customer's tracks back.
      expect(pc.transceivers.map((transceiver) => transceiver.sender.track)).toEqual(t.tracks);
      expect(pc.transceivers.map((transceiver) => transceiver.direction)).toEqual(['sendrecv', 'sendrecv']);

      // A candidate after the offer goes straight on.
      const candidate = { candidate: 'candidate:1 1 udp 1 10.0.0.2 5 typ host', sdpMid: '0', sdpMLineIndex: 0 };
      t.emit({ type: 'relay', message: { type: 'ice-candidate', candidate } });
      await settle();
      expect(pc.addIceCandidate).toHaveBeenCalledWith(candidate);

      // The vet reconnected: a fresh connection answers its new offer.
      t.emit({ type: 'peer-joined', ...VET });
      expect(pc.close).toHaveBeenCalledTimes(1);
      t.emit({ type: 'relay', message: { type: 'offer', sdp: 'second-offer' } });
      await settle();
      expect(t.connections).toHaveLength(2);
      expect(t.sentOf('answer').at(-1)).toEqual({ type: 'answer', sdp: 'answer-sdp-2' });
      expect(t.connections.every((connection) => connection.createOffer.mock.calls.length === 0)).toBe(true);
    });
  });

  it('goes back to waiting when the other party leaves', async () => {
    const t = await startSession();
    t.emit(joinedEvent('vet', CUSTOMER));
    await settle();
    t.emit({ type: 'peer-left' });
    expect(t.state()).toMatchObject({
      phase: 'waiting',
      peer: null,
      peerLeft: true,
      remoteStream: null,
      mediaState: null,
    });
    expect(t.connections[0]!.close).toHaveBeenCalledTimes(1);

    t.emit({ type: 'peer-joined', ...CUSTOMER });
    expect(t.state()).toMatchObject({ phase: 'in-call', peerLeft: false });
  });

  it('shows what the other side says of its microphone and camera', async () => {
    const t = await startSession();
    t.emit(joinedEvent('customer', VET));
    expect(t.state().remoteMedia).toEqual({ audio: true, video: true });
    t.emit({ type: 'relay', message: { type: 'media-state', audio: false, video: true } });
    expect(t.state().remoteMedia).toEqual({ audio: false, video: true });
  });

  it('mutes and unmutes the microphone and tells the other side', async () => {
    const t = await startSession();
    t.emit(joinedEvent('customer', VET));
    const [audio] = t.tracks;

    t.session.toggleAudio();
    expect(audio!.enabled).toBe(false);
    expect(t.state().audioOn).toBe(false);
    expect(t.sent().at(-1)).toEqual({ type: 'media-state', audio: false, video: true });

    t.session.toggleAudio();
    expect(audio!.enabled).toBe(true);
    expect(t.sent().at(-1)).toEqual({ type: 'media-state', audio: true, video: true });

    t.session.toggleVideo();
    expect(t.tracks[1]!.enabled).toBe(false);
    expect(t.sent().at(-1)).toEqual({ type: 'media-state', audio: true, video: false });
  });

  it('says it has no camera when the camera could not be opened', async () => {
    const t = await startSession({ devices: ['audio'] });
    expect(t.state()).toMatchObject({ audioOn: true, videoOn: false });
    t.emit(joinedEvent('customer', VET));
    expect(t.sentOf('media-state')).toEqual([{ type: 'media-state', audio: true, video: false }]);
    t.session.toggleVideo();
    expect(t.sentOf('media-state')).toHaveLength(1);
  });

  describe('chat', () => {
    it('sends trimmed text and shows it as ours', async () => {
      const t = await startSession();
      t.emit(joinedEvent('customer', VET));
      expect(t.session.sendChat('  The dog is better  ')).toBe(true);
      expect(t.sent().at(-1)).toEqual({ type: 'chat', text: 'The dog is better' });
      expect(t.state().chat).toEqual([
        { id: 1, from: 'self', name: CUSTOMER.name, text: 'The dog is better', sentAt: NOW.toISOString() },
      ]);
    });

    it('sends nothing blank, and nothing while no one is there to read it', async () => {
      const t = await startSession();
      t.emit(joinedEvent('customer', null));
      expect(t.state().phase).toBe('waiting');
      expect(t.session.sendChat('hello?')).toBe(false);

      t.emit({ type: 'peer-joined', ...VET });
      expect(t.session.sendChat('   ')).toBe(false);
      expect(t.sentOf('chat')).toEqual([]);
      expect(t.state().chat).toEqual([]);
    });

    it('shows nothing as sent when the connection could not send it', async () => {
      const t = await startSession();
      t.emit(joinedEvent('customer', VET));
      t.signal.send.mockReturnValue(false);
      expect(t.session.sendChat('hello')).toBe(false);
      expect(t.state().chat).toEqual([]);
    });

    it('shows the other party’s messages with the server’s time', async () => {
      const t = await startSession();
      t.emit(joinedEvent('customer', VET));
      t.session.sendChat('Hi');
      t.emit({ type: 'relay', message: { type: 'chat', text: 'Hello Ana', sent_at: '2030-03-01T09:00:05.000Z' } });
      expect(t.state().chat).toEqual([
        { id: 1, from: 'self', name: CUSTOMER.name, text: 'Hi', sentAt: NOW.toISOString() },
        { id: 2, from: 'peer', name: VET.name, text: 'Hello Ana', sentAt: '2030-03-01T09:00:05.000Z' },
      ]);
    });
  });

  it('shows that the connection is coming back', async () => {
    const t = await startSession();
    t.emit(joinedEvent('customer', VET));
    t.emit({ type: 'reconnecting' });
    expect(t.state().phase).toBe('reconnecting');
    t.emit(joinedEvent('customer', VET));
    expect(t.state().phase).toBe('in-call');
  });

  it('fails with the reason when the room refuses, and lets the devices go', async () => {
    const t = await startSession();
    t.emit(joinedEvent('vet', CUSTOMER));
    await settle();
    t.emit({ type: 'closed', reason: 'room_full' });
    expect(t.state()).toMatchObject({ phase: 'failed', failure: 'room_full', peer: null, localStream: null });
    for (const track of t.tracks) expect(track.stop).toHaveBeenCalled();
    expect(t.connections[0]!.close).toHaveBeenCalledTimes(1);
  });

  it('ends without a failure on a closed "left"', async () => {
    const t = await startSession();
    t.emit(joinedEvent('customer', VET));
    t.emit({ type: 'closed', reason: 'left' });
    expect(t.state()).toMatchObject({ phase: 'ended', failure: null });
  });

  it('hangs up: leaves the room and lets the devices go', async () => {
    const t = await startSession();
    t.emit(joinedEvent('vet', CUSTOMER));
    await settle();
    t.session.hangUp();
    expect(t.signal.leave).toHaveBeenCalledTimes(1);
    expect(t.signal.close).not.toHaveBeenCalled();
    expect(t.state()).toMatchObject({ phase: 'ended', failure: null, peer: null, localStream: null });
    for (const track of t.tracks) expect(track.stop).toHaveBeenCalled();
    expect(t.connections[0]!.close).toHaveBeenCalledTimes(1);
    // Nothing is sent after the leave.
    const sends = t.signal.send.mock.calls.length;
    t.session.toggleAudio();
    expect(t.session.sendChat('still there?')).toBe(false);
    expect(t.signal.send.mock.calls.length).toBe(sends);
  });

  it('is quiet after dispose', async () => {
    const t = await startSession();
    t.emit(joinedEvent('vet', CUSTOMER));
    await settle();
    const before = t.state();
    const notifications = t.notified.mock.calls.length;
    expect(notifications).toBeGreaterThan(0);

    t.session.dispose();
    expect(t.signal.close).toHaveBeenCalledTimes(1);
    expect(t.signal.leave).not.toHaveBeenCalled();
    expect(t.connections[0]!.close).toHaveBeenCalledTimes(1);
    for (const track of t.tracks) expect(track.stop).toHaveBeenCalled();

    t.emit({ type: 'peer-left' });
    t.emit({ type: 'relay', message: { type: 'chat', text: 'late', sent_at: '2030-03-01T09:00:05.000Z' } });
    t.emit({ type: 'closed', reason: 'room_full' });
    expect(t.state()).toBe(before);
    expect(t.notified.mock.calls.length).toBe(notifications);
  });

  it('lets the devices go when disposed before they opened', async () => {
    const tracks = [new FakeTrack('audio'), new FakeTrack('video')];
    let open!: (stream: MediaStream) => void;
    const createSignal = vi.fn();
    const session = new CallSession({
      pin: '123456',
      getUserMedia: () =>
        new Promise<MediaStream>((resolve) => {
          open = resolve;
        }),
      createSignal,
    });
    const starting = session.start();
    session.dispose();
    open(new FakeMediaStream(tracks) as unknown as MediaStream);
    await starting;
    for (const track of tracks) expect(track.stop).toHaveBeenCalled();
    expect(createSignal).not.toHaveBeenCalled();
  });
});
