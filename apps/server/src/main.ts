import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './create-context.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo-data/seed.ts';
import { sweepFileStore } from './providers/storage/file-store-sweep.ts';
import { createSecrets } from './secrets.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** How often the worker looks for due jobs (retries, and work queued by another instance). */
const JOB_POLL_INTERVAL_MS = 5000;
/** A graceful shutdown that takes longer ends anyway (issue 18: within 10 s of SIGTERM). */
const SHUTDOWN_LIMIT_MS = 9000;
/** In-flight requests get this long to finish at shutdown; then their connections are closed. */
const CONNECTIONS_GRACE_MS = 6000;

async function main() {
  // Listened for before anything else: a signal that comes while the server starts is kept, and the start stops
  // at its next step (the database opened, migrated, seeded, the app built) instead of going on to serve: each
  // step is whole when it ends, so nothing is left half-written. A first start's database creation alone takes
  // 5 s or more on a small machine; finishing the whole start before shutting down went past the limit there.
  // Without a listener Node would die of the signal at once, with no exit code.
  const signals: { stop?: (signal: string) => void; pending?: string } = {};
  const onSignal = (signal: string) => {
    if (signals.stop) return signals.stop(signal);
    if (signals.pending) return;
    signals.pending = signal;
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  /** Ends the process with 0 when a signal came during the step that just finished, closing what is open. */
  const stopIfSignalled = async (...opened: { close(): Promise<unknown> }[]) => {
    if (!signals.pending) return;
    console.error(`  ${signals.pending} while starting: stopped before serving.`);
    for (const resource of opened) await resource.close();
    process.exit(0);
  };

  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: config.dataDir },
  );
  await stopIfSignalled(database);
  await database.migrate();
  await stopIfSignalled(database);
  const seeded = config.isDemo ? await seedDemoData(database.db, { secrets: createSecrets(config) }) : false;
  await stopIfSignalled(database);

  // The app's logger exists only once the app is built, after the context its worker is part of.
  const logs: { app?: { error(details: object, message: string): void } } = {};
  const context = createContext(config, database, {
    // The job's kind and id only: its payload may hold personal data.
    onJobError: (error, job) =>
      logs.app?.error(
        { err: error, job: job && { id: job.id, kind: job.kind, attempts: job.attempts } },
        'job attempt failed',
      ),
  });
  const app = await buildApp(context);
  logs.app = app.log;
  await stopIfSignalled(app, context.mailer, database);
  await app.listen({ port: config.port, host: config.host });

  const storage =
    database.kind === 'pglite' ? `embedded PostgreSQL in ${config.dataDir}/db` : 'PostgreSQL (DATABASE_URL)';
  const video =
    config.video.provider === 'jitsi'
      ? `Jitsi Meet at ${config.video.jitsiDomain}`
      : `built-in WebRTC room, signalling ${config.redis.url ? 'through Redis (REDIS_URL)' : 'in this process'}`;
  const lines = [``, `  VetCall is running at ${config.publicUrl}`, `  Database: ${storage}`, `  Video: ${video}`];
  if (config.isDemo) {
    lines.push(`  Demo accounts${seeded ? ' (created now)' : ''}, password "${DEMO_PASSWORD}":`);
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.type.padEnd(9)}${account.email}`);
    if (context.mailer.kind === 'outbox') lines.push(`  Sent mail: ${config.publicUrl}/dev/mail`);
    lines.push(`  API docs: ${config.publicUrl}/api/docs`);
  }
  console.log(`${lines.join('\n')}\n`);
  if (config.isProduction && config.payment.provider === 'builtin') {
    // Allowed in production only when PAYMENT_PROVIDER=builtin was set on purpose (config.ts); never quietly.
    app.log.warn('PAYMENT_PROVIDER=builtin in production: the test checkout takes no money (the 4242 card "pays")');
    console.error(
      '\n  WARNING: PAYMENT_PROVIDER=builtin in production: customers "pay" on the built-in test checkout and no\n' +
        '  money moves. The checkout page says so. Set PAYMENT_PROVIDER=stripe to take payments.\n',
    );
  }

  // Attachment bytes a crash left without their row, and this instance's abandoned uploads: swept now and
  // hourly, by every instance (its temporary files are its own). Expired credentials are purged by the job
  // worker's hourly task, once across instances.
  // A sweep in progress is waited for at shutdown, so none reads the database after it closes.
  let sweeping: Promise<void> | undefined;
  const sweepFiles = () => {
    sweeping ??= sweepFileStore({ db: context.db, store: context.files })
      .then((swept) => {
        if (swept.removedStored + swept.removedTemp > 0) app.log.info(swept, 'file store swept');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'file store sweep failed'))
      .finally(() => (sweeping = undefined));
  };
  sweepFiles();
  const purge = setInterval(sweepFiles, PURGE_INTERVAL_MS);
  purge.unref();
  // Mail, the work that follows changes and the minutely tasks (hold release, completion, reminders):
  // what was queued before a restart goes out now.
  context.jobs.start(JOB_POLL_INTERVAL_MS);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Whatever hangs (a client that never finishes its upload, a database that does not answer), the
    // process is gone within SHUTDOWN_LIMIT_MS: a process manager's own kill comes soon after.
    // What it was still waiting for is logged with the timeout, so a slow shutdown says where it hung.
    const waitingFor = new Set(['requests and connections', 'the current job', 'the file sweep']);
    setTimeout(() => {
      app.log.error(
        { limitMs: SHUTDOWN_LIMIT_MS, waitingFor: [...waitingFor] },
        'shutdown took too long; exiting anyway',
      );
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    const done = (part: string) => () => void waitingFor.delete(part);
    clearInterval(purge);
    // Side by side: the server stops accepting (new connections refused, a new request on a kept-alive one
    // answered 503), lets in-flight requests and uploads finish, and closes the signalling sockets with 1012
    // "service restart", which the web client answers by reconnecting; the worker finishes its current job.
    // A kept-alive connection whose request ends during the close would hold the server open until the
    // client lets go: it is closed as soon as it is idle.
    // A connection still open after CONNECTIONS_GRACE_MS holds a request that will not finish in time (or one
    // the server failed to see go idle): it is closed, so the rest of the shutdown fits in the limit.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    const closeAll = setTimeout(() => {
      app.log.warn({ graceMs: CONNECTIONS_GRACE_MS }, 'closing the connections still open at shutdown');
      app.server.closeAllConnections();
    }, CONNECTIONS_GRACE_MS);
    await Promise.all([
      app.close().then(done('requests and connections')),
      context.jobs.stop().then(done('the current job')),
      Promise.resolve(sweeping).then(done('the file sweep')),
    ]);
    clearInterval(closeIdle);
    clearTimeout(closeAll);
    waitingFor.add('the mail connection');
    await context.mailer.close();
    waitingFor.delete('the mail connection');
    waitingFor.add('the database');
    await database.close();
    process.exit(0);
  };
  const shutdownOn = (signal: string) =>
    shutdown(signal).catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  signals.stop = (signal) => void shutdownOn(signal);
  if (signals.pending) signals.stop(signals.pending);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
