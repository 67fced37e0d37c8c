import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { appointmentFiles } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { sniffContent, SNIFF_LENGTH, TextCheck } from '../../lib/file-content.ts';

/**
 * Attachment bytes on disk, under `${DATA_DIR}/files` (ARCHITECTURE §4 Files). The order of events keeps
 * disk and database consistent:
 *
 * 1. storeUpload streams the bytes to `files/tmp/<random>.part` (size cap and content checked while
 *    streaming), fsyncs, and renames the file to `files/<storage key>` (a random key: no user input ever
 *    reaches a path);
 * 2. the caller writes the rows naming the files in its own transaction and deletes the stored bytes
 *    (discardStoredFiles) if that transaction fails;
 * 3. a crash between 1 and the commit leaves bytes that no row names: sweepFileStore, run at start-up
 *    (and hourly), deletes them, and temp files left by an interrupted upload.
 *
 * Rows are deleted first and bytes after: a failed unlink leaves an orphan for the sweep, never a row
 * without bytes.
 */
export interface FileStore {
  /** Stored files, one per storage key. */
  root: string;
  /** Uploads in progress. */
  tempDir: string;
}

/** A file whose bytes are stored; its row is not written yet. */
export interface StoredFile {
  storageKey: string;
  /** The client's name for it, cleaned (display only). */
  fileName: string;
  /** Sniffed from the bytes. */
  fileType: string;
  fileSize: number;
}

/** Storage keys are 128 random bits in hex; anything else is never turned into a path. */
const STORAGE_KEY_PATTERN = /^[0-9a-f]{32}$/;
const TEMP_SUFFIX = '.part';
const MAX_FILE_NAME_LENGTH = 200;
const HOUR_MS = 60 * 60 * 1000;
/** Bytes stored but not yet named by a row live only until their transaction commits (seconds). */
export const STORED_ORPHAN_GRACE_MS = 10 * 60 * 1000;
/** An upload is not expected to take an hour; a temp file that old was abandoned. */
export const TEMP_FILE_MAX_AGE_MS = HOUR_MS;

export const filesTooLarge = (maxBytes: number) =>
  new AppError('files_too_large', 413, {
    message: `The files of an appointment may total at most ${maxBytes} bytes.`,
    fields: { files: 'too_big' },
  });
export const fileTypeNotAllowed = () =>
  new AppError('file_type_not_allowed', 415, {
    message: 'Programs and scripts cannot be attached.',
    fields: { files: 'invalid_format' },
  });

export function fileStoreFor(config: Pick<Config, 'dataDir'>): FileStore {
  const root = path.join(config.dataDir, 'files');
  return { root, tempDir: path.join(root, 'tmp') };
}

function storedPath(store: FileStore, storageKey: string): string {
  if (!STORAGE_KEY_PATTERN.test(storageKey)) throw new Error('not a storage key');
  return path.join(store.root, storageKey);
}

/** The client's file name as a display label: no folders, no control characters, bounded. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...cleaned].slice(0, MAX_FILE_NAME_LENGTH).join('') || 'file';
}

/** Flushes a directory entry (a rename) to disk; some platforms cannot open directories, which is fine. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/**
 * Streams one upload into the store. At most `maxBytes` are accepted: one byte more and the upload
 * stops with 413 files_too_large (a `truncated` stream, cut by the multipart parser, counts as over).
 * Programs are refused with 415 file_type_not_allowed as soon as their first SNIFF_LENGTH bytes arrive
 * (file-type's sample). On any failure nothing stays on disk.
 */
