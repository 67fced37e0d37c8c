import type { Party, RelayedSignalMessage } from '@vetcall/shared/schemas/video';
import {
  acquireLocalMedia,
  type DeviceChoice,
  type GetUserMedia,
  type LocalMedia,
  type MediaKind,
  type MediaProblem,
  openTrack,
  problemReason,
  stopStream,
} from './local-media';
import { PeerLink, type PeerLinkOptions, type VideoQuality } from './peer-link';
import { SignalConnection, type SignalConnectionOptions, type SignalEvent } from './signal-connection';

/**
 * One person's side of a consultation in the built-in room: their camera and microphone, the signalling
 * connection and the peer connection, as one state the room renders. React only subscribes to it
 * (useSyncExternalStore), so the call survives re-renders and is testable without a DOM.
 */

export type CallPhase =
  /** Opening the camera and microphone, then the signalling connection. */
  | 'starting'
  /** In the room; the other party is not (yet, or any more). */
  | 'waiting'
  | 'in-call'
  /** The signalling connection dropped and is coming back. */
  | 'reconnecting'
  /** We hung up. */
  | 'ended'
  /** The room refused us or closed; `failure` says why. */
  | 'failed';

export interface ChatMessage {
  id: number;
  from: 'self' | 'peer';
  /** The sender's name as it was when the message came (the peer may have left since). */
  name: string;
  text: string;
  sentAt: string;
}

export interface CallState {
  phase: CallPhase;
  party: Party | null;
  selfName: string;
  peer: { name: string; party: Party } | null;
  /** The other party was here and left; they may come back. */
  peerLeft: boolean;
  remoteStream: MediaStream | null;
  /** What the other side says of its microphone and camera (`media-state`). */
  remoteMedia: { audio: boolean; video: boolean };
  /** The media path itself, once there is a peer. */
  mediaState: RTCPeerConnectionState | null;
  localStream: MediaStream | null;
  audioOn: boolean;
  videoOn: boolean;
  sharingScreen: boolean;
  problems: MediaProblem[];
  chat: ChatMessage[];
  devices: DeviceChoice & { audioOutput?: string };
  quality: VideoQuality;
  /** An error code (catalog `errors.<code>`) when `phase` is 'failed'. */
  failure: string | null;
}

export interface CallSessionDeps {
  pin: string;
  resumeToken?: string;
  onResumeToken?: (token: string) => void;
  getUserMedia?: GetUserMedia;
  getDisplayMedia?: () => Promise<MediaStream>;
  createSignal?: (options: SignalConnectionOptions) => Pick<SignalConnection, 'start' | 'send' | 'leave' | 'close'>;
  createPeerConnection?: PeerLinkOptions['createPeerConnection'];
  now?: () => Date;
}

const INITIAL: CallState = {
  phase: 'starting',
  party: null,
  selfName: '',
  peer: null,
  peerLeft: false,
  remoteStream: null,
  remoteMedia: { audio: true, video: true },
  mediaState: null,
  localStream: null,
  audioOn: true,
  videoOn: true,
  sharingScreen: false,
  problems: [],
  chat: [],
  devices: {},
  quality: 'high',
  failure: null,
};

export class CallSession {
  private state: CallState = INITIAL;
  private readonly listeners = new Set<() => void>();
  private signal: Pick<SignalConnection, 'start' | 'send' | 'leave' | 'close'> | null = null;
  private link: PeerLink | null = null;
  private iceServers: RTCIceServer[] = [];
  private cameraTrack: MediaStreamTrack | null = null;
  private screenTrack: MediaStreamTrack | null = null;
  private chatSequence = 0;
  private disposed = false;
  /** Bumped by every start and dispose: a start still waiting for the camera knows it was superseded. */
  private generation = 0;

  constructor(private readonly deps: CallSessionDeps) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CallState => this.state;

