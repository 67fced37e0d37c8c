import {
  type RelayedSignalMessage,
  SIGNAL_CLOSE_CODES,
  SIGNAL_CLOSE_LEFT,
  SIGNAL_PATH,
  type SignalClientMessage,
  type SignalServerMessage,
  signalServerMessageSchema,
} from '@vetcall/shared/schemas/video';

/**
 * The client end of the signalling WebSocket (docs/video-signalling.md): joins with the PIN, keeps the
 * resume token, and when the connection drops (network change, server restart) reconnects with back-off
 * and takes its seat back with that token. A refusal the person must act on (room full, window closed …)
 * ends it instead.
 */

type Joined = Extract<SignalServerMessage, { type: 'joined' }>;

export type SignalEvent =
  | { type: 'joined'; joined: Joined }
  | { type: 'peer-joined'; name: string; party: Joined['party'] }
  | { type: 'peer-left' }
  | { type: 'relay'; message: RelayedSignalMessage }
  /** A message the server refused; the connection stays. */
  | { type: 'refused'; error: string }
  /** The connection dropped; a new one is on its way. */
  | { type: 'reconnecting' }
  /** For good: `left` after our own leave, else the error code to explain. */
  | { type: 'closed'; reason: string };

/** The part of the browser's WebSocket used here, so tests can hand in their own. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

const OPEN = 1;

/** Close codes after which trying again is right: the network, a server restart, a slow join. */
const RETRYABLE_CODES = new Set([1001, 1005, 1006, 1011, 1012, 1013, SIGNAL_CLOSE_CODES.join_timeout]);

/** Waits between attempts; the last one repeats. */
export const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** Close codes the server sends with no reason text, and what they mean. */
const REASON_BY_CODE = new Map<number, string>(
  Object.entries(SIGNAL_CLOSE_CODES).map(([reason, code]) => [code, reason]),
);

export function signalUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SIGNAL_PATH}`;
}

export interface SignalConnectionOptions {
  pin: string;
  /** From an earlier `joined` (a reload): takes the seat back from a connection that has not died yet. */
  resumeToken?: string;
  onEvent: (event: SignalEvent) => void;
  /** Called with each new token, to keep it across a reload. */
  onResumeToken?: (token: string) => void;
  createSocket?: (url: string) => SocketLike;
  url?: string;
  /** Where `online`/`offline` are heard (window in the browser). */
  networkEvents?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  isOnline?: () => boolean;
}

export class SignalConnection {
  private socket: SocketLike | null = null;
  private resumeToken: string | undefined;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private joined = false;
  private stopped = false;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly url: string;
  private readonly networkEvents: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined;
  private readonly isOnline: () => boolean;

  constructor(private readonly options: SignalConnectionOptions) {
    this.resumeToken = options.resumeToken;
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as SocketLike);
    this.url = options.url ?? signalUrl();
    this.networkEvents = options.networkEvents ?? (typeof window === 'undefined' ? undefined : window);
    this.isOnline = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  }

  start(): void {
    this.networkEvents?.addEventListener('online', this.handleOnline);
    this.networkEvents?.addEventListener('offline', this.handleOffline);
    this.connect();
  }

  /** Sends when joined; anything sent while (re)connecting is dropped, like the server drops it without a peer. */
  send(message: Exclude<SignalClientMessage, { type: 'join' | 'leave' }>): boolean {
    if (!this.joined || this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Ends the call for us: the peer is told, and nothing reconnects. */
  leave(): void {
    if (this.joined && this.socket?.readyState === OPEN) this.socket.send(JSON.stringify({ type: 'leave' }));
    this.stop(SIGNAL_CLOSE_LEFT, 'left');
  }

  /** Stops without telling the peer on purpose (the page goes away; the server sees the close). */
  close(): void {
    this.stop(SIGNAL_CLOSE_LEFT, 'closed');
  }

  private stop(code: number, reason: string) {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.networkEvents?.removeEventListener('online', this.handleOnline);
    this.networkEvents?.removeEventListener('offline', this.handleOffline);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(code, reason);
    }
  }

  private connect() {
    if (this.stopped) return;
    this.joined = false;
    const socket = this.createSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      socket.send(
        JSON.stringify({
          type: 'join',
          pin: this.options.pin,
          ...(this.resumeToken ? { resume_token: this.resumeToken } : {}),
        }),
      );
    };
    socket.onmessage = (event) => this.handleMessage(event);
    socket.onerror = () => {
      // Always followed by close, where the decision is made.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.handleClose(event);
    };
  }

  private handleMessage(event: MessageEvent) {
    let parsed: SignalServerMessage;
    try {
      const result = signalServerMessageSchema.safeParse(JSON.parse(String(event.data)));
      if (!result.success) return;
      parsed = result.data;
    } catch {
      return;
    }
    switch (parsed.type) {
      case 'joined':
        this.joined = true;
        this.attempt = 0;
        this.resumeToken = parsed.resume_token;
        this.options.onResumeToken?.(parsed.resume_token);
        this.options.onEvent({ type: 'joined', joined: parsed });
        return;
      case 'peer-joined':
        this.options.onEvent({ type: 'peer-joined', name: parsed.name, party: parsed.party });
        return;
      case 'peer-left':
        this.options.onEvent({ type: 'peer-left' });
        return;
      case 'error':
        this.options.onEvent({ type: 'refused', error: parsed.error });
        return;
      default:
        this.options.onEvent({ type: 'relay', message: parsed });
    }
  }

  private handleClose(event: CloseEvent) {
    if (this.stopped) return;
    if (RETRYABLE_CODES.has(event.code)) {
      this.options.onEvent({ type: 'reconnecting' });
      this.scheduleReconnect();
      return;
    }
    this.stop(event.code, 'closed');
    const reason = event.reason || REASON_BY_CODE.get(event.code) || 'service_unavailable';
    this.options.onEvent({ type: 'closed', reason: event.code === SIGNAL_CLOSE_LEFT ? 'left' : reason });
  }

  private scheduleReconnect() {
    clearTimeout(this.retryTimer);
    // Offline: wait for the network to come back (handleOnline) rather than spin.
    if (!this.isOnline()) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private readonly handleOnline = () => {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.connect();
  };

  /**
   * A socket can take minutes to notice a dead network. When the browser says it is offline, give the
   * socket up at once, so the room shows that it is reconnecting and reconnects as soon as it is back.
   */
  private readonly handleOffline = () => {
    const socket = this.socket;
    if (this.stopped || !socket) return;
    this.socket = null;
    socket.onclose = null;
    socket.onmessage = null;
    socket.close();
    this.joined = false;
    this.options.onEvent({ type: 'reconnecting' });
    this.scheduleReconnect();
  };
}
