import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCustomer } from '../../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { PRODUCTION_ENV } from '../../../test/production-env.ts';

function unescapeHtml(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

describe('/dev/mail outbox viewer', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('lists the mail the demo server would have sent and shows a working reset link', async () => {
    t = await buildTestApp();
    expect(t.config.isDemo).toBe(true);
    expect(t.context.mailer.kind).toBe('outbox');
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password', name: 'Rita' });

    const empty = await t.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No messages yet.');

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/login/sendpasswordresetemail/en',
      payload: { email: 'rita@clinic.test' },
    });
    expect(reset.statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toMatch(/^text\/html/);
    expect(list.body).toContain('Reset your VetCall password');
    expect(list.body).toContain('rita@clinic.test');
    const hrefs = [...list.body.matchAll(/href="\/dev\/mail\/([^"]+)"/g)].map((match) => match[1]!);
    expect(hrefs).toHaveLength(1);
    expect(await readdir(path.join(t.config.dataDir, 'outbox'))).toEqual(hrefs);

    const message = await t.app.inject({ method: 'GET', url: `/dev/mail/${hrefs[0]}` });
    expect(message.statusCode).toBe(200);
    expect(message.body).toContain('Reset your VetCall password');
    const link = /href="(http:\/\/vetcall\.test\/newpassword\?token=[^"]+)"/.exec(message.body)?.[1];
    expect(link).toBeDefined();
    const url = new URL(unescapeHtml(link!));
    expect(url.searchParams.get('lang')).toBe('en');
    const token = url.searchParams.get('token')!;
    expect(token).toMatch(/^[\w-]{43}$/);

    // The link shown is the real one: it sets the password.
    const update = await t.app.inject({
      method: 'POST',
      url: '/api/login/updatepassword',
      payload: { password: 'from the outbox', token },
    });
    expect(update.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'rita@clinic.test', password: 'from the outbox' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('never serves files outside the outbox, nor names that are not messages', async () => {
    t = await buildTestApp();
    const outbox = path.join(t.config.dataDir, 'outbox');
    await mkdir(outbox, { recursive: true });
    await writeFile(path.join(t.config.dataDir, 'x.eml'), 'Subject: SECRET-OUTSIDE\n\nnot for you\n');
    await writeFile(path.join(outbox, 'notes.txt'), 'SECRET-NOTES');

    for (const name of ['..%2Fx.eml', '..%2F..%2Fx.eml', '%2E%2E%2Fx.eml', '..%5Cx.eml', 'notes.txt', 'missing.eml']) {
      const response = await t.app.inject({ method: 'GET', url: `/dev/mail/${name}` });
      expect([400, 404], name).toContain(response.statusCode);
      expect(response.body, name).not.toContain('SECRET');
      expect(typeof response.json().error, name).toBe('string');
    }
    const dotted = await t.app.inject({ method: 'GET', url: '/dev/mail/../x.eml' });
    expect(dotted.body).not.toContain('SECRET');
  });

  it('does not exist in production', async () => {
    t = await buildTestApp({ env: { ...PRODUCTION_ENV } });
    expect(t.config.isDemo).toBe(false);
    for (const url of ['/dev/mail', '/dev/mail/', '/dev/mail/2030-01-01T00-00-00-000Z-abcdef.eml']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error).toBe('not_found');
    }
  });

  it('does not exist when real SMTP is configured', async () => {
    t = await buildTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    expect((await t.app.inject({ method: 'GET', url: '/dev/mail' })).statusCode).toBe(404);
  });
});