  private update(patch: Partial<CallState>) {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Starts (or, after dispose, restarts: React may mount an effect twice) the call. */
  async start(): Promise<void> {
    const generation = ++this.generation;
    this.disposed = false;
    this.state = INITIAL;
    const media: LocalMedia = await acquireLocalMedia({}, this.deps.getUserMedia);
    if (this.disposed || generation !== this.generation) {
      stopStream(media.stream);
      return;
    }
    this.cameraTrack = media.stream.getVideoTracks()[0] ?? null;
    const track = (kind: MediaKind) => (kind === 'audio' ? media.stream.getAudioTracks()[0] : this.cameraTrack);
    this.update({
      localStream: media.stream,
      problems: media.problems,
      audioOn: Boolean(track('audio')),
      videoOn: Boolean(track('video')),
      devices: {
        audioInput: track('audio')?.getSettings?.().deviceId,
        videoInput: track('video')?.getSettings?.().deviceId,
      },
    });
    const create = this.deps.createSignal ?? ((options) => new SignalConnection(options));
    this.signal = create({
      pin: this.deps.pin,
      resumeToken: this.deps.resumeToken,
      onResumeToken: this.deps.onResumeToken,
      onEvent: (event) => this.handleSignal(event),
    });
    this.signal.start();
  }

  // ----- signalling

  private handleSignal(event: SignalEvent) {
    switch (event.type) {
      case 'joined': {
        const { joined } = event;
        this.iceServers = joined.ice_servers;
        this.update({ party: joined.party, selfName: joined.self_name });
        if (joined.peer) this.meetPeer(joined.peer);
        else {
          // Back after a drop to an empty room: the old peer connection leads nowhere any more.
          const hadPeer = this.state.peer !== null;
          this.dropLink();
          this.update({
            phase: 'waiting',
            peer: null,
            peerLeft: this.state.peerLeft || hadPeer,
            remoteStream: null,
            mediaState: null,
          });
        }
        this.sendMediaState();
        return;
      }
      case 'peer-joined':
        this.meetPeer({ name: event.name, party: event.party });
        this.sendMediaState();
        return;
      case 'peer-left':
        this.dropLink();
        this.update({ phase: 'waiting', peer: null, peerLeft: true, remoteStream: null, mediaState: null });
        return;
      case 'relay':
        this.handleRelay(event.message);
        return;
      case 'refused':
        return;
      case 'reconnecting':
        this.update({ phase: 'reconnecting' });
        return;
      case 'closed':
        this.finish(event.reason === 'left' ? 'ended' : 'failed', event.reason === 'left' ? null : event.reason);
        return;
    }
  }

  /**
   * A new connection of the other party (or ours, after a reconnect): always a fresh peer connection,
   * offered by the vet's side, so both ends start from the same state however they got here.
   */
  private meetPeer(peer: { name: string; party: Party }) {
    this.dropLink();
    this.update({
      phase: 'in-call',
      peer,
      peerLeft: false,
      remoteStream: null,
      mediaState: 'new',
      remoteMedia: { audio: true, video: true },
    });
    if (this.state.party === 'vet') {
      this.link = this.createLink();
      void this.link.offer();
    }
  }

  private createLink(): PeerLink {
    const stream = this.state.localStream ?? new MediaStream();
    const link = new PeerLink({
      role: this.state.party === 'vet' ? 'offerer' : 'answerer',
      iceServers: this.iceServers,
      stream,
      tracks: { audio: stream.getAudioTracks()[0] ?? null, video: this.screenTrack ?? this.cameraTrack },
      quality: this.state.quality,
      send: (message) => this.signal?.send(message),
      onRemoteStream: (remote) => {
        if (this.link === link) this.update({ remoteStream: remote });
      },
      onConnectionState: (mediaState) => {
        if (this.link === link) this.update({ mediaState });
      },
      createPeerConnection: this.deps.createPeerConnection,
    });
    return link;
  }

  private handleRelay(message: RelayedSignalMessage) {
    switch (message.type) {
      case 'offer':
        if (this.state.party !== 'customer') return;
        this.link ??= this.createLink();
        void this.link.handle(message);
        return;
      case 'answer':
      case 'ice-candidate':
        void this.link?.handle(message);
        return;
      case 'chat':
        this.update({
          chat: [
            ...this.state.chat,
            {
              id: ++this.chatSequence,
              from: 'peer',
              name: this.state.peer?.name ?? '',
              text: message.text,
              sentAt: message.sent_at,
            },
          ],
        });
        return;
      case 'media-state':
        this.update({ remoteMedia: { audio: message.audio, video: message.video } });
        return;
    }
  }

  private dropLink() {
    this.link?.close();
    this.link = null;
  }

  private sendMediaState() {
    this.signal?.send({
      type: 'media-state',
      audio: this.state.audioOn,
      video: this.state.videoOn || this.state.sharingScreen,
    });
  }

  // ----- actions

  toggleAudio(): void {
    const track = this.state.localStream?.getAudioTracks()[0];
    if (!track) return;
    track.enabled = !this.state.audioOn;
    this.update({ audioOn: track.enabled });
    this.sendMediaState();
  }

  toggleVideo(): void {
    if (!this.cameraTrack) return;
    this.cameraTrack.enabled = !this.state.videoOn;
    this.update({ videoOn: this.cameraTrack.enabled });
    this.sendMediaState();
  }

  /** Shares a screen in place of the camera; stopping (here or in the browser's bar) puts the camera back. */
  async startScreenShare(): Promise<void> {
    const getDisplayMedia =
      this.deps.getDisplayMedia ?? (() => navigator.mediaDevices.getDisplayMedia({ video: true, audio: false }));
    const display = await getDisplayMedia();
    const track = display.getVideoTracks()[0];
    if (!track || this.disposed) {
      stopStream(display);
      return;
    }
    track.onended = () => void this.stopScreenShare();
    this.screenTrack = track;
    await this.link?.replaceTrack('video', track);
    this.update({ sharingScreen: true });
    this.sendMediaState();
  }

  async stopScreenShare(): Promise<void> {
    const track = this.screenTrack;
    if (!track) return;
    this.screenTrack = null;
    track.onended = null;
    track.stop();
    await this.link?.replaceTrack('video', this.cameraTrack);
    this.update({ sharingScreen: false });
    this.sendMediaState();
  }

  /** Another camera or microphone, mid-call; on failure the old one stays and the problem is answered. */
  async switchDevice(kind: MediaKind, deviceId: string): Promise<MediaProblem | null> {
    let track: MediaStreamTrack;
    try {
      track = await openTrack(kind, deviceId, this.deps.getUserMedia);
    } catch (error) {
      return { kind, reason: problemReason(error) };
    }
    const stream = this.state.localStream ?? new MediaStream();
    const old = kind === 'audio' ? stream.getAudioTracks()[0] : this.cameraTrack;
    track.enabled = old ? old.enabled : true;
    if (old) {
      stream.removeTrack(old);
      old.stop();
    }
    stream.addTrack(track);
    if (kind === 'video') this.cameraTrack = track;
    if (kind === 'audio' || !this.screenTrack) await this.link?.replaceTrack(kind, track);
    const problems = this.state.problems.filter((problem) => problem.kind !== kind);
    this.update({
      localStream: stream,
      problems,
      devices: { ...this.state.devices, [kind === 'audio' ? 'audioInput' : 'videoInput']: deviceId },
      ...(kind === 'audio' ? { audioOn: track.enabled } : { videoOn: track.enabled }),
    });
    this.sendMediaState();
    return null;
  }

  /** The speaker is the remote media element's business (setSinkId); the choice is kept here. */
  chooseSpeaker(deviceId: string): void {
    this.update({ devices: { ...this.state.devices, audioOutput: deviceId } });
  }

  async setQuality(quality: VideoQuality): Promise<void> {
    this.update({ quality });
    await this.link?.setQuality(quality);
  }

  /** Sends a chat message; false when nobody is there to read it (chat keeps no history). */
  sendChat(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed || this.state.phase !== 'in-call') return false;
    if (!this.signal?.send({ type: 'chat', text: trimmed })) return false;
    const sentAt = (this.deps.now?.() ?? new Date()).toISOString();
    this.update({
      chat: [
        ...this.state.chat,
        { id: ++this.chatSequence, from: 'self', name: this.state.selfName, text: trimmed, sentAt },
      ],
    });
    return true;
  }

  hangUp(): void {
    this.signal?.leave();
    this.finish('ended', null);
  }

  private finish(phase: 'ended' | 'failed', failure: string | null) {
    this.dropLink();
    this.signal = null;
    this.releaseMedia();
    this.update({ phase, failure, peer: null, remoteStream: null, mediaState: null, localStream: null });
  }

  private releaseMedia() {
    stopStream(this.state.localStream);
    this.screenTrack?.stop();
    this.screenTrack = null;
    this.cameraTrack = null;
  }

  /** The room unmounts: close everything without a word to the peer (the server sees the socket close). */
  dispose(): void {
    this.signal?.close();
    this.signal = null;
    this.dropLink();
    this.releaseMedia();
    this.disposed = true;
    this.generation += 1;
  }
}
