import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { withDatabase } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's directory for the test apps' data directories (build-test-app.ts), removed at the end. */
    testRunDir: string;
  }
}

/**
 * A directory for this run's test apps: the app each worker keeps (build-test-app.ts) is never closed, so its
 * data directory goes with this one at the end of the run.
 *
 * With TEST_DATABASE_URL, (re)creates that database and migrates it once; tests then copy it as a
 * template. Without it, nothing more to do: PGlite templates are made in each test file.
 */
export default async function setup(project: TestProject) {
  const runDir = await mkdtemp(path.join(tmpdir(), 'vetcall-test-run-'));
  project.provide('testRunDir', runDir);
  const removeRunDir = () => rm(runDir, { recursive: true, force: true });
  const templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) return removeRunDir;
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
    await removeRunDir();
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
