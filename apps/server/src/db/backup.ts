/**
 * `npm run db:backup -- <file>` and `npm run db:restore -- <file> [--force]`: one portable file (gzipped tar)
 * that restores into either database, so the same command moves a clinic from the embedded database to
 * PostgreSQL (docs/deployment.md#backups-and-the-move-to-postgresql). It holds:
 *
 * - `manifest.json`: the format, the migration level the rows were written at, each table's row count;
 * - `tables/NN-<table>.jsonl`: one table per file, one row per line as PostgreSQL's own row_to_json writes it,
 *   in foreign-key order (a row's parents come in earlier files);
 * - `files/`: the uploaded files of DATA_DIR/files (not the temporary files of uploads in progress).
 *
 * Rows never pass through JavaScript values: the text PostgreSQL wrote is handed back to
 * json_populate_recordset, so numbers, timestamps and bytes come back exactly as they were.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { sql, type SQL } from 'drizzle-orm';
import * as tar from 'tar';
import type { Database, DatabaseHandle } from './client.ts';

export const BACKUP_FORMAT = 'vetcall-backup';
const BACKUP_VERSION = 1;
/** Rows read per FETCH on backup. */
const BACKUP_PAGE_ROWS = 1000;
/** Rows sent to the database per INSERT on restore. */
const RESTORE_BATCH_ROWS = 500;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The database the backup was taken from; it restores into either. */
  source: 'pglite' | 'postgres';
  /** How many migrations the database had: a restore needs code that knows at least as many. */
  migrations: number;
  tables: { name: string; file: string; rows: number }[];
  files: number;
}

export class BackupError extends Error {}

async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The application's tables, parents before children (a table that refers to itself counts once). */
export async function tablesInForeignKeyOrder(db: Database): Promise<string[]> {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
  );
  const references = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent from pg_constraint f
        join pg_class child on child.oid = f.conrelid join pg_class parent on parent.oid = f.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where f.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map(tables.map(({ name }) => [name, new Set<string>()]));
  for (const { child, parent } of references) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  while (parents.size > 0) {
    const ready = [...parents].filter(([, of]) => [...of].every((parent) => !parents.has(parent)));
    if (ready.length === 0) throw new BackupError(`foreign keys form a cycle among: ${[...parents.keys()].join(', ')}`);
    for (const [name] of ready) {
      ordered.push(name);
      parents.delete(name);
    }
  }
  return ordered;
}

async function migrationCount(db: Database): Promise<number> {
  const [row] = await rowsOf<{ count: number }>(
    db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return row?.count ?? 0;
}

/** Files under `dir`, relative to it, without the temporary files of uploads in progress. */
async function storedFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !isTemporary(file));
}

const isTemporary = (relative: string) => relative === 'tmp' || relative.startsWith(`tmp${path.sep}`);

/** Writes the database's rows and DATA_DIR/files to `file`; answers what it wrote. */
export async function backupDatabase(
  handle: DatabaseHandle,
  options: { file: string; filesDir: string; now?: Date },
): Promise<BackupManifest> {
  const staging = await mkdtemp(path.join(tmpdir(), 'vetcall-backup-'));
  try {
    await mkdir(path.join(staging, 'tables'));
    const tables: BackupManifest['tables'] = [];
    // One snapshot: every table as of the same moment, while the app may keep writing.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      for (const [index, name] of (await tablesInForeignKeyOrder(tx as unknown as Database)).entries()) {
        const file = `tables/${String(index).padStart(2, '0')}-${name}.jsonl`;
        const out = createWriteStream(path.join(staging, file));
        let rows = 0;
        // Through a cursor, a page at a time: a large table is never all in memory.
        await tx.execute(
          sql.raw(
            `declare backup_rows no scroll cursor for select row_to_json(t)::text as line from ${quoted(name)} t`,
          ),
        );
        for (;;) {
          const page = await rowsOf<{ line: string }>(
            tx as unknown as Database,
            sql.raw(`fetch ${BACKUP_PAGE_ROWS} from backup_rows`),
          );
          for (const { line } of page) if (!out.write(`${line}\n`)) await once(out, 'drain');
          rows += page.length;
          if (page.length < BACKUP_PAGE_ROWS) break;
        }
        await tx.execute(sql`close backup_rows`);
        out.end();
        await once(out, 'finish');
        tables.push({ name, file, rows });
      }
    });
    const files = await storedFiles(options.filesDir);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: (options.now ?? new Date()).toISOString(),
      source: handle.kind,
      migrations: await migrationCount(handle.db),
      tables,
      files: files.length,
    };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = ['manifest.json', 'tables'];
    if (files.length > 0) {
      // The files go in as they are, read through a link: nothing is copied first.
      await symlink(options.filesDir, path.join(staging, 'files'), 'dir');
      entries.push('files');
    }
    await mkdir(path.dirname(options.file), { recursive: true });
    await tar.create(
      {
        gzip: true,
        file: options.file,
        cwd: staging,
        follow: true,
        portable: true,
        filter: (entry) => !entry.startsWith('files/') || !isTemporary(entry.slice('files/'.length)),
      },
      entries,
    );
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function isEmpty(db: Database, tables: string[]): Promise<boolean> {
  for (const name of tables) {
    const [row] = await rowsOf<{ any: boolean }>(db, sql.raw(`select exists (select 1 from ${quoted(name)}) as any`));
    if (row?.any) return false;
  }
  return true;
}

