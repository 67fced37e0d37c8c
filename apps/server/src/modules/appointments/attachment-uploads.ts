import type { Multipart } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { type FileStore, filesTooLarge, type StoredFile } from '../../providers/storage/file-store.ts';

/** Files one request may carry (the product rules give no number; enough for a visit's photos and reports). */
export const MAX_FILES_PER_REQUEST = 20;
/** A JSON field (appointment_data, file_data) is small; a bigger one is refused by the parser. */
export const MAX_FIELD_BYTES = 64 * 1024;
/**
 * The file part names of docs/product-rules.md#api (`files[]`, as a browser's FormData sends it) and its plain form.
 */
export const FILE_FIELD_NAMES = ['files[]', 'files'] as const;

/**
 * @fastify/multipart options for routes that receive attachments: the per-file parser limit is above
 * every cap so that the store's put (which counts the running total) is what says 413.
 */
export const ATTACHMENT_MULTIPART_OPTIONS = {
  limits: {
    fileSize: Number.MAX_SAFE_INTEGER,
    files: MAX_FILES_PER_REQUEST + 2,
    fields: 10,
    fieldSize: MAX_FIELD_BYTES,
    parts: MAX_FILES_PER_REQUEST + 12,
    headerPairs: 20,
  },
  throwFileSizeLimit: false,
} as const;

const tooManyFiles = () =>
  new AppError('payload_too_large', 413, { message: `Send at most ${MAX_FILES_PER_REQUEST} files at once.` });
const malformed = (cause?: unknown) =>
  new AppError('validation_failed', 400, { message: 'The multipart body is malformed.', cause });
const unexpectedPart = (name: string) =>
  new AppError('validation_failed', 400, { message: `Unexpected form part '${name}'.` });

const MULTIPART_ERRORS: Record<string, () => AppError> = {
  FST_FILES_LIMIT: tooManyFiles,
  FST_PARTS_LIMIT: () => new AppError('payload_too_large', 413, { message: 'The form has too many parts.' }),
  FST_FIELDS_LIMIT: () => new AppError('payload_too_large', 413, { message: 'The form has too many fields.' }),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    new AppError('unsupported_media_type', 415, { message: 'Send the form as multipart/form-data.' }),
  FST_INVALID_JSON_FIELD_ERROR: () => malformed(),
  FST_PROTO_VIOLATION: () => malformed(),
};

/** Parser errors as API errors: limits are 413, a malformed body 400; ours pass through. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? MULTIPART_ERRORS[code] : undefined;
  if (known) return known();
  if (error instanceof Error && (error as { statusCode?: number }).statusCode === undefined) return malformed(error);
  return error;
}

async function readSmallPart(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_FIELD_BYTES) throw malformed();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface ReceivedUpload {
  /** Text fields by name (a JSON field sent as a Blob part counts as a field too). */
  fields: Record<string, string>;
  files: StoredFile[];
}

/**
 * Reads a multipart body part by part: fields named in `fieldNames` are collected (and handed to
 * `onField` as they arrive, so a request can be refused before its files are read), file parts under
 * FILE_FIELD_NAMES are streamed into the store while their running total stays within `maxTotalBytes`.
 * Empty file parts (a form sent with no file chosen) are skipped. On any failure every file stored by
 * this request is deleted and the error is thrown as an API error.
 */
async function receiveUploads(
  parts: AsyncIterable<Multipart>,
  options: {
    store: FileStore;
    maxTotalBytes: number;
    fieldNames: readonly string[];
    onField?: (name: string, value: string) => Promise<void> | void;
  },
): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  const files: StoredFile[] = [];
  let total = 0;
  try {
    for await (const part of parts) {
      if (options.fieldNames.includes(part.fieldname)) {
        if (part.fieldname in fields) throw unexpectedPart(part.fieldname);
        const value =
          part.type === 'file'
            ? await readSmallPart(part.file)
            : typeof part.value === 'string'
              ? part.value
              : JSON.stringify(part.value);
        fields[part.fieldname] = value;
        await options.onField?.(part.fieldname, value);
      } else if (part.type === 'file' && (FILE_FIELD_NAMES as readonly string[]).includes(part.fieldname)) {
        if (files.length >= MAX_FILES_PER_REQUEST) throw tooManyFiles();
        const remaining = options.maxTotalBytes - total;
        const stored = await options.store.put(part.file, { fileName: part.filename, maxBytes: remaining });
        if (stored.fileSize === 0) {
          await options.store.discard([stored]);
          continue;
        }
        files.push(stored);
        total += stored.fileSize;
      } else {
        throw unexpectedPart(part.fieldname);
      }
    }
  } catch (error) {
    await options.store.discard(files);
    const mapped = uploadError(error);
    if (mapped instanceof AppError && mapped.code === 'files_too_large') throw filesTooLarge(options.maxTotalBytes);
    throw mapped;
  }
  return { fields, files };
}

/**
 * Runs `work` (the transaction that writes the rows naming `files`); if it fails, the stored bytes are
 * deleted before the error goes on. A process that dies in between leaves them to sweepFileStore.
 */
export async function discardFilesOnFailure<T>(
  store: FileStore,
  files: readonly StoredFile[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await store.discard(files);
    throw error;
  }
}

export interface UploadLimits {
  cap: number;
  remaining: number;
}

export interface AttachmentRequest<T> {
  store: FileStore;
  /**
   * The cap, and what of it this request may still add (the cap minus what the appointment holds). Its
   * refusals (not theirs, a frozen appointment) come before a byte is stored.
   */
  limits: () => Promise<UploadLimits> | UploadLimits;
  /** The JSON part that describes the upload (appointment_data, file_data). */
  fieldName: string;
  /** Called as soon as the field arrives, so a request bound to fail is refused before its files are read. */
  onField?: (value: string) => Promise<void> | void;
  /** Writes the rows naming the stored files; when it fails, the stored bytes are deleted. */
  save: (field: string | undefined, files: StoredFile[]) => Promise<T>;
}

/**
 * The one way a route receives attachments: refuses a body that is not multipart (415), streams the
 * files into the store under the cap, then saves them; on any failure nothing stays stored. A request
 * refused before its body was read to the end closes its connection after the answer, since the unread
 * rest of the upload cannot be followed by another request.
 */
export async function receiveAttachments<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: AttachmentRequest<T>,
): Promise<T> {
  let bodyRead = false;
  try {
    const { cap, remaining } = await options.limits();
    if (!request.isMultipart()) {
      throw new AppError('unsupported_media_type', 415, { message: 'Send the form as multipart/form-data.' });
    }
    let field: string | undefined;
    const upload = await receiveUploads(request.parts(), {
      store: options.store,
      maxTotalBytes: remaining,
      fieldNames: [options.fieldName],
      onField: async (_name, value) => {
        field = value;
        await options.onField?.(value);
      },
    }).catch((error: unknown) => {
      // The stream stopped at what was left under the cap; the answer names the cap itself.
      throw error instanceof AppError && error.code === 'files_too_large' ? filesTooLarge(cap) : error;
    });
    bodyRead = true;
    return await discardFilesOnFailure(options.store, upload.files, () => options.save(field, upload.files));
  } catch (error) {
    if (!bodyRead) void reply.header('connection', 'close');
    throw error;
  }
}
