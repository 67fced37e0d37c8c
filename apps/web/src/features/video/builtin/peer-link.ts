import type { RelayedSignalMessage, SignalClientMessage } from '@vetcall/shared/schemas/video';
import type { MediaKind } from './local-media';

/**
 * One RTCPeerConnection between the vet and the customer. The vet's side makes every offer and the
 * customer's only answers (docs/video-signalling.md), so the two never offer at once. Each side always
 * carries one audio and one video transceiver, even without a device: turning a camera on later, switching
 * devices or sharing the screen is then a `replaceTrack`, with no new negotiation.
 */

export type PeerRole = 'offerer' | 'answerer';

export type VideoQuality = 'high' | 'standard' | 'low';

/** Sender limits per quality: what a weak uplink or a metered connection needs. */
const QUALITY_ENCODING: Record<VideoQuality, { maxBitrate: number; scaleResolutionDownBy: number }> = {
  high: { maxBitrate: 2_500_000, scaleResolutionDownBy: 1 },
  standard: { maxBitrate: 900_000, scaleResolutionDownBy: 1.5 },
  low: { maxBitrate: 250_000, scaleResolutionDownBy: 3 },
};

/** How long a 'disconnected' connection may take to come back on its own before the offerer restarts ICE. */
const ICE_RESTART_AFTER_MS = 4000;

export interface PeerLinkOptions {
  role: PeerRole;
  iceServers: RTCIceServer[];
  tracks: Record<MediaKind, MediaStreamTrack | null>;
  /** The local stream the tracks belong to, so the other side receives them as one stream. */
  stream: MediaStream;
  quality: VideoQuality;
  send: (message: Exclude<SignalClientMessage, { type: 'join' | 'leave' }>) => void;
  onRemoteStream: (stream: MediaStream) => void;
  onConnectionState: (state: RTCPeerConnectionState) => void;
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
}

type NegotiationMessage = Extract<RelayedSignalMessage, { type: 'offer' | 'answer' | 'ice-candidate' }>;

export class PeerLink {
  private readonly pc: RTCPeerConnection;
  private readonly remoteStream = new MediaStream();
  private readonly transceivers = new Map<MediaKind, RTCRtpTransceiver>();
  private readonly tracks: Record<MediaKind, MediaStreamTrack | null>;
  private pendingCandidates: (RTCIceCandidateInit | null)[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private quality: VideoQuality;
  private closed = false;
  /** Messages are handled one at a time: a candidate must not overtake the offer it belongs to. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: PeerLinkOptions) {
    this.tracks = { ...options.tracks };
    this.quality = options.quality;
    const create = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.pc = create({ iceServers: options.iceServers });
    this.pc.onicecandidate = (event) => {
      const candidate = event.candidate?.toJSON();
      options.send({
        type: 'ice-candidate',
        candidate: candidate ? { ...candidate, candidate: candidate.candidate ?? '' } : null,
      });
    };
    this.pc.ontrack = (event) => {
      // Our own stream rather than event.streams[0]: an answerer's tracks may arrive without a stream id.
      for (const old of this.remoteStream.getTracks().filter((track) => track.kind === event.track.kind)) {
        this.remoteStream.removeTrack(old);
      }
      this.remoteStream.addTrack(event.track);
      options.onRemoteStream(this.remoteStream);
    };
    this.pc.onconnectionstatechange = () => this.handleConnectionState();
    if (options.role === 'offerer') {
      for (const kind of ['audio', 'video'] as const) {
        const track = this.tracks[kind];
        const transceiver = track
          ? this.pc.addTransceiver(track, { direction: 'sendrecv', streams: [options.stream] })
          : this.pc.addTransceiver(kind, { direction: 'sendrecv', streams: [options.stream] });
        this.transceivers.set(kind, transceiver);
      }
      void this.applyQuality();
    }
  }

  /** The vet's side: a fresh offer (a new connection), or an ICE restart after the network changed. */
  offer(iceRestart = false): Promise<void> {
    return this.enqueue(async () => {
      if (this.options.role !== 'offerer') return;
      const offer = await this.pc.createOffer({ iceRestart });
      await this.pc.setLocalDescription(offer);
      this.options.send({ type: 'offer', sdp: this.pc.localDescription!.sdp });
    });
  }

  handle(message: NegotiationMessage): Promise<void> {
    return this.enqueue(async () => {
      if (message.type === 'offer') await this.acceptOffer(message.sdp);
      else if (message.type === 'answer') await this.acceptAnswer(message.sdp);
      else await this.addCandidate(message.candidate);
    });
  }

  /** Puts another device (or the shared screen) on the wire; null sends nothing of that kind. */
  async replaceTrack(kind: MediaKind, track: MediaStreamTrack | null): Promise<void> {
    this.tracks[kind] = track;
    const transceiver = this.transceivers.get(kind);
    if (transceiver && !this.closed) await transceiver.sender.replaceTrack(track);
  }

  async setQuality(quality: VideoQuality): Promise<void> {
    this.quality = quality;
    await this.applyQuality();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.pc.onicecandidate = null;
    this.pc.ontrack = null;
    this.pc.onconnectionstatechange = null;
    this.pc.close();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => (this.closed ? undefined : task()));
    // A failed step must not block the ones after it (the next offer repairs the state).
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async acceptOffer(sdp: string) {
    if (this.options.role !== 'answerer') return;
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
    for (const transceiver of this.pc.getTransceivers()) {
      const kind = transceiver.receiver.track.kind as MediaKind;
      if (this.transceivers.has(kind)) continue;
      this.transceivers.set(kind, transceiver);
      transceiver.direction = 'sendrecv';
      const track = this.tracks[kind];
      if (track) {
        transceiver.sender.setStreams?.(this.options.stream);
        await transceiver.sender.replaceTrack(track);
      }
    }
    await this.applyQuality();
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    this.options.send({ type: 'answer', sdp: this.pc.localDescription!.sdp });
    await this.flushCandidates();
  }

  private async acceptAnswer(sdp: string) {
    // An answer to an offer we have since replaced is stale: the newer offer's answer follows.
    if (this.pc.signalingState !== 'have-local-offer') return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp });
    await this.flushCandidates();
  }

  private async addCandidate(candidate: RTCIceCandidateInit | null) {
    if (!this.pc.remoteDescription) {
      this.pendingCandidates.push(candidate);
      return;
    }
    await this.pc.addIceCandidate(candidate ?? undefined).catch(() => {
      // A candidate of an earlier negotiation (ICE restart): harmless to miss.
    });
  }

  private async flushCandidates() {
    const pending = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const candidate of pending) await this.addCandidate(candidate);
  }

  private async applyQuality() {
    const sender = this.transceivers.get('video')?.sender;
    if (!sender || this.closed) return;
    const parameters = sender.getParameters();
    if (!parameters.encodings?.length) return;
    const encoding = QUALITY_ENCODING[this.quality];
    parameters.encodings = parameters.encodings.map((entry) => ({ ...entry, ...encoding }));
    await sender.setParameters(parameters).catch(() => {
      // Some browsers refuse limits before the first negotiation; the next call after it applies them.
    });
  }

  private handleConnectionState() {
    const state = this.pc.connectionState;
    this.options.onConnectionState(state);
    clearTimeout(this.restartTimer);
    if (this.options.role !== 'offerer' || this.closed) return;
    if (state === 'failed') void this.offer(true);
    else if (state === 'disconnected')
      this.restartTimer = setTimeout(() => void this.offer(true), ICE_RESTART_AFTER_MS);
    else if (state === 'connected') void this.applyQuality();
  }
}
