import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { UserType } from '@vetcall/shared/roles';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { userPhotos, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { SNIFF_LENGTH } from '../../lib/file-content.ts';
import type { Actor } from '../auth/auth.service.ts';
import { initialsOf, renderDefaultAvatar } from './default-avatar.ts';
import { detectImageFormat, type ImageFormat } from './image-content.ts';
import { canChangePhoto } from './photos.policy.ts';

/** Largest upload accepted (5 MiB). */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Stored photos are squares of at most this many pixels a side. */
export const MAX_PHOTO_SIDE = 512;
/** Decompression-bomb guard: a small file may announce a huge image; larger ones are refused undecoded. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const PHOTO_CONTENT_TYPE = 'image/webp';
const WEBP_QUALITY = 82;

const imageRequired = () =>
  new AppError('validation_failed', 400, { message: 'Choose an image to upload.', fields: { image: 'required' } });
const notAnImage = () =>
  new AppError('unsupported_media_type', 415, {
    message: 'The photo must be a JPEG, PNG or WebP image.',
    fields: { image: 'invalid_format' },
  });
const imageTooLarge = () =>
  new AppError('payload_too_large', 413, { message: 'The photo must be at most 5 MB.', fields: { image: 'too_big' } });
const tooManyPixels = () =>
  new AppError('error_changing_user_image', 400, {
    message: `The image has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
    fields: { image: 'too_big' },
  });
const undecodable = (cause?: unknown) =>
  new AppError('error_changing_user_image', 400, {
    message: 'The image could not be read; it may be damaged.',
    fields: { image: 'invalid_format' },
    cause,
  });

export interface PhotoTarget {
  userId: number;
  type: UserType;
  name: string;
}

async function findActiveUser(db: Database, userId: number): Promise<PhotoTarget | undefined> {
  const [row] = await db
    .select({ userId: users.id, type: users.type, name: users.name, active: users.active })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.active ? { userId: row.userId, type: row.type, name: row.name } : undefined;
}

/** The user whose photo the actor wants to change: 404 unknown or removed, 403 when not theirs to change. */
export async function authorizePhotoChange(db: Database, actor: Actor, userId: number): Promise<PhotoTarget> {
  const target = await findActiveUser(db, userId);
  if (!target) throw notFound();
  if (!canChangePhoto(actor, target)) throw forbidden();
  return target;
}

/** A file stream of an upload; busboy sets `truncated` when it cut the file at the size limit. */
export type UploadStream = AsyncIterable<Buffer> & { truncated?: boolean };

/**
 * Reads an uploaded file, keeping at most MAX_PHOTO_BYTES in memory. The type is decided by the first
 * SNIFF_LENGTH bytes as soon as they arrive; the rest of a refused file is drained (not kept) so the
 * request ends cleanly. An empty file (a form sent without choosing one) counts as no file.
 */
export async function readImageUpload(file: UploadStream): Promise<{ bytes: Buffer; format: ImageFormat }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let format: ImageFormat | undefined;
  let refused = false;
  for await (const chunk of file) {
    size += chunk.length;
    if (refused || size > MAX_PHOTO_BYTES) continue;
    chunks.push(chunk);
    if (format === undefined && size >= SNIFF_LENGTH) {
      format = await detectImageFormat(Buffer.concat(chunks, size));
      if (!format) {
        refused = true;
        chunks.length = 0;
      }
    }
  }
  if (size === 0) throw imageRequired();
  if (refused) throw notAnImage();
  if (file.truncated || size > MAX_PHOTO_BYTES) throw imageTooLarge();
  const bytes = Buffer.concat(chunks, size);
  format ??= await detectImageFormat(bytes);
  if (!format) throw notAnImage();
  return { bytes, format };
}

/**
 * Re-encodes a photo: EXIF orientation applied, centre-cropped to a square of min(512, shortest side)
 * pixels, written as WebP. Nothing of the original file survives: sharp drops EXIF, XMP, IPTC and ICC
 * metadata unless asked to keep it (and converts to sRGB).
 */
export async function processPhoto(input: Buffer, format: ImageFormat): Promise<Buffer> {
  // Loaded with the first photo, not at every start (a native library of tens of megabytes).
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false });
    const metadata = await image.metadata();
    // sharp decides by content too; a mismatch means the signature was a disguise.
    if (metadata.format !== format) throw notAnImage();
    const { width, height } = metadata;
    if (!width || !height) throw undecodable();
    if (width * height > MAX_INPUT_PIXELS) throw tooManyPixels();
    const side = Math.min(MAX_PHOTO_SIDE, width, height);
    return await image
      .autoOrient()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels();
    throw undecodable(error);
  }
}

/** A short content hash: identical bytes, identical ETag, on every instance. */
export const etagOf = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64url').slice(0, 16);

/** Stores (or replaces) a user's photo. */
export async function savePhoto(
  deps: Pick<AppContext, 'db' | 'clock'>,
  userId: number,
  content: Buffer,
): Promise<{ user_id: number; etag: string }> {
  const etag = etagOf(content);
  const values = { content, contentType: PHOTO_CONTENT_TYPE, etag, updatedAt: deps.clock.now() };
  await deps.db
    .insert(userPhotos)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userPhotos.userId, set: values });
  return { user_id: userId, etag };
}

export type ServedPhoto =
  | { kind: 'photo'; content: Buffer; contentType: string; etag: string }
  | { kind: 'default'; content: string; contentType: 'image/svg+xml'; etag: string };

/**
 * What GET /api/users/image/{user_id} serves: the stored photo, or a generated avatar; 404 for an
 * unknown or removed user. Staff avatars show initials; customers' show a plain figure, since this
 * public image must not spell out who the clinic's customers are.
 */
export async function loadPhoto(db: Database, userId: number): Promise<ServedPhoto> {
  const [row] = await db
    .select({
      type: users.type,
      name: users.name,
      active: users.active,
      content: userPhotos.content,
      contentType: userPhotos.contentType,
      etag: userPhotos.etag,
    })
    .from(users)
    .leftJoin(userPhotos, eq(userPhotos.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row?.active) throw notFound();
  if (row.content && row.contentType && row.etag) {
    return { kind: 'photo', content: row.content, contentType: row.contentType, etag: row.etag };
  }
  const svg = renderDefaultAvatar(userId, row.type === 'customer' ? undefined : initialsOf(row.name));
  return { kind: 'default', content: svg, contentType: 'image/svg+xml', etag: `a-${etagOf(svg)}` };
}
