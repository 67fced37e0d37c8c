import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type Clock, systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/create-context.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { DEMO_PASSWORD } from '../src/demo-data/seed.ts';
import { createTestDatabase } from './database.ts';

/**
 * The real application on a fresh test database, for `app.inject()`. Pass `env` to override
 * configuration (SMTP_URL of a test SMTP server, say), `clock` to freeze time, and `database` to run it
 * on a database of the caller's (two instances on one PostgreSQL).
 */
export async function buildTestApp(
  options: { env?: Record<string, string>; clock?: Clock; database?: DatabaseHandle } = {},
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://vetcall.test',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...options.env,
  });
  // A database given is the caller's (several instances on one database); it stays open at close().
  const database = options.database
    ? { ...options.database, release: async () => undefined }
    : await createTestDatabase();
  const context = createContext(config, database, { clock: options.clock ?? systemClock });
  const app = await buildApp(context);
  await app.ready();
  // A request's queued mail is sent by the job worker moments after its commit; tests see the state after
  // that moment: every inject resolves once the work it queued has run (or failed and waits for a retry).
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  app.inject = (async (options: InjectOptions) => {
    const response = await inject(options);
    // A worker that cannot reach the database (a test closed it) is the worker's trouble, not the request's.
    await context.jobs.drain().catch(() => undefined);
    return response;
  }) as typeof app.inject;

  return {
    app,
    context,
    db: context.db,
    config,
    async close() {
      await app.close();
      await context.jobs.stop();
      await context.mailer.close();
      await database.release();
      await rm(dataDir, { recursive: true, force: true });
    },
    /** Logs in through the API and returns the bearer header for later calls. */
    async loginAs(email: string, password = DEMO_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/login/', payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.body}`);
      const body = response.json<{ token: string }>();
      return { token: body.token, headers: { authorization: `Bearer ${body.token}` } };
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
