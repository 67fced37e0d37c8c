import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { seedDemoData, DEMO_PASSWORD } from '../demo-data/seed.ts';
import { localFilesDir } from '../providers/storage/create-file-store.ts';
import { createSecrets } from '../secrets.ts';
import { buildCheckout, startServer } from '../../test/server-process.ts';
import { createTestDatabase, usingPostgres } from '../../test/database.ts';
import { backupDatabase, BackupError, restoreDatabase, tablesInForeignKeyOrder } from './backup.ts';
import { type Database, type DatabaseHandle, openDatabase } from './client.ts';
import { appointmentFiles, appointments, users } from './schema.ts';

const FILE_BYTES = Buffer.from('%PDF-1.4 the vet report of Bolinha\n');

/** Every row of every table, as PostgreSQL writes it, in a stable order. */
async function everyRow(db: Database): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of await tablesInForeignKeyOrder(db)) {
    const { rows } = (await db.execute(
      sql.raw(`select row_to_json(t)::text as line from "${table}" t`),
    )) as unknown as { rows: { line: string }[] };
    result[table] = rows.map((row) => row.line).sort();
  }
  return result;
}

/** The demo data, and one uploaded file (its row and its bytes) on the demo's first appointment. */
async function demoDataWithAFile(handle: DatabaseHandle, dataDir: string) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  expect(await seedDemoData(handle.db, { secrets: createSecrets(config) })).toBe(true);
  const [appointment] = await handle.db.select({ id: appointments.id }).from(appointments).limit(1);
  const storageKey = randomBytes(16).toString('hex');
  const filesDir = localFilesDir(config);
  await mkdir(path.join(filesDir, 'tmp'), { recursive: true });
  await writeFile(path.join(filesDir, storageKey), FILE_BYTES);
  // An upload in progress is not part of a backup.
  await writeFile(path.join(filesDir, 'tmp', 'abandoned.part'), 'half an upload');
  const [file] = await handle.db
    .insert(appointmentFiles)
    .values({
      appointmentId: appointment!.id,
      fileName: 'report.pdf',
      fileType: 'application/pdf',
      fileSize: FILE_BYTES.length,
      storageKey,
    })
    .returning();
  // More rows than one page of the backup's cursor.
  await handle.db.execute(
    sql`insert into jobs (kind, payload, status, run_at, give_up_at, created_at, finished_at)
        select 'note', json_build_object('n', n)::jsonb, 'done', now(), now(), now(), now()
        from generate_series(1, 1200) n`,
  );
  return { filesDir, storageKey, fileId: file!.id };
}

