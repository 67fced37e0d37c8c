import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { withDatabase } from './database.ts';

/**
 * With TEST_DATABASE_URL, (re)creates that database and migrates it once; tests then copy it as a
 * template. Without it, nothing to do: PGlite templates are made in each test file.
 */
export default async function setup() {
  const templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) return;
  const url = new URL(templateUrl);
  const name = url.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`TEST_DATABASE_URL database name ${name} is not a plain identifier`);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const handle = await openDatabase({ url: templateUrl });
  await handle.migrate();
  // A template database must have no open connections when it is copied.
  await handle.close();

  /** Drops the per-test copies (`<name>_<hex>`), which test files reuse and so leave behind. */
  return async function teardown() {
    const cleaner = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
    await cleaner.connect();
    try {
      const { rows } = await cleaner.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 escape '!'`,
        [`${name.replaceAll('_', '!_')}!_%`],
      );
      for (const { datname } of rows) await cleaner.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await cleaner.end();
    }
  };
}
