import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertStorageKey,
  type CheckedUpload,
  checkedChunks,
  cleanFileName,
  type FileStore,
  isStorageKey,
  newStorageKey,
} from './file-store.ts';

const TEMP_SUFFIX = '.part';
const LIST_BATCH = 500;

/** The local store: what `fileStoreFor` gives without STORAGE=s3, also handy for tests that read the disk. */
export interface LocalFileStore extends FileStore {
  readonly kind: 'local';
  /** Stored files, one per storage key. */
  readonly root: string;
  /** Uploads in progress. */
  readonly tempDir: string;
}

/** Flushes a directory entry (a rename) to disk; some platforms cannot open directories, which is fine. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
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

/**
 * Attachment bytes under `root` (`${DATA_DIR}/files`): an upload is streamed to `tmp/<key>.part`, fsynced and
 * renamed to `<key>` only once every check passed, so a stored file is always whole. A crash mid-upload leaves
 * only a `.part` file, which removeAbandonedUploads deletes once it is old.
 */
export function createLocalFileStore(root: string): LocalFileStore {
  const tempDir = path.join(root, 'tmp');
  const storedPath = (storageKey: string) => path.join(root, assertStorageKey(storageKey));

  return {
    kind: 'local',
    root,
    tempDir,

    async put(source, options) {
      const fileName = cleanFileName(options.fileName);
      await mkdir(tempDir, { recursive: true });
      const storageKey = newStorageKey();
      const tempPath = path.join(tempDir, `${storageKey}${TEMP_SUFFIX}`);
      const handle = await open(tempPath, 'wx', 0o600);
      let closed = false;
      try {
        const checked: CheckedUpload = { fileSize: 0 };
        for await (const chunk of checkedChunks(source, { fileName, maxBytes: options.maxBytes }, checked)) {
          await handle.write(chunk);
        }
        await handle.sync();
        await handle.close();
        closed = true;
        await mkdir(root, { recursive: true });
        await rename(tempPath, storedPath(storageKey));
        await syncDirectory(root);
        return { storageKey, fileName, fileType: checked.fileType!, fileSize: checked.fileSize };
      } catch (error) {
        if (!closed) await handle.close().catch(() => undefined);
        await rm(tempPath, { force: true });
        throw error;
      }
    },

    async discard(files) {
      await Promise.all(files.map((file) => rm(storedPath(file.storageKey), { force: true }).catch(() => undefined)));
    },

    async open(storageKey): Promise<Readable | null> {
      const stream = createReadStream(storedPath(storageKey));
      try {
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve());
          stream.once('error', reject);
        });
      } catch (error) {
        stream.destroy();
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return stream;
    },

    async *listStoredBefore(cutoff) {
      let batch: string[] = [];
      for (const name of await listDirectory(root)) {
        if (!isStorageKey(name)) continue;
        if (!(await isOlderThan(path.join(root, name), cutoff.getTime()))) continue;
        batch.push(name);
        if (batch.length === LIST_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },

    async removeAbandonedUploads(cutoff) {
      let removed = 0;
      for (const name of await listDirectory(tempDir)) {
        const file = path.join(tempDir, name);
        if (!(await isOlderThan(file, cutoff.getTime()))) continue;
        await rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}