export async function storeUpload(
  store: FileStore,
  source: AsyncIterable<Uint8Array> & { truncated?: boolean },
  options: { fileName?: string; maxBytes: number },
): Promise<StoredFile> {
  const fileName = cleanFileName(options.fileName);
  await mkdir(store.tempDir, { recursive: true });
  const storageKey = randomBytes(16).toString('hex');
  const tempPath = path.join(store.tempDir, `${storageKey}${TEMP_SUFFIX}`);
  const handle = await open(tempPath, 'wx', 0o600);
  let closed = false;
  try {
    let size = 0;
    const head: Uint8Array[] = [];
    let headLength = 0;
    let fileType: string | undefined;
    let text: TextCheck | undefined;
    const decide = async () => {
      const sniffed = await sniffContent(Buffer.concat(head));
      if (sniffed.kind === 'executable') throw fileTypeNotAllowed();
      if (sniffed.kind === 'type') fileType = sniffed.contentType;
      else {
        text = new TextCheck();
        for (const chunk of head) text.push(chunk);
      }
    };
    for await (const chunk of source) {
      size += chunk.length;
      if (size > options.maxBytes) throw filesTooLarge(options.maxBytes);
      if (fileType === undefined && text === undefined) {
        head.push(chunk);
        headLength += chunk.length;
        if (headLength >= SNIFF_LENGTH) await decide();
      } else text?.push(chunk);
      await handle.write(chunk);
    }
    if (source.truncated) throw filesTooLarge(options.maxBytes);
    if (fileType === undefined && text === undefined) await decide();
    fileType ??= text!.contentType(fileName);
    await handle.sync();
    await handle.close();
    closed = true;
    await mkdir(store.root, { recursive: true });
    await rename(tempPath, storedPath(store, storageKey));
    await syncDirectory(store.root);
    return { storageKey, fileName, fileType, fileSize: size };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true });
    throw error;
  }
}

/** Deletes the bytes of stored files (their rows were never written, or are gone). Never throws. */
export async function discardStoredFiles(store: FileStore, files: readonly Pick<StoredFile, 'storageKey'>[]) {
  await Promise.all(
    files.map((file) => rm(storedPath(store, file.storageKey), { force: true }).catch(() => undefined)),
  );
}

/** The bytes of a stored file, to stream to an authorized reader (as an attachment, with nosniff). */
export function openStoredFile(store: FileStore, storageKey: string): ReadStream {
  return createReadStream(storedPath(store, storageKey));
}

async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function isOlderThan(file: string, cutoff: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.isFile() && info.mtimeMs < cutoff;
}

const SWEEP_QUERY_BATCH = 500;

/**
 * Deletes stored bytes that no appointment_files row names and temp files of abandoned uploads. Bytes
 * younger than STORED_ORPHAN_GRACE_MS are left alone (their transaction may still be running, here or
 * in another instance sharing the directory), and temp files younger than TEMP_FILE_MAX_AGE_MS. `now`
 * is compared with file modification times, so it is the real time, not the application clock.
 */
export async function sweepFileStore(
  deps: { db: Pick<Database, 'select'>; store: FileStore },
  options: { now?: Date } = {},
): Promise<{ removedStored: number; removedTemp: number }> {
  const now = (options.now ?? new Date()).getTime();
  const { store } = deps;

  let removedTemp = 0;
  for (const name of await listDirectory(store.tempDir)) {
    const file = path.join(store.tempDir, name);
    if (!(await isOlderThan(file, now - TEMP_FILE_MAX_AGE_MS))) continue;
    await rm(file, { force: true });
    removedTemp += 1;
  }

  const candidates: string[] = [];
  for (const name of await listDirectory(store.root)) {
    if (!STORAGE_KEY_PATTERN.test(name)) continue;
    if (await isOlderThan(path.join(store.root, name), now - STORED_ORPHAN_GRACE_MS)) candidates.push(name);
  }
  let removedStored = 0;
  for (let start = 0; start < candidates.length; start += SWEEP_QUERY_BATCH) {
    const batch = candidates.slice(start, start + SWEEP_QUERY_BATCH);
    const named = await deps.db
      .select({ storageKey: appointmentFiles.storageKey })
      .from(appointmentFiles)
      .where(inArray(appointmentFiles.storageKey, batch));
    const kept = new Set(named.map((row) => row.storageKey));
    const orphans = batch.filter((key) => !kept.has(key));
    await discardStoredFiles(
      store,
      orphans.map((storageKey) => ({ storageKey })),
    );
    removedStored += orphans.length;
  }
  return { removedStored, removedTemp };
}
