import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './create-context.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo-data/seed.ts';
import { fileStoreFor, sweepFileStore } from './providers/storage/file-store.ts';
import { createSecrets } from './secrets.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** How often the worker looks for due jobs (retries, and work queued by another instance). */
const JOB_POLL_INTERVAL_MS = 5000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  await database.migrate();
  const seeded = config.isDemo ? await seedDemoData(database.db, { secrets: createSecrets(config) }) : false;

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

  // Attachment bytes a crash left without their row, and this instance's abandoned uploads: swept now and
  // hourly, by every instance (its temporary files are its own). Expired credentials are purged by the job
  // worker's hourly task, once across instances.
  const sweepFiles = () =>
    sweepFileStore({ db: context.db, store: fileStoreFor(config) })
      .then((swept) => {
        if (swept.removedStored + swept.removedTemp > 0) app.log.info(swept, 'file store swept');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'file store sweep failed'));
  void sweepFiles();
  const purge = setInterval(() => void sweepFiles(), PURGE_INTERVAL_MS);
  purge.unref();
  // Mail, the work that follows changes and the minutely tasks (hold release, completion, reminders):
  // what was queued before a restart goes out now.
  context.jobs.start(JOB_POLL_INTERVAL_MS);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(purge);
    await app.close();
    await context.jobs.stop();
    await context.mailer.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
