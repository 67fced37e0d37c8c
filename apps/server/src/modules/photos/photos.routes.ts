import { idParam } from '@vetcall/shared/schemas/fields';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import {
  authorizePhotoChange,
  loadPhoto,
  MAX_PHOTO_BYTES,
  processPhoto,
  readImageUpload,
  savePhoto,
} from './photos.service.ts';

const IMAGE_FIELD = 'image';
/** A photo is cached for a year when the URL carries the client's cache-busting hash (docs/product-rules.md#api). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, no-cache';
/** The generated SVG may be opened on its own: it gets no scripts, no external loads, only its inline styles. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const userIdParams = z.object({ user_id: idParam });
const photoQuery = z.object({
  /** docs/product-rules.md#api: an optional random cache-busting number up to 99999. */
  hash: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'invalid_format' })
    .optional(),
});

const MULTIPART_ERRORS: Record<string, () => AppError> = {
  FST_REQ_FILE_TOO_LARGE: () =>
    new AppError('payload_too_large', 413, {
      message: 'The photo must be at most 5 MB.',
      fields: { image: 'too_big' },
    }),
  FST_FILES_LIMIT: () => new AppError('payload_too_large', 413, { message: 'Send one image only.' }),
  FST_PARTS_LIMIT: () => new AppError('payload_too_large', 413, { message: 'The form has too many parts.' }),
  FST_FIELDS_LIMIT: () => new AppError('payload_too_large', 413, { message: 'The form has too many fields.' }),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    new AppError('unsupported_media_type', 415, { message: 'Send the photo as multipart/form-data.' }),
};

/** Multipart and busboy errors as API errors: limits are 413, a malformed body is 400. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  const known = typeof code === 'string' ? MULTIPART_ERRORS[code] : undefined;
  if (known) return known();
  if (error instanceof Error && (error as { statusCode?: number }).statusCode === undefined) {
    return new AppError('validation_failed', 400, { message: 'The multipart body is malformed.', cause: error });
  }
  return error;
}

/** The uploaded `image` file, read and checked; other fields (the contract also sends the user id) are ignored. */
async function receiveImage(request: FastifyRequest) {
  if (!request.isMultipart()) throw MULTIPART_ERRORS.FST_INVALID_MULTIPART_CONTENT_TYPE!();
  try {
    const part = await request.file();
    if (!part || part.fieldname !== IMAGE_FIELD) {
      if (part) await drain(part.file);
      throw new AppError('validation_failed', 400, {
        message: 'Choose an image to upload.',
        fields: { image: 'required' },
      });
    }
    return await readImageUpload(part.file);
  } catch (error) {
    throw uploadError(error);
  }
}

async function drain(stream: AsyncIterable<unknown>) {
  for await (const _ of stream);
}

/**
 * docs/product-rules.md#api Users: POST api/users/image/{user_id} and GET /api/users/image/{user_id}/, under
 * /api/users.
 */
export const photoRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  // Encapsulated: multipart bodies are parsed only by the routes of this plugin.
  await app.register(multipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 20 },
    // A file cut at the limit is reported by readImageUpload (413) rather than thrown by the plugin.
    throwFileSizeLimit: false,
  });

  app.post(
    '/image/:user_id',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['users'],
        summary:
          'Upload a profile photo (multipart field `image`: JPEG, PNG or WebP up to 5 MB, recognised by content). ' +
          'Stored re-encoded as a WebP square of at most 512 px without metadata. The user themself, or a manager ' +
          'for a vet or manager.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        params: userIdParams,
        response: { 200: z.object({ user_id: z.number().int(), etag: z.string() }) },
        errors: { 400: ['error_changing_user_image'], 403: ['forbidden'], 404: ['not_found'] },
      },
    },
    async (request) => {
      const target = await authorizePhotoChange(context.db, actorOf(request), request.params.user_id);
      const upload = await receiveImage(request);
      const content = await processPhoto(upload.bytes, upload.format);
      return savePhoto(context, target.userId, content);
    },
  );

  app.get(
    '/image/:user_id',
    {
      schema: {
        tags: ['users'],
        summary:
          'A user\u2019s photo (WebP), or a generated SVG avatar without one; no auth. With `hash` (0\u201399999) ' +
          'it is cacheable for a year, otherwise revalidated by ETag.',
        params: userIdParams,
        querystring: photoQuery,
        produces: ['image/webp', 'image/svg+xml'],
        rawResponses: { 304: { description: 'Not modified: the If-None-Match ETag is current; no body' } },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const photo = await loadPhoto(context.db, request.params.user_id);
      const etag = `"${photo.etag}"`;
      // A generated avatar changes when a photo arrives or the name changes: always revalidated.
      const cacheControl = photo.kind === 'photo' && request.query.hash !== undefined ? IMMUTABLE : REVALIDATE;
      void reply.header('etag', etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
      if (photo.kind === 'default') void reply.header('content-security-policy', SVG_CSP);
      if (ifNoneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
      const extension = photo.kind === 'photo' ? 'webp' : 'svg';
      return reply
        .header('content-disposition', `inline; filename="user-${request.params.user_id}.${extension}"`)
        .type(photo.contentType)
        .send(photo.content);
    },
  );
};

/** RFC 9110 If-None-Match: `*` or a list of (possibly weak) entity tags. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
