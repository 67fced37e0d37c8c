import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locale } from '@vetcall/shared/locales';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildVet } from '../../demo-data/factories.ts';
import { eq } from 'drizzle-orm';
import { auditEvents, passwordResetTokens } from '../../db/schema.ts';
import { CATALOGS, type Catalog } from '../../i18n.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type ReceivedMail, startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { retryDelayMs } from '../../jobs/job-queue.ts';
import { RATE_LIMITS } from './session-policy.ts';

const HOUR = 60 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;
const RESET_LINK = /http:\/\/vetcall\.test\/newpassword\?token=([\w-]+)&lang=([\w-]+)/;

function resetCatalog(locale: Locale) {
  return ((CATALOGS[locale].email as Catalog).password_reset as Record<string, string>)!;
}

/** The reset link of a received mail, from its text part. */
function linkOf(mail: ReceivedMail) {
  const match = RESET_LINK.exec(mail.text ?? '');
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return { url: match[0], token: match[1]!, lang: match[2]! };
}

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const sendReset = (t: TestApp, email: string, language = 'en', remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/login/sendpasswordresetemail/${language}`,
    payload: { email },
    remoteAddress,
  });

const updatePassword = (t: TestApp, payload: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/login/updatepassword', payload, remoteAddress });

const login = (t: TestApp, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password }, remoteAddress: '10.9.9.9' });

/** Requests a reset link for `email` and returns it as delivered by SMTP. */
async function requestLink(t: TestApp, email: string, language = 'en') {
  const before = smtp.received.length;
  const response = await sendReset(t, email, language);
  expect(response.statusCode, response.body).toBe(200);
  const mail = await smtp.waitFor((m) => smtp.received.indexOf(m) >= before && m.envelopeTo.includes(email));
  return linkOf(mail);
}

describe('POST /api/login/sendpasswordresetemail/{language}', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterEach(async () => {
    await t.close();
  });

  it.each([
    ['en', 'Reset your VetCall password', 'password'],
    ['pt', 'Recuperar a sua palavra-passe VetCall', 'palavra-passe'],
    ['pt-BR', 'Redefina sua senha do VetCall', 'senha'],
  ] as const)('mails a reset link in %s with a text and an html part', async (language, subject, word) => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', name: 'Rita', locale: 'pt' });
    const response = await sendReset(t, 'Rita@Clinic.test', language);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('rita@clinic.test'));
    expect(smtp.received).toHaveLength(1);
    expect(mail.from?.address).toBe('no-reply@vetcall.test');
    expect(mail.to?.map((a) => a.address)).toEqual(['rita@clinic.test']);
    expect(mail.subject).toBe(subject);
    expect(mail.subject).toBe(resetCatalog(language).subject);

    const link = linkOf(mail);
    expect(link.lang).toBe(language);
    expect(link.token).toMatch(/^[\w-]{43}$/);
    expect(link.url).toBe(`http://vetcall.test/newpassword?token=${link.token}&lang=${language}`);

    expect(mail.text).toContain(word);
    expect(mail.text).toContain('Rita');
    expect(mail.text).toContain(resetCatalog(language).body);
    expect(mail.html).toBeTruthy();
    expect(mail.html).toContain(word);
    expect(mail.html).toContain(`http://vetcall.test/newpassword?token=${link.token}&amp;lang=${language}`);
    expect(mail.html).toContain(`lang="${language}"`);
    if (language !== 'en') {
      expect(mail.text).not.toContain('Reset your');
      expect(mail.text).not.toContain('Hello');
    }

    // Only the hash of the emailed token is kept.
    const rows = await t.db.select().from(passwordResetTokens);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(link.token);
  });

  it('accepts loose spellings of a language and links to the canonical one', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test' });
    const link = await requestLink(t, 'rita@clinic.test', 'pt-br');
    expect(link.lang).toBe('pt-BR');
  });

  it('answers 200 for an unknown or inactive account and sends nothing', async () => {
    await buildVet(t.db, { email: 'former@clinic.test', active: false });
    await buildCustomer(t.db, { email: 'real@clinic.test' });
    for (const email of ['ghost@clinic.test', 'former@clinic.test']) {
      const response = await sendReset(t, email);
      expect(response.statusCode, email).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received).toHaveLength(0);
    // A request for a real account sent afterwards is the only mail that arrives.
    await requestLink(t, 'real@clinic.test');
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([['real@clinic.test']]);
    expect(await t.db.select().from(passwordResetTokens)).toHaveLength(1);
  });

  it.each(['fr', 'xx', 'english', 'pt-PT-x'])('answers 400 for the unknown language %s', async (language) => {
    await buildCustomer(t.db, { email: 'rita@clinic.test' });
    const response = await sendReset(t, 'rita@clinic.test', language);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { language: 'invalid_value' },
    });
    expect(smtp.received).toHaveLength(0);
  });

  it('answers 400 for an invalid or missing email', async () => {
    const invalid = await sendReset(t, 'not-an-email');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields).toEqual({ email: 'invalid_email' });
    const missing = await t.app.inject({ method: 'POST', url: '/api/login/sendpasswordresetemail/en', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ email: 'required' });
  });
});

