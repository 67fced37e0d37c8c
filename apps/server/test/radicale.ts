import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { freePort } from './server-process.ts';

const RADICALE = '/usr/bin/radicale';

/**
 * A real CalDAV server for tests: Debian's Radicale on loopback (free port), a temporary storage folder and
 * htpasswd users in plain text (what Debian's 3.1 reads without extra Python modules). Missing Radicale
 * fails the test: nothing is skipped.
 */
export async function startRadicale(users: Record<string, string>) {
  if (spawnSync(RADICALE, ['--version']).status !== 0) {
    throw new Error(`Radicale is not installed (${RADICALE}): apt-get install -y radicale (.ci/run does it)`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'vetcall-radicale-'));
  const htpasswd = path.join(dir, 'users');
  await writeFile(
    htpasswd,
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}\n`)
      .join(''),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    RADICALE,
    [
      '--config',
      '',
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--storage-filesystem-folder',
      path.join(dir, 'collections'),
      '--auth-type',
      'htpasswd',
      '--auth-htpasswd-filename',
      htpasswd,
      '--auth-htpasswd-encryption',
      'plain',
      '--auth-delay',
      '0',
      '--rights-type',
      'owner_only',
      '--logging-level',
      'error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Radicale exited (${child.exitCode}): ${stderr}`);
    try {
      await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(500) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Radicale did not start on ${baseUrl}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const auth = (user: string) => `Basic ${Buffer.from(`${user}:${users[user]}`).toString('base64')}`;
  const request = async (user: string, method: string, url: string, body?: string, type = 'text/calendar') => {
    const response = await fetch(url.startsWith('http') ? url : `${baseUrl}${url}`, {
      method,
      headers: { authorization: auth(user), ...(body ? { 'content-type': `${type}; charset=utf-8` } : {}) },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Radicale ${method} ${url}: HTTP ${response.status} ${text}`);
    return text;
  };

  return {
    baseUrl,
    /** Makes a calendar collection (`/user/name/`, shown as `name`) and answers its URL. */
    async makeCalendar(user: string, name: string) {
      const body =
        '<?xml version="1.0" encoding="utf-8"?>' +
        '<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">' +
        `<D:set><D:prop><D:displayname>${name}</D:displayname></D:prop></D:set></C:mkcalendar>`;
      await request(user, 'MKCALENDAR', `/${user}/${name}/`, body, 'application/xml');
      return `${baseUrl}/${user}/${name}/`;
    },
    /** Puts an iCalendar object into a calendar (as the vet's own calendar app would). */
    putEvent: (user: string, calendarUrl: string, uid: string, ics: string) =>
      request(user, 'PUT', `${calendarUrl}${uid}.ics`, ics),
    deleteEvent: (user: string, calendarUrl: string, uid: string) =>
      request(user, 'DELETE', `${calendarUrl}${uid}.ics`),
    /** The VEVENTs of a calendar (Radicale serves a collection as one iCalendar file). */
    async events(user: string, calendarUrl: string) {
      const text = await request(user, 'GET', calendarUrl);
      if (!text.trim()) return [];
      const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
      return calendar.getAllSubcomponents('vevent').map((vevent) => {
        const event = new ICAL.Event(vevent);
        return {
          uid: event.uid,
          summary: event.summary,
          description: event.description,
          url: String(vevent.getFirstPropertyValue('url') ?? ''),
          start: event.startDate.toJSDate().toISOString(),
          end: event.endDate.toJSDate().toISOString(),
          text: vevent.toString(),
        };
      });
    },
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type Radicale = Awaited<ReturnType<typeof startRadicale>>;
