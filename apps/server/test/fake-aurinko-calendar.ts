import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './fake-http-server.ts';

/** An event as Aurinko's unified calendar API shows it (recurring events come as their occurrences). */
export interface FakeAurinkoEvent {
  id: string;
  subject?: string;
  description?: string;
  location?: string;
  start: { dateTime?: string; date?: string; timezone?: string };
  end: { dateTime?: string; date?: string; timezone?: string };
  showAs?: string;
  iCalUid?: string;
}

/** Records per page of events/range: small, so that paging is exercised. */
const PAGE_SIZE = 2;

const readJson = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};

const instant = (time: FakeAurinkoEvent['start']) => Date.parse(time.dateTime ?? `${time.date}T00:00:00Z`);

/**
 * A stand-in for Aurinko's API (https://docs.aurinko.io): GET /v1/account, GET /v1/calendars, GET
 * /v1/calendars/{id}/events/range?timeMin&timeMax[&pageToken] (paged by nextPageToken), POST
 * /v1/calendars/{id}/events, PATCH and DELETE /v1/calendars/{id}/events/{eventId}. One account token is known;
 * any other gets 401.
 */
export function fakeAurinkoCalendar(goodToken: string) {
  const calendars = new Map<string, { name: string; events: FakeAurinkoEvent[] }>([
    ['primary', { name: 'Rui (Outlook)', events: [] }],
    ['holidays', { name: 'Holidays', events: [] }],
  ]);
  let nextId = 1;

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      if (request.headers.authorization !== `Bearer ${goodToken}`) {
        return sendJson(response, 401, { code: 'auth.unauthorized', message: 'Invalid token' });
      }
      const url = new URL(request.url ?? '/', 'http://aurinko.test');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (request.method === 'GET' && url.pathname === '/v1/account') return sendJson(response, 200, { id: 4711 });
      if (request.method === 'GET' && url.pathname === '/v1/calendars') {
        return sendJson(response, 200, {
          records: [...calendars].map(([id, calendar]) => ({ id, name: calendar.name })),
          nextPageToken: null,
        });
      }
      const calendar = parts[0] === 'v1' && parts[1] === 'calendars' ? calendars.get(parts[2] ?? '') : undefined;
      if (!calendar || parts[3] !== 'events') return sendJson(response, 404, { code: 'not_found' });
      if (request.method === 'GET' && parts[4] === 'range') {
        const from = Date.parse(url.searchParams.get('timeMin') ?? '');
        const to = Date.parse(url.searchParams.get('timeMax') ?? '');
        if (Number.isNaN(from) || Number.isNaN(to)) return sendJson(response, 400, { code: 'bad_request' });
        const matching = calendar.events.filter((event) => instant(event.start) < to && instant(event.end) > from);
        const offset = Number(url.searchParams.get('pageToken') ?? 0);
        const page = matching.slice(offset, offset + PAGE_SIZE);
        const more = offset + PAGE_SIZE < matching.length;
        return sendJson(response, 200, { records: page, nextPageToken: more ? String(offset + PAGE_SIZE) : null });
      }
      if (request.method === 'POST' && parts.length === 4) {
        const body = (await readJson(request)) as unknown as FakeAurinkoEvent;
        const event = { ...body, id: `evt-${nextId++}` };
        calendar.events.push(event);
        return sendJson(response, 201, event);
      }
      const index = calendar.events.findIndex((event) => event.id === parts[4]);
      if (index < 0) return sendJson(response, 404, { code: 'not_found' });
      if (request.method === 'PATCH') {
        calendar.events[index] = { ...calendar.events[index]!, ...(await readJson(request)) };
        return sendJson(response, 200, calendar.events[index]);
      }
      if (request.method === 'DELETE') {
        calendar.events.splice(index, 1);
        response.writeHead(204);
        return response.end();
      }
      sendJson(response, 405, { code: 'method_not_allowed' });
    })();
  };
  return { handle, calendars };
}
