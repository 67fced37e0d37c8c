import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { tinyWebBuild } from '../../test/web-build.ts';

/** `script-src 'self' x` → { 'script-src': ["'self'", 'x'] } */
function directives(csp: string | undefined): Record<string, string[]> {
  expect(csp).toBeTypeOf('string');
  return Object.fromEntries(
    csp!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('Content-Security-Policy and the video room', () => {
  let t: TestApp | undefined;
  let webDist: string | undefined;
  let web: Awaited<ReturnType<typeof tinyWebBuild>> | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    if (webDist) await rm(webDist, { recursive: true, force: true });
    webDist = undefined;
    await web?.dispose();
    web = undefined;
  });

  /** The app with a web build: the room's page is where the policy counts. */
  const appWithPages = async (env: Record<string, string> = {}) => {
    web = await tinyWebBuild();
    return buildTestApp({ env: { ...env, WEB_DIST_DIR: web.dir } });
  };
  const csp = async () =>
    directives((await t!.app.inject({ method: 'GET', url: '/customer' })).headers['content-security-policy'] as string);

  it('allows only our own origin with the built-in room, including our own WebSocket', async () => {
    t = await appWithPages();
    const policy = await csp();
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-src']).toEqual(["'self'"]);
    // 'self' covers same-origin ws:/wss: in CSP Level 3 browsers; the explicit origin covers the rest.
    expect(policy['connect-src']).toEqual(["'self'", 'ws://vetcall.test']);
  });

  it('allows the Jitsi host to load its IFrame API and frame the room when VIDEO_PROVIDER is jitsi', async () => {
    t = await appWithPages({
      VIDEO_PROVIDER: 'jitsi',
      JITSI_DOMAIN: 'meet.clinic.test',
      PUBLIC_URL: 'https://vetcall.clinic.test',
    });
    const policy = await csp();
    expect(policy['script-src']).toEqual(["'self'", 'https://meet.clinic.test']);
    expect(policy['frame-src']).toEqual(["'self'", 'https://meet.clinic.test']);
    expect(policy['connect-src']).toEqual(["'self'", 'wss://vetcall.clinic.test', 'https://meet.clinic.test']);
    // Nothing else is widened.
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'self'"]);
  });

  it('lets the Jitsi page show our logo cross-origin, and nothing else', async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'vetcall-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>VetCall</title>');
    await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(webDist, 'robots.txt'), 'User-agent: *');
    const env = { WEB_DIST_DIR: webDist };

    t = await buildTestApp({ env: { ...env, VIDEO_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.clinic.test' } });
    const logo = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const other = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(other.headers['cross-origin-resource-policy']).toBe('same-origin');
    await t.close();

    t = await buildTestApp({ env });
    const builtin = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(builtin.statusCode).toBe(200);
    expect(builtin.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
