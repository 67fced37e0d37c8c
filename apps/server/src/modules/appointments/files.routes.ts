import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_CUSTOMER_UPLOAD_BYTES, MAX_STAFF_UPLOAD_BYTES } from '@vetcall/shared/constants';
import { appointmentFileSchema, fileAddedByParam } from '@vetcall/shared/schemas/appointment';
import { idParam, localeField } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import {
  addFiles,
  listFiles,
  MAX_FILES_PER_APPOINTMENT,
  openFileForDownload,
  parseFileData,
  planFileUpload,
  removeFile,
} from './files.service.ts';
import { notifyFileAdded } from './file-added-mail.ts';
import { ATTACHMENT_MULTIPART_OPTIONS, receiveAttachments } from './attachment-uploads.ts';

const FILE_DATA_FIELD = 'file_data';

/**
 * docs/product-rules.md#api Appointments, the files: list, add, remove, download and the 'file added' notice, under
 * /api/appointments. The appointment's customer and vet add files; managers view and download them.
 */
export const appointmentFileRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  // Encapsulated: multipart bodies are parsed only by the routes of this plugin.
  await app.register(multipart, ATTACHMENT_MULTIPART_OPTIONS);
  const auth = { onRequest: requireAuth(context) };
  const security = [{ bearer: [] }];
  const store = context.files;
  const deps = { ...context, store };
  const appointmentParams = z.object({ appointment_id: idParam });

  app.get(
    '/files/:appointment_id',
    {
      ...auth,
      schema: {
        tags: ['appointments'],
        summary: 'The files of an appointment, oldest first (its customer, its vet, managers; others 404)',
        security,
        params: appointmentParams,
        response: { 200: z.array(appointmentFileSchema) },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => listFiles(deps, actorOf(request), request.params.appointment_id),
  );

  app.post(
    '/file/:appointment_id',
    {
      ...auth,
      schema: {
        tags: ['appointments'],
        summary: 'Add files to an appointment (its customer or its vet), multipart: `file_data` and `files[]`',
        description:
          '`file_data` is JSON {appointment_id (= the path), file_description (2 to 80 characters)}; `files[]` ' +
          `one or more files. The appointment\u2019s files may total ${MAX_CUSTOMER_UPLOAD_BYTES} bytes when a ` +
          `customer adds, ${MAX_STAFF_UPLOAD_BYTES} when a vet does (what is there counts), at most ` +
          `${MAX_FILES_PER_APPOINTMENT} files: over it 413 files_too_large and nothing is kept. Answers 201 with ` +
          'the files made. 403 managers; 404 not the actor\u2019s appointment; 409 error_creating_new_file unless ' +
          'it is requested, confirmed or completed; 415 file_type_not_allowed for programs.',
        security,
        consumes: ['multipart/form-data'],
        params: appointmentParams,
        response: { 201: z.array(appointmentFileSchema) },
        errors: {
          403: ['forbidden'],
          404: ['not_found'],
          409: ['error_creating_new_file'],
          413: ['files_too_large'],
          415: ['file_type_not_allowed'],
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const appointmentId = request.params.appointment_id;
      const created = await receiveAttachments(request, reply, {
        store,
        // Refused before a byte is stored: not theirs, a manager, a frozen appointment.
        limits: () => planFileUpload(deps, actor, appointmentId),
        fieldName: FILE_DATA_FIELD,
        onField: (value) => void parseFileData(value, appointmentId),
        // A missing file_data is refused inside, so the stored bytes go too.
        save: (field, files) => addFiles(deps, actor, appointmentId, parseFileData(field, appointmentId), files),
      });
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/file/:file_id',
    {
      ...auth,
      schema: {
        tags: ['appointments'],
        summary: 'Remove a file: a customer only files they added, the vet any file of the appointment',
        description:
          '403 managers, and a customer for a file someone else added; 404 when the file is not in one of the ' +
          'actor\u2019s appointments; 409 error_deleting_file unless it is requested, confirmed or completed.',
        security,
        params: z.object({ file_id: idParam }),
        response: { 200: z.object({ file_id: z.number().int() }) },
        errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['error_deleting_file'] },
      },
    },
    async (request) => removeFile(deps, actorOf(request), request.params.file_id),
  );

  app.get(
    '/download-file.php',
    {
      ...auth,
      schema: {
        tags: ['appointments'],
        summary:
          'A file\u2019s bytes as a download (docs/product-rules.md#entities download_url), with the bearer header',
        description:
          'For the appointment\u2019s customer, its vet and managers; anyone else 404. Sent as an attachment ' +
          'under its original name, with the content type sniffed at upload and nosniff; never cached.',
        security,
        querystring: z.object({ file_id: idParam }),
        produces: ['application/octet-stream'],
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const { file, stream } = await openFileForDownload(deps, actorOf(request), request.query.file_id);
      return reply
        .header('content-type', file.fileType)
        .header('content-length', String(file.fileSize))
        .header('content-disposition', contentDisposition(file.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.put(
    '/newfileadded/:appointment_id/:bywhom/:language',
    {
      ...auth,
      schema: {
        tags: ['appointments'],
        summary:
          'Tell the other party that a file was added (customer \u2192 vet, vet \u2192 customer, manager \u2192 both)',
        description:
          '`bywhom` must be the actor\u2019s own part in the appointment (403 otherwise; 404 not theirs). Each ' +
          'mail is in its recipient\u2019s language; `language` is the sender\u2019s and is accepted as docs/product-rules.md#api ' +
          'sends it. A body, if any, is ignored. At most 10 notices per sender and appointment an hour (429). ' +
          'The mails are queued and retried while the mail server is away.',
        security,
        params: appointmentParams.extend({ bywhom: fileAddedByParam, language: localeField }),
        response: { 200: z.object({ success: z.literal(true) }) },
        errors: {
          403: ['forbidden'],
          404: ['not_found'],
          409: ['error_notifying_file_added'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request) => notifyFileAdded(context, actorOf(request), request.params.appointment_id, request.params.bywhom),
  );
};