describe(`backup and restore (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vetcall-backup-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('restores every row and file, continues the id sequences, and refuses a non-empty database unless forced', async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    try {
      const { filesDir, storageKey } = await demoDataWithAFile(source, path.join(dir, 'source'));
      const file = path.join(dir, 'round-trip.tar.gz');
      const written = await backupDatabase(source, { file, filesDir });
      expect(written.files).toBe(1);
      expect(written.tables.find((table) => table.name === 'users')?.rows).toBeGreaterThan(3);
      expect(written.tables.find((table) => table.name === 'jobs')?.rows).toBeGreaterThanOrEqual(1200);
      // Parents before children: a restore inserts in the file order.
      const order = written.tables.map((table) => table.name);
      expect(order.indexOf('users')).toBeLessThan(order.indexOf('customers'));
      expect(order.indexOf('appointments')).toBeLessThan(order.indexOf('appointment_files'));

      const targetFiles = path.join(dir, 'target', 'files');
      await restoreDatabase(target, { file, filesDir: targetFiles });
      expect(await everyRow(target.db)).toEqual(await everyRow(source.db));
      expect(await readFile(path.join(targetFiles, storageKey))).toEqual(FILE_BYTES);
      await expect(readFile(path.join(targetFiles, 'tmp', 'abandoned.part'))).rejects.toThrow();

      // A new row after the restore takes the next id, not one of the restored ones.
      const [highest] = await target.db.select({ id: sql<number>`max(${users.id})` }).from(users);
      const [added] = await target.db
        .insert(users)
        .values({ type: 'customer', name: 'New', email: 'new@example.test', passwordHash: 'x' })
        .returning({ id: users.id });
      expect(added!.id).toBe(Number(highest!.id) + 1);

      await expect(restoreDatabase(target, { file, filesDir: targetFiles })).rejects.toThrow(BackupError);
      await expect(restoreDatabase(target, { file, filesDir: targetFiles })).rejects.toThrow(/--force/);
      await restoreDatabase(target, { file, filesDir: targetFiles, force: true });
      expect(await everyRow(target.db)).toEqual(await everyRow(source.db));
    } finally {
      await source.release();
      await target.release();
    }
  }, 60_000);

  it('refuses a file that is not a VetCall backup', async () => {
    const target = await createTestDatabase();
    try {
      const { create } = await import('tar');
      await mkdir(path.join(dir, 'other'), { recursive: true });
      await writeFile(path.join(dir, 'other', 'manifest.json'), '{"format":"something-else"}');
      const file = path.join(dir, 'other.tar.gz');
      await create({ gzip: true, file, cwd: path.join(dir, 'other') }, ['manifest.json']);
      await expect(restoreDatabase(target, { file, filesDir: path.join(dir, 'other-files') })).rejects.toThrow(
        /not a VetCall backup/,
      );
    } finally {
      await target.release();
    }
  });
});

/**
 * The move of docs/deployment.md: a clinic on the embedded database (DATA_DIR/db) backs it up, restores it
 * into PostgreSQL, and starts with DATABASE_URL; its accounts, appointments and files are all there.
 */
describe.runIf(usingPostgres)('the move from the embedded database to PostgreSQL', () => {
  it('keeps every row and file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vetcall-move-'));
    const embedded = await openDatabase({ dataDir: path.join(dir, 'embedded') });
    const postgres = await createTestDatabase();
    try {
      expect(postgres.kind).toBe('postgres');
      await embedded.migrate();
      const { filesDir, fileId } = await demoDataWithAFile(embedded, path.join(dir, 'embedded'));
      const file = path.join(dir, 'clinic.tar.gz');
      await backupDatabase(embedded, { file, filesDir });

      const newDataDir = path.join(dir, 'on-postgres');
      await restoreDatabase(postgres, { file, filesDir: localFilesDir({ dataDir: newDataDir }) });
      expect(await everyRow(postgres.db)).toEqual(await everyRow(embedded.db));

      // The app started with DATABASE_URL (the compiled server, as `npm start` runs it): the demo accounts
      // log in, and the file downloads.
      const [{ name }] = (
        (await postgres.db.execute(sql`select current_database() as name`)) as unknown as { rows: [{ name: string }] }
      ).rows;
      const databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
      databaseUrl.pathname = `/${name}`;
      const build = await buildCheckout('vetcall-move-');
      const server = await startServer(build, { DATABASE_URL: databaseUrl.href, DATA_DIR: newDataDir });
      try {
        expect(server.output()).toContain('Database: PostgreSQL (DATABASE_URL)');
        // Not seeded again: the restored accounts are there already.
        expect(server.output()).not.toContain('(created now)');
        const login = await fetch(`${server.baseUrl}/api/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'manager@vetcall.test', password: DEMO_PASSWORD }),
        });
        expect(login.status).toBe(200);
        const { token } = (await login.json()) as { token: string };
        const download = await fetch(`${server.baseUrl}/api/appointments/download-file.php?file_id=${fileId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer())).toEqual(FILE_BYTES);
      } finally {
        expect(await server.stop()).toBe(0);
        await build.remove();
      }
    } finally {
      await embedded.close();
      await postgres.release();
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
