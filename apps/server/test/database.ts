import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';

/**
 * Test databases. On PGlite, a migrated template is made once per test file and each test gets a
 * clone() of it. With TEST_DATABASE_URL, the global setup has migrated that database, and each test
 * gets a fresh `CREATE DATABASE … TEMPLATE` copy of it on the real server.
 */
let pgliteTemplate: Promise<PGlite> | undefined;

async function migratedPgliteTemplate(): Promise<PGlite> {
  pgliteTemplate ??= (async () => {
    const client = await PGlite.create();
    const handle = await openDatabase({ pglite: client });
    await handle.migrate();
    return client;
  })();
  return pgliteTemplate;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function createTestDatabase(): Promise<DatabaseHandle> {
  const templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) {
    const template = await migratedPgliteTemplate();
    return openDatabase({ pglite: (await template.clone()) as PGlite });
  }
  const url = new URL(templateUrl);
  const templateName = url.pathname.slice(1);
  const name = `${templateName}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${templateName}"`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ url: withDatabase(url, name) });
  // Idempotent like the PGlite handle's close, so a test may close early and afterEach close again.
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    close: () =>
      (closing ??= (async () => {
        await handle.close();
        const dropper = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
        await dropper.connect();
        await dropper.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
        await dropper.end();
      })()),
  };
}

export function withDatabase(url: URL, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}
