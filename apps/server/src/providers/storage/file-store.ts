import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import { sniffContent, SNIFF_LENGTH, TextCheck } from '../../lib/file-content.ts';

/**
 * Where attachment bytes live: the local disk (`${DATA_DIR}/files`, local-file-store.ts) or an S3-compatible
 * bucket (s3-file-store.ts), chosen by STORAGE. Either way the order of events keeps bytes and rows consistent:
 *
 * 1. `put` streams the bytes in under a random storage key (size cap and content checked while streaming, by
 *    checkedChunks below); a failure at any point, the client's or the store's, leaves nothing stored;
 * 2. the caller writes the rows naming the stored files in its own transaction and `discard`s the bytes if that
 *    transaction fails;
 * 3. a process that dies between 1 and the commit leaves bytes that no row names: sweepFileStore
 *    (file-store-sweep.ts), run at start-up and hourly, deletes them once they are older than their grace.
 *
 * Rows are deleted first and bytes after: a failed delete of the bytes leaves an orphan for the sweep, never a
 * row without its bytes.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Streams one upload in; at most `maxBytes` (413 files_too_large past it), programs refused (415). */
  put(
    source: AsyncIterable<Uint8Array> & { truncated?: boolean },
    options: { fileName?: string; maxBytes: number },
  ): Promise<StoredFile>;
  /** Deletes the bytes of stored files (their rows were never written, or are gone). Never throws. */
  discard(files: readonly Pick<StoredFile, 'storageKey'>[]): Promise<void>;
  /** The bytes under a storage key, to stream to an authorized reader; null when there are none. */
  open(storageKey: string): Promise<Readable | null>;
  /** The storage keys of bytes written before `cutoff`, in batches: the sweep's candidates. */
  listStoredBefore(cutoff: Date): AsyncIterable<string[]>;
  /** Removes what uploads that never finished left behind before `cutoff`; answers how many. */
  removeAbandonedUploads(cutoff: Date): Promise<number>;
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

/** Storage keys are 128 random bits in hex; anything else is never turned into a path or an object key. */
const STORAGE_KEY_PATTERN = /^[0-9a-f]{32}$/;
const MAX_FILE_NAME_LENGTH = 200;
const HOUR_MS = 60 * 60 * 1000;
/** Bytes stored but not yet named by a row live only until their transaction commits (seconds). */
export const STORED_ORPHAN_GRACE_MS = 10 * 60 * 1000;
/** An upload is not expected to take an hour; one started that long ago was abandoned. */
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

export function isStorageKey(value: string): boolean {
  return STORAGE_KEY_PATTERN.test(value);
}

export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/** Guards every store's use of a key: only keys this code made reach a path or a bucket. */
export function assertStorageKey(storageKey: string): string {
  if (!isStorageKey(storageKey)) throw new Error('not a storage key');
  return storageKey;
}

/** The client's file name as a display label: no folders, no control characters, bounded. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...cleaned].slice(0, MAX_FILE_NAME_LENGTH).join('') || 'file';
}

/** What the checks learnt of an upload once its last byte passed. */
export interface CheckedUpload {
  fileType?: string;
  fileSize: number;
}

/**
 * The upload's bytes as they pass, checked on the way: one byte past `maxBytes` and it throws 413
 * files_too_large (a `truncated` source, cut by the multipart parser, counts as over); a program throws 415
 * file_type_not_allowed as soon as its first SNIFF_LENGTH bytes arrive (file-type's sample), small files once
 * they end. The checks run inside the iteration, so a store that writes what it yields stops, and drops what
 * it wrote, before the upload is ever complete. `result` is filled when the iteration ends without a throw.
 */
export async function* checkedChunks(
  source: AsyncIterable<Uint8Array> & { truncated?: boolean },
  options: { fileName: string; maxBytes: number },
  result: CheckedUpload,
): AsyncGenerator<Uint8Array> {
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
    yield chunk;
  }
  if (source.truncated) throw filesTooLarge(options.maxBytes);
  if (fileType === undefined && text === undefined) await decide();
  result.fileType = fileType ?? text!.contentType(options.fileName);
  result.fileSize = size;
}
