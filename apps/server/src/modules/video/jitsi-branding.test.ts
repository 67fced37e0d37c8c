import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { JITSI_LOGO_PATH } from '../../providers/video/jitsi-branding.ts';

describe('GET /api/video/jitsi-branding', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("answers Jitsi's dynamic branding with our colour and logo, readable by the Jitsi origin, cached an hour", async () => {
    t = await buildTestApp({
      env: { VIDEO_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.clinic.test', PUBLIC_URL: 'https://vetcall.clinic.test' },
    });
    // No login.
    const response = await t.app.inject({ method: 'GET', url: '/api/video/jitsi-branding' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      backgroundColor: '#085561',
      premeetingBackground: '#085561',
      logoImageUrl: 'https://vetcall.clinic.test/favicon.svg',
      logoClickUrl: 'https://vetcall.clinic.test',
      inviteDomain: 'vetcall.clinic.test',
    });
    expect(response.headers['access-control-allow-origin']).toBe('https://meet.clinic.test');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('points at a logo the web build has', () => {
    expect(existsSync(path.resolve(import.meta.dirname, '../../../../web/public', `.${JITSI_LOGO_PATH}`))).toBe(true);
  });

  it('lets no other origin read it with the built-in room', async () => {
    t = await buildTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/video/jitsi-branding' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ logoImageUrl: 'http://vetcall.test/favicon.svg' });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
