import { createHmac } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { roomWindow } from '@vetcall/shared/schemas/video';
import { ConfigError, loadConfig } from '../../config.ts';
import { jitsiToken, jitsiTokenClaims } from './jitsi-token.ts';

const SETTINGS = { appId: 'vetcall', appSecret: 's'.repeat(40), domain: 'meet.clinic.test' };
const START = new Date('2026-03-10T14:00:00Z');
const admission = (party: 'customer' | 'vet', name = party === 'vet' ? 'Rui Vet' : 'Ana Dona') => ({
  hash: 'Ab-9_xYz',
  party,
  user: { name, email: `${party}@vetcall.test` },
  window: roomWindow(START),
});
const NOW = new Date('2026-03-10T13:45:10.999Z');
const key = (secret: string) => new TextEncoder().encode(secret);

/** What prosody checks: the signature with app_secret, issuer, audience, subject and the time window. */
const verify = (token: string, options: { secret?: string; at?: Date } = {}) =>
  jwtVerify(token, key(options.secret ?? SETTINGS.appSecret), {
    algorithms: ['HS256'],
    issuer: 'vetcall',
    audience: 'jitsi',
    subject: 'meet.clinic.test',
    currentDate: options.at ?? NOW,
  });

function decodePart(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

describe('jitsiToken', () => {
  it('is three base64url parts without padding, HS256 over the first two with the app secret', async () => {
    const token = await jitsiToken(SETTINGS, admission('customer'), NOW);
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    const [header, payload, signature] = parts as [string, string, string];
    expect(decodePart(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
    // Checked apart from jose, too: HMAC-SHA256 of `header.payload`.
    const expected = createHmac('sha256', SETTINGS.appSecret).update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
    expect((await verify(token)).protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    // Another secret gives another signature: prosody with another app_secret refuses it.
    await expect(verify(token, { secret: 't'.repeat(40) })).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
  });

  it("carries the claims prosody checks: issuer, audience, subject, the room, and the room's window", async () => {
    const { payload } = await verify(await jitsiToken(SETTINGS, admission('customer'), NOW));
    expect(payload).toEqual({
      aud: 'jitsi',
      iss: 'vetcall',
      sub: 'meet.clinic.test',
      room: 'Ab-9_xYz',
      // 13:30 and 15:00 UTC, in whole seconds; iat from the clock given, rounded down.
      nbf: Date.parse('2026-03-10T13:30:00Z') / 1000,
      exp: Date.parse('2026-03-10T15:00:00Z') / 1000,
      iat: Date.parse('2026-03-10T13:45:10Z') / 1000,
      context: { user: { name: 'Ana Dona', email: 'customer@vetcall.test', moderator: false } },
    });
  });

  it('is valid only within the room’s window', async () => {
    const token = await jitsiToken(SETTINGS, admission('customer'), NOW);
    await expect(verify(token, { at: new Date('2026-03-10T13:29:00Z') })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
    await expect(verify(token, { at: new Date('2026-03-10T14:59:59Z') })).resolves.toBeTruthy();
    await expect(verify(token, { at: new Date('2026-03-10T15:00:00Z') })).rejects.toBeInstanceOf(errors.JWTExpired);
  });

  it('makes the vet the moderator, and only the vet', () => {
    expect(jitsiTokenClaims(SETTINGS, admission('vet'), NOW).context.user).toEqual({
      name: 'Rui Vet',
      email: 'vet@vetcall.test',
      moderator: true,
    });
    expect(jitsiTokenClaims(SETTINGS, admission('customer'), NOW).context.user.moderator).toBe(false);
  });

  it('encodes non-ASCII names as UTF-8 JSON', async () => {
    const token = await jitsiToken(SETTINGS, admission('customer', 'João Ção'), NOW);
    expect(decodePart(token.split('.')[1]!)).toMatchObject({ context: { user: { name: 'João Ção' } } });
    expect((await verify(token)).payload.context).toMatchObject({ user: { name: 'João Ção' } });
    expect(token).not.toContain('=');
  });
});

describe('JITSI_APP_ID and JITSI_APP_SECRET', () => {
  const jitsi = { VIDEO_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.clinic.test' };

  it('turn token auth on with the jitsi provider', () => {
    const config = loadConfig({ ...jitsi, JITSI_APP_ID: 'vetcall', JITSI_APP_SECRET: 's'.repeat(32) });
    expect(config.video.jitsiToken).toEqual({ appId: 'vetcall', appSecret: 's'.repeat(32) });
  });

  it('are ignored with the built-in room', () => {
    const config = loadConfig({ JITSI_APP_ID: 'vetcall', JITSI_APP_SECRET: 's'.repeat(32) });
    expect(config.video.jitsiToken).toBeUndefined();
  });

  it.each([
    [{ JITSI_APP_ID: 'vetcall' }, 'JITSI_APP_SECRET'],
    [{ JITSI_APP_SECRET: 's'.repeat(32) }, 'JITSI_APP_ID'],
    [{ JITSI_APP_ID: 'vetcall', JITSI_APP_SECRET: 'short' }, 'JITSI_APP_SECRET'],
  ])('refuse %j, naming %s', (env, name) => {
    expect(() => loadConfig({ ...jitsi, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...jitsi, ...env })).toThrow(name);
  });
});