describe('POST /api/login/updatepassword', () => {
  const start = new Date('2030-05-06T12:00:00.000Z');
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(start);
    t = await buildTestApp({ env: { SMTP_URL: smtp.url }, clock });
  });
  afterEach(async () => {
    await t.close();
  });

  it('sets the new password, ends every session and works only once', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    const phone = await t.loginAs('rita@clinic.test', 'old-password');
    const laptop = await t.loginAs('rita@clinic.test', 'old-password');
    const { token } = await requestLink(t, 'rita@clinic.test');

    const response = await updatePassword(t, { password: 'brand new pass', token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    for (const session of [phone, laptop]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: session.headers });
      expect(me.statusCode).toBe(401);
    }
    const old = await login(t, 'rita@clinic.test', 'old-password');
    expect(old.statusCode).toBe(401);
    expect(old.json().error).toBe('invalid_login_attempt');
    const fresh = await login(t, 'rita@clinic.test', 'brand new pass');
    expect(fresh.statusCode).toBe(200);

    const again = await updatePassword(t, { password: 'another pass 2', token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_or_expired_token', message: expect.any(String) });
    // The refused second use changed nothing.
    expect((await login(t, 'rita@clinic.test', 'brand new pass')).statusCode).toBe(200);
    expect((await login(t, 'rita@clinic.test', 'another pass 2')).statusCode).toBe(401);

    // The audit log (docs/audit-log.md) has the one reset, by the account's owner, and neither token nor password.
    const resets = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'auth.password_reset'));
    expect(resets.map((event) => [event.actorEmail, event.actorRole, event.details])).toEqual([
      ['rita@clinic.test', 'customer', {}],
    ]);
    const everything = JSON.stringify(await t.db.select().from(auditEvents));
    for (const secret of [token, 'brand new pass', 'old-password']) expect(everything).not.toContain(secret);
  });

  it('invalidates the other outstanding links of the account when one is used', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    const first = await requestLink(t, 'rita@clinic.test');
    const second = await requestLink(t, 'rita@clinic.test', 'pt');
    expect(first.token).not.toBe(second.token);
    expect((await updatePassword(t, { password: 'brand new pass', token: second.token })).statusCode).toBe(200);
    const stale = await updatePassword(t, { password: 'sneaky pass', token: first.token });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toBe('invalid_or_expired_token');
    expect((await login(t, 'rita@clinic.test', 'brand new pass')).statusCode).toBe(200);
  });

  it('accepts a link until one hour after it was sent', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    const { token } = await requestLink(t, 'rita@clinic.test');
    clock.advance(HOUR - 1);
    expect((await updatePassword(t, { password: 'brand new pass', token })).statusCode).toBe(200);
  });

  it('refuses a link more than one hour old', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    const { token } = await requestLink(t, 'rita@clinic.test');
    clock.advance(HOUR + 1);
    const response = await updatePassword(t, { password: 'brand new pass', token });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_or_expired_token');
    expect((await login(t, 'rita@clinic.test', 'old-password')).statusCode).toBe(200);
  });

  it('refuses an unknown token', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    await requestLink(t, 'rita@clinic.test');
    const response = await updatePassword(t, { password: 'brand new pass', token: 'A'.repeat(43) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_or_expired_token', message: expect.any(String) });
  });

  it('answers per-field codes for a short password or a missing token, leaving the link usable', async () => {
    await buildCustomer(t.db, { email: 'rita@clinic.test', password: 'old-password' });
    const { token } = await requestLink(t, 'rita@clinic.test');

    const short = await updatePassword(t, { password: '12345', token });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { password: 'too_short' },
    });

    const missing = await updatePassword(t, { password: 'brand new pass' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ token: 'required' });

    const empty = await updatePassword(t, { token });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ password: 'required' });

    // The link was not spent by the refused attempts.
    expect((await updatePassword(t, { password: 'tidal pebble 3', token })).statusCode).toBe(200);
    expect((await login(t, 'rita@clinic.test', 'tidal pebble 3')).statusCode).toBe(200);
  });

  it('limits update attempts per IP in 15 minutes', async () => {
    const { limit } = RATE_LIMITS.updatePasswordPerIp;
    for (let i = 1; i <= limit; i++) {
      const response = await updatePassword(t, { password: 'brand new pass', token: `guess-${i}` }, '203.0.113.9');
      expect(response.statusCode, `attempt ${i}`).toBe(400);
    }
    const refused = await updatePassword(t, { password: 'brand new pass', token: 'guess-last' }, '203.0.113.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('too_many_requests');
    expect(refused.headers['retry-after']).toBe(String(FIFTEEN_MINUTES / 1000));
    expect(
      (await updatePassword(t, { password: 'brand new pass', token: 'guess-other-ip' }, '203.0.113.10')).statusCode,
    ).toBe(400);
  });
});

