import { createHmac } from 'node:crypto';
import type { Party, RoomWindow } from '@vetcall/shared/schemas/video';

/**
 * The JWT of a self-hosted Jitsi Meet with token auth (prosody's `authentication = "token"`, package
 * jitsi-meet-tokens): HS256 with prosody's `app_secret`, issued for one room and valid only within the
 * room's window. Signed here with node:crypto; the token is a credential: never log it.
 */

export interface JitsiTokenSettings {
  /** prosody's `app_id`: the token's issuer. */
  appId: string;
  /** prosody's `app_secret`: the HMAC key. */
  appSecret: string;
  /** The Jitsi host (JITSI_DOMAIN): the token's subject. */
  domain: string;
}

export interface JitsiTokenClaims {
  aud: 'jitsi';
  iss: string;
  sub: string;
  /** The room the token opens: the appointment hash (prosody compares it lowercased). */
  room: string;
  /** Seconds since the epoch: the room's window, and when the token was made. */
  nbf: number;
  exp: number;
  iat: number;
  context: { user: { name: string; email: string; moderator: boolean } };
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** `header.payload.signature`, each base64url without padding (RFC 7519), signed HMAC-SHA256. */
export function signHs256(payload: object, secret: string): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

/** The claims of one person's token for an appointment's room; the vet moderates. */
export function jitsiTokenClaims(
  settings: Pick<JitsiTokenSettings, 'appId' | 'domain'>,
  admission: { hash: string; party: Party; user: { name: string; email: string }; window: RoomWindow },
  now: Date,
): JitsiTokenClaims {
  return {
    aud: 'jitsi',
    iss: settings.appId,
    sub: settings.domain,
    room: admission.hash,
    nbf: seconds(admission.window.opensAt),
    exp: seconds(admission.window.closesAt),
    iat: seconds(now),
    context: {
      user: { name: admission.user.name, email: admission.user.email, moderator: admission.party === 'vet' },
    },
  };
}

export function jitsiToken(
  settings: JitsiTokenSettings,
  admission: Parameters<typeof jitsiTokenClaims>[1],
  now: Date,
): string {
  return signHs256(jitsiTokenClaims(settings, admission, now), settings.appSecret);
}