/** Columns a row may be given (not generated), in table order. */
async function insertableColumns(db: Database, table: string): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`,
  );
  return rows.map((row) => row.name);
}

/** Each serial or identity sequence of the table continues after its largest value. */
async function resetSequences(db: Database, table: string) {
  const sequences = await rowsOf<{ column: string; sequence: string }>(
    db,
    sql`select column_name as column, pg_get_serial_sequence(${quoted(table)}, column_name) as sequence
        from information_schema.columns where table_schema = 'public' and table_name = ${table}`,
  );
  for (const { column, sequence } of sequences) {
    if (!sequence) continue;
    await db.execute(
      sql`select setval(${sequence}::regclass, coalesce((select max(${sql.raw(quoted(column))}) from ${sql.raw(
        quoted(table),
      )}), 0) + 1, false)`,
    );
  }
}

async function insertBatch(db: Database, table: string, columns: string[], lines: string[]) {
  const list = columns.map(quoted).join(', ');
  await db.execute(
    sql`insert into ${sql.raw(quoted(table))} (${sql.raw(list)}) overriding system value
        select ${sql.raw(list)} from json_populate_recordset(null::${sql.raw(quoted(table))}, ${`[${lines.join(',')}]`}::json)`,
  );
}

/**
 * Restores `file` into the database (migrated first) and its files into `filesDir`. Refuses a database that
 * has rows, or files already stored, unless `force` (then both are emptied first). All rows go in one
 * transaction: a failure leaves the database as it was.
 */
export async function restoreDatabase(
  handle: DatabaseHandle,
  options: { file: string; filesDir: string; force?: boolean },
): Promise<BackupManifest> {
  const staging = await mkdtemp(path.join(tmpdir(), 'vetcall-restore-'));
  try {
    await tar.extract({ file: options.file, cwd: staging });
    const manifest = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) {
      throw new BackupError(`${options.file} is not a VetCall backup (format ${BACKUP_VERSION})`);
    }
    await handle.migrate();
    const known = await migrationCount(handle.db);
    if (manifest.migrations > known) {
      throw new BackupError(
        `the backup is from a newer VetCall (${manifest.migrations} migrations; this one has ${known}): upgrade first`,
      );
    }
    const tables = await tablesInForeignKeyOrder(handle.db);
    const existingFiles = await storedFiles(options.filesDir);
    if (!options.force && (!(await isEmpty(handle.db, tables)) || existingFiles.length > 0)) {
      throw new BackupError('the database (or DATA_DIR/files) is not empty: restore with --force to replace it');
    }
    await handle.db.transaction(async (txHandle) => {
      const tx = txHandle as unknown as Database;
      // The audit log refuses to be emptied except by a restore (migration 0014), for this transaction only.
      await tx.execute(sql`select set_config('vetcall.restoring', 'on', true)`);
      if (tables.length > 0) await tx.execute(sql.raw(`truncate ${tables.map(quoted).join(', ')} restart identity`));
      for (const entry of manifest.tables) {
        if (!tables.includes(entry.name)) continue;
        const current = new Set(await insertableColumns(tx, entry.name));
        let columns: string[] | undefined;
        let batch: string[] = [];
        const lines = createInterface({ input: createReadStream(path.join(staging, entry.file)), crlfDelay: Infinity });
        for await (const line of lines) {
          if (line === '') continue;
          // Columns the backup has and this schema still has; a column added since keeps its default.
          columns ??= Object.keys(JSON.parse(line) as object).filter((column) => current.has(column));
          batch.push(line);
          if (batch.length >= RESTORE_BATCH_ROWS) {
            await insertBatch(tx, entry.name, columns, batch);
            batch = [];
          }
        }
        if (batch.length > 0 && columns) await insertBatch(tx, entry.name, columns, batch);
        await resetSequences(tx, entry.name);
      }
    });
    if (existingFiles.length > 0) await rm(options.filesDir, { recursive: true, force: true });
    if (existsSync(path.join(staging, 'files'))) {
      await mkdir(options.filesDir, { recursive: true });
      await cp(path.join(staging, 'files'), options.filesDir, { recursive: true });
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
