import { SignJWT } from 'jose';
import type { Party, RoomWindow } from '@vetcall/shared/schemas/video';

/**
 * The JWT of a self-hosted Jitsi Meet with token auth (prosody's `authentication = "token"`, package
 * jitsi-meet-tokens): HS256 with prosody's `app_secret`, issued for one room and valid only within the
 * room's window. Signed with jose; the token is a credential: never log it.
 */

export interface JitsiTokenSettings {
  /** prosody's `app_id`: the token's issuer. */
  appId: string;
  /** prosody's `app_secret`: the HMAC key. */
  appSecret: string;
  /** The Jitsi host (JITSI_DOMAIN): the token's subject. */
  domain: string;
}

export type JitsiTokenClaims = {
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
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

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

/** The signed token (HS256 with the app secret, header `{ alg: 'HS256', typ: 'JWT' }`) carrying those claims. */
export function jitsiToken(
  settings: JitsiTokenSettings,
  admission: Parameters<typeof jitsiTokenClaims>[1],
  now: Date,
): Promise<string> {
  return new SignJWT(jitsiTokenClaims(settings, admission, now))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(settings.appSecret));
}
