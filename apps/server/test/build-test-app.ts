import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Clock, systemClock } from '../src/clock.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { createContext } from '../src/create-context.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { DEMO_PASSWORD } from '../src/demo-data/seed.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  database?: DatabaseHandle;
}

/**
 * The real application on a fresh test database, for `app.inject()`. Pass `env` to override
 * configuration (SMTP_URL of a test SMTP server, say), `clock` to freeze time, and `database` to run it
 * on a database of the caller's (two instances on one PostgreSQL).
 *
 * Building and closing an app cost a short test most of its time (route registration, ready, close), so a
 * worker keeps one app of the default configuration from test to test (keptApp below): a test that asks for
 * no env and no database of its own gets it with everything a new app would have — an emptied database, an
 * emptied data directory, and a context of its own (its clock, job worker, mailer, rate limiter, caches).
 */
export async function buildTestApp(options: TestAppOptions = {}) {
  if (!options.env && !options.database) {
    const kept = await keptAppOfWorker();
    if (!kept.inUse) return testAppOn(kept, options.clock ?? systemClock);
  }
  return newTestApp(options);
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

async function testConfig(env: Record<string, string> = {}): Promise<Config> {
  // In the run's directory (global-setup.ts), which the run removes: the kept app's is never removed otherwise.
  const dataDir = await mkdtemp(path.join(inject('testRunDir'), 'app-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://vetcall.test',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...env,
  });
}

/** The app, ready, whose every inject resolves once the work its request queued has run. */
async function readyApp(context: AppContext): Promise<FastifyInstance> {
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
  return app;
}

/** What a test holds: the app, its context and configuration, a close() and a login helper. */
function testAppHandle(app: FastifyInstance, context: AppContext, close: () => Promise<void>) {
  return {
    app,
    context,
    db: context.db,
    config: context.config,
    close,
    /** Logs in through the API and returns the bearer header for later calls. */
    async loginAs(email: string, password = DEMO_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/login/', payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.body}`);
      const body = response.json<{ token: string }>();
      return { token: body.token, headers: { authorization: `Bearer ${body.token}` } };
    },
  };
}

/** An app of the test's own, closed with its test. */
async function newTestApp(options: TestAppOptions) {
  const config = await testConfig(options.env);
  // A database given is the caller's (several instances on one database); it stays open at close().
  const database = options.database
    ? { ...options.database, release: async () => undefined }
    : await createTestDatabase();
  const context = createContext(config, database, { clock: options.clock ?? systemClock });
  const app = await readyApp(context);
  return testAppHandle(app, context, async () => {
    await app.close();
    await context.jobs.stop();
    await context.mailer.close();
    await database.release();
    await rm(config.dataDir, { recursive: true, force: true });
  });
}

/**
 * The worker's kept app: built once on a context whose members lead to the context of the test using it
 * (`current`). Routes keep the context, or members of it, from their registration, so the members are the same
 * objects from test to test and what they stand for changes. Config, database and data directory stay, emptied.
 */
interface KeptApp {
  app: FastifyInstance;
  context: AppContext;
  database: TestDatabase;
  current: AppContext | undefined;
  inUse: boolean;
  closedByTest: boolean;
}

/** Made once per worker; a promise, so tests asking at the same moment do not each build one. */
let keptApp: Promise<KeptApp> | undefined;

function keptAppOfWorker(): Promise<KeptApp> {
  keptApp ??= keepApp().catch((error: unknown) => {
    keptApp = undefined;
    throw error;
  });
  return keptApp;
}

async function keepApp(): Promise<KeptApp> {
  const config = await testConfig();
  const database = await createTestDatabase();
  const holder: Partial<KeptApp> & { current?: AppContext } = {};
  const current = () => {
    if (!holder.current) throw new Error('the kept test app was used after its test ended');
    return holder.current;
  };
  const context: AppContext = {
    config,
    database,
    db: database.db,
    clock: leadingTo(() => current().clock),
    mailer: leadingTo(() => current().mailer),
    jobs: leadingTo(() => current().jobs),
    limiter: leadingTo(() => current().limiter),
    secrets: leadingTo(() => current().secrets),
    files: leadingTo(() => current().files),
    caches: {
      sessions: leadingTo(() => current().caches.sessions),
      answers: leadingTo(() => current().caches.answers),
    },
  };
  // Registration reads some members' settings (the mailer's kind): a context of the same configuration answers.
  const building = createContext(config, database);
  holder.current = building;
  const app = await readyApp(context);
  holder.current = undefined;
  await building.jobs.stop();
  await building.mailer.close();
  await building.limiter.close();
  // A test may close the app itself (shutdown behaviour); it is then not kept.
  const close = app.close.bind(app);
  Object.assign(holder, { app, context, database, inUse: false, closedByTest: false });
  app.close = ((...args: Parameters<typeof close>) => {
    holder.closedByTest = true;
    return close(...args);
  }) as typeof app.close;
  return holder as KeptApp;
}

/** An object that forwards every use to what `target()` answers at that moment. */
function leadingTo<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const object = target();
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

/** The kept app for one test, with everything a new app would have. */
async function testAppOn(app: KeptApp, clock: Clock) {
  app.inUse = true;
  const { config, database } = app.context;
  try {
    await app.database.empty();
    await rm(config.dataDir, { recursive: true, force: true });
    await mkdir(config.dataDir);
  } catch (error) {
    app.inUse = false;
    throw error;
  }
  const own = createContext(config, database, { clock });
  app.current = own;
  let released = false;
  return testAppHandle(app.app, app.context, async () => {
    if (released) return;
    released = true;
    await own.jobs.stop();
    // An app the test closed, listened with or whose database it closed is not what a new one would be.
    const spoilt = app.closedByTest || app.app.server.listening || app.database.closed;
    if (spoilt) {
      if (keptApp && (await keptApp) === app) keptApp = undefined;
      // Its close hooks still reach this test's context (the rate limiter's).
      if (!app.closedByTest) await app.app.close();
    } else await own.limiter.close();
    await own.mailer.close();
    app.current = undefined;
    if (!spoilt) {
      app.inUse = false;
      return;
    }
    await database.close();
    await rm(config.dataDir, { recursive: true, force: true });
  });
}