describe('password reset rate limits', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock('2030-05-06T12:00:00.000Z');
    t = await buildTestApp({ env: { SMTP_URL: smtp.url }, clock });
  });
  afterEach(async () => {
    await t.close();
  });

  it('sends at most 5 links per email in 15 minutes, whatever the IP', async () => {
    expect(RATE_LIMITS.resetPerEmail).toEqual({ limit: 5, windowMs: FIFTEEN_MINUTES });
    await buildCustomer(t.db, { email: 'rita@clinic.test' });
    for (let i = 1; i <= 5; i++) {
      const response = await sendReset(t, 'rita@clinic.test', 'en', `198.51.100.${i}`);
      expect(response.statusCode, `request ${i}`).toBe(200);
    }
    const refused = await sendReset(t, 'RITA@clinic.test', 'pt', '198.51.100.99');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });
    expect(refused.headers['retry-after']).toBe(String(FIFTEEN_MINUTES / 1000));
    expect(smtp.received).toHaveLength(5);

    clock.advance(FIFTEEN_MINUTES);
    await requestLink(t, 'rita@clinic.test');
    expect(smtp.received).toHaveLength(6);
  });

  it('answers 429 to requests from one IP beyond its 15-minute limit', async () => {
    const { limit, windowMs } = RATE_LIMITS.resetPerIp;
    expect(windowMs).toBe(FIFTEEN_MINUTES);
    for (let i = 1; i <= limit; i++) {
      expect((await sendReset(t, `ghost${i}@clinic.test`, 'en', '203.0.113.5')).statusCode, `request ${i}`).toBe(200);
    }
    const refused = await sendReset(t, 'ghost-last@clinic.test', 'en', '203.0.113.5');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await sendReset(t, 'ghost-last@clinic.test', 'en', '203.0.113.6')).statusCode).toBe(200);
  });
  it('counts requests by the connecting address: a forged X-Forwarded-For does not escape the limit', async () => {
    const { limit } = RATE_LIMITS.resetPerIp;
    for (let i = 1; i <= limit; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/sendpasswordresetemail/en',
        payload: { email: `ghost${i}@clinic.test` },
        remoteAddress: '203.0.113.77',
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
      });
      expect(response.statusCode, `request ${i}`).toBe(200);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/login/sendpasswordresetemail/en',
      payload: { email: 'ghost-last@clinic.test' },
      remoteAddress: '203.0.113.77',
      headers: { 'x-forwarded-for': '10.0.1.1' },
    });
    expect(refused.statusCode).toBe(429);
  });
});

describe('password reset while the mail server is down', () => {
  it('answers as usual, and the link arrives once the server is back', async () => {
    const server = await startSmtpTestServer();
    const clock = fixedClock('2030-05-06T12:00:00.000Z');
    const t = await buildTestApp({ clock, env: { SMTP_URL: server.url } });
    try {
      await buildCustomer(t.db, { email: 'rita@clinic.test' });
      await server.stop();
      const response = await sendReset(t, 'rita@clinic.test');
      expect(response.statusCode).toBe(200);
      expect(server.received).toEqual([]);

      await server.start();
      clock.advance(retryDelayMs(1));
      await t.context.jobs.drain();
      const mail = await server.waitFor((m) => m.envelopeTo.includes('rita@clinic.test'));
      expect(mail.text).toMatch(/\/newpassword\?token=[\w-]+&lang=en/);
      expect(server.received).toHaveLength(1);
    } finally {
      await t.close();
      await server.close();
    }
  });
});
