import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { requestLogFields } from '../app.ts';
import { registerRequestLog } from './request-log.ts';

/** A short threshold, so that the slow route need not take a second. */
const SLOW_MS = 40;

/** An app whose log lines are collected, with routes that answer 200, 500, and slowly. */
async function appLoggingAt(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  const app = Fastify({
    logger: { level, stream, serializers: { req: requestLogFields } },
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerRequestLog(app, { logLevel: level, slowMs: SLOW_MS });
  app.get('/fine', async () => ({ ok: true }));
  app.get('/broken', async (_request, reply) => reply.code(500).send({ error: 'internal' }));
  app.get('/slow', async () => {
    await sleep(SLOW_MS + 10);
    return { ok: true };
  });
  await app.ready();
  return { app, lines: () => lines.filter((line) => line.msg === 'request completed') };
}

describe('request log', () => {
  it('at info, logs only server errors and slow requests, once each, with the path and never the query', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ url: '/fine?token=secret' });
    await app.inject({ url: '/broken?token=secret' });
    await app.inject({ url: '/slow' });
    expect(
      lines().map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]),
    ).toEqual([
      ['/broken', 500],
      ['/slow', 200],
    ]);
    expect(JSON.stringify(lines())).not.toContain('secret');
    await app.close();
  });

  it('at debug, logs every request once', async () => {
    const { app, lines } = await appLoggingAt('debug');
    await app.inject({ url: '/fine' });
    await app.inject({ url: '/broken' });
    expect(lines().map((line) => (line.req as { url: string }).url)).toEqual(['/fine', '/broken']);
    await app.close();
  });
});
