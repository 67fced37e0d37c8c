import { readdir } from 'node:fs/promises';
import net from 'node:net';
import { Readable } from 'node:stream';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CUSTOMER_UPLOAD_BYTES, MAX_STAFF_UPLOAD_BYTES } from '@vetcall/shared/constants';
import { fixedClock } from '../../clock.ts';
import { appointmentFiles, appointments, auditEvents } from '../../db/schema.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  type Role,
} from '../../../test/appointment-world.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import type { Actor } from '../auth/auth.service.ts';
import { discardFilesOnFailure } from './attachment-uploads.ts';
import { addFiles, MAX_FILES_PER_APPOINTMENT } from './files.service.ts';
import type { LocalFileStore } from '../../providers/storage/local-file-store.ts';
import { sweepFileStore } from '../../providers/storage/file-store-sweep.ts';
import { type FilePart, multipartBody } from '../../../test/file-upload.ts';

const NOW = '2026-11-20T10:00:00Z';
const DAY_MS = 24 * 60 * 60 * 1000;

const FILE_KEYS = [
  'appointment_id',
  'download_url',
  'file_description',
  'file_id',
  'file_name',
  'file_size',
  'file_type',
  'upload_time',
  'uploaded_by',
];

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);
/** A real 1×1 PNG: the sniffing (file-type) reads its chunks, not only the signature. */
const png = () =>
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWNoaGgAAAMEAYEezv+mAAAAAElFTkSuQmCC',
    'base64',
  );
const elf = () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(100)]);

interface FileAnswer {
  file_id: number;
  file_name: string;
  file_size: number;
  file_type: string;
  uploaded_by: string | null;
  download_url: string;
}

function useWorld(env: Record<string, string> = {}) {
  const state = {} as { t: TestApp; w: AppointmentWorld };
  beforeEach(async () => {
    state.t = await buildTestApp({ clock: fixedClock(NOW), env });
    state.w = await buildAppointmentWorld(state.t);
  });
  afterEach(async () => {
    await state.t.close();
  });
  return state;
}

/** Calls of the files routes, and what the store holds on disk. */
function helpers(state: { t: TestApp; w: AppointmentWorld }) {
  const store = () => state.t.context.files as LocalFileStore;
  const upload = async (headers: Headers, appointmentId: number, files: FilePart[], fileData?: unknown) => {
    const body = await multipartBody(
      fileData === undefined ? { appointment_id: appointmentId, file_description: 'Lab results' } : fileData,
      files,
    );
    return state.t.app.inject({
      method: 'POST',
      url: `/api/appointments/file/${appointmentId}`,
      headers: { ...headers, 'content-type': body.contentType },
      payload: body.payload,
    });
  };
  const inject = (method: 'GET' | 'DELETE' | 'PUT', url: string, headers: Headers) =>
    state.t.app.inject({ method, url, headers });
  const filesOnDisk = async () => ({
    stored: (await readdir(store().root).catch(() => [])).filter((name) => name !== 'tmp'),
    temp: await readdir(store().tempDir).catch(() => []),
  });
  const rows = () => state.t.db.select().from(appointmentFiles);
  const nothingKept = async () => {
    expect(await rows()).toEqual([]);
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
  };
  return { store, upload, inject, filesOnDisk, rows, nothingKept };
}

describe('POST /api/appointments/file/{appointment_id} and GET /api/appointments/files/{appointment_id}', () => {
  const state = useWorld();
  const { upload, inject, filesOnDisk, rows, nothingKept } = helpers(state);

  it('stores the customer’s files with their description and lists them to the customer, the vet and managers', async () => {
    const { w } = state;
    const response = await upload(w.headers.customer, w.confirmed.id, [
      { name: 'blood test.pdf', content: pdf(5000) },
      { name: 'x-ray.pdf', content: png() },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<(FileAnswer & Record<string, unknown>)[]>();
    expect(created).toHaveLength(2);
    for (const file of created) expect(Object.keys(file).sort()).toEqual(FILE_KEYS);
    expect(created[0]).toEqual({
      file_id: expect.any(Number),
      appointment_id: w.confirmed.id,
      file_name: 'blood test.pdf',
      file_description: 'Lab results',
      file_type: 'application/pdf',
      file_size: 5000,
      upload_time: '2026-11-20T10:00:00.000Z',
      uploaded_by: 'customer',
      download_url: `/api/appointments/download-file.php?file_id=${created[0]!.file_id}`,
    });
    // Typed by its bytes, not its name.
    expect(created[1]!.file_type).toBe('image/png');
    expect((await filesOnDisk()).stored).toHaveLength(2);

    for (const role of ['customer', 'vet', 'manager'] as const) {
      const list = await inject('GET', `/api/appointments/files/${w.confirmed.id}`, w.headers[role]);
      expect([role, list.statusCode]).toEqual([role, 200]);
      expect(list.json()).toEqual(created);
    }
    expect(await rows()).toHaveLength(2);
  });

  it('marks the vet’s files as the vet’s', async () => {
    const { w } = state;
    const response = await upload(w.headers.vet, w.confirmed.id, [{ name: 'report.pdf', content: pdf(100) }], {
      appointment_id: w.confirmed.id,
      file_description: 'Consultation report',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({ uploaded_by: 'vet', file_description: 'Consultation report' });
  });

  it.each([
    ['manager', 403],
    ['otherCustomer', 404],
    ['otherVet', 404],
    ['anonymous', 401],
  ] as [Role, number][])('refuses %s with %i, storing nothing', async (role, status) => {
    const { w } = state;
    const response = await upload(w.headers[role], w.confirmed.id, [{ name: 'a.pdf', content: pdf(3_000_000) }]);
    expect(response.statusCode).toBe(status);
    await nothingKept();
    const list = await inject('GET', `/api/appointments/files/${w.confirmed.id}`, w.headers[role]);
    expect(list.statusCode).toBe(role === 'manager' ? 200 : status);
  });

  it('answers 404 for an appointment that does not exist', async () => {
    const { w } = state;
    expect((await upload(w.headers.customer, 99_999, [{ name: 'a.pdf', content: pdf(10) }])).statusCode).toBe(404);
    expect((await inject('GET', '/api/appointments/files/99999', w.headers.manager)).statusCode).toBe(404);
  });

  it.each([
    ['missing', undefined, { file_data: 'required' }],
    ['not JSON', '{oops', { file_data: 'invalid_format' }],
    ['another appointment', 'other', { appointment_id: 'invalid_value' }],
    ['a 1-character description', { file_description: 'x' }, { file_description: 'too_short' }],
    ['an 81-character description', { file_description: 'x'.repeat(81) }, { file_description: 'too_long' }],
    ['a blank description', { file_description: '   ' }, { file_description: 'required' }],
  ] as const)('refuses file_data %s with 400, keeping nothing', async (_label, fileData, fields) => {
    const { w, t } = state;
    const data =
      fileData === 'other'
        ? { appointment_id: w.requested.id, file_description: 'Lab results' }
        : typeof fileData === 'object'
          ? { appointment_id: w.confirmed.id, ...fileData }
          : fileData;
    const body = await multipartBody(data, [{ name: 'a.pdf', content: pdf(5000) }]);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/appointments/file/${w.confirmed.id}`,
      headers: { ...w.headers.customer, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect([response.statusCode, response.json().fields]).toEqual([400, fields]);
    await nothingKept();
  });

  it('accepts descriptions of exactly 2 and 80 characters', async () => {
    const { w } = state;
    for (const description of ['ab', 'y'.repeat(80)]) {
      const response = await upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(10) }], {
        appointment_id: w.confirmed.id,
        file_description: description,
      });
      expect(response.statusCode).toBe(201);
    }
  });

  it('refuses a form without files (400), a JSON body (415) and programs (415), keeping nothing', async () => {
    const { w, t } = state;
    const empty = await upload(w.headers.customer, w.confirmed.id, []);
    expect([empty.statusCode, empty.json().fields]).toEqual([400, { files: 'required' }]);
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/appointments/file/${w.confirmed.id}`,
      headers: w.headers.customer,
      payload: { appointment_id: w.confirmed.id, file_description: 'Lab results' },
    });
    expect([json.statusCode, json.json().error]).toEqual([415, 'unsupported_media_type']);
    const program = await upload(w.headers.customer, w.confirmed.id, [
      { name: 'fine.pdf', content: pdf(1000) },
      { name: 'photo.png', content: elf() },
    ]);
    expect([program.statusCode, program.json().error]).toEqual([415, 'file_type_not_allowed']);
    await nothingKept();
  });

  it.each(['TK_PendingPayment', 'TK_PaymentFailed', 'TK_Canceled'] as const)(
    'refuses files for an appointment in %s with 409 error_creating_new_file',
    async (status) => {
      const { w, t } = state;
      await t.db.update(appointments).set({ status }).where(eq(appointments.id, w.confirmed.id));
      const response = await upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(10) }]);
      expect([response.statusCode, response.json().error]).toEqual([409, 'error_creating_new_file']);
      await nothingKept();
    },
  );

  it('leaves no orphan when the database fails after the bytes are stored and before the commit', async () => {
    const { w, t } = state;
    await t.db.execute(sql`
      create function fail_file_insert() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$`);
    await t.db.execute(sql`
      create trigger fail_file_insert before insert on appointment_files
      for each row execute function fail_file_insert()`);
    try {
      const response = await upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(50_000) }]);
      expect([response.statusCode, response.json().error]).toEqual([500, 'internal_error']);
      await nothingKept();
    } finally {
      await t.db.execute(sql`drop trigger fail_file_insert on appointment_files`);
      await t.db.execute(sql`drop function fail_file_insert()`);
    }
  });
});

describe('upload caps per appointment total (docs/product-rules.md#limits)', () => {
  const state = useWorld();
  const { upload, rows, filesOnDisk, nothingKept } = helpers(state);
  const total = async () => (await rows()).reduce((sum, row) => sum + row.fileSize, 0);

  it('lets a customer fill the appointment to exactly 20 MB, across uploads, and refuses one byte more', async () => {
    const { w } = state;
    const first = await upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(8_000_000) }]);
    expect(first.statusCode).toBe(201);
    const rest = await upload(w.headers.customer, w.confirmed.id, [
      { name: 'b.pdf', content: pdf(MAX_CUSTOMER_UPLOAD_BYTES - 8_000_000) },
    ]);
    expect(rest.statusCode).toBe(201);
    expect(await total()).toBe(MAX_CUSTOMER_UPLOAD_BYTES);
    const over = await upload(w.headers.customer, w.confirmed.id, [{ name: 'c.pdf', content: pdf(1) }]);
    expect([over.statusCode, over.json().error]).toEqual([413, 'files_too_large']);
    expect(over.json().message).toContain(String(MAX_CUSTOMER_UPLOAD_BYTES));
    expect(await total()).toBe(MAX_CUSTOMER_UPLOAD_BYTES);
    expect((await filesOnDisk()).stored).toHaveLength(2);
    expect((await filesOnDisk()).temp).toEqual([]);
  });

  it('refuses a customer upload one byte over the cap in one request, keeping nothing', async () => {
    const { w } = state;
    const response = await upload(w.headers.customer, w.confirmed.id, [
      { name: 'a.pdf', content: pdf(MAX_CUSTOMER_UPLOAD_BYTES / 2) },
      { name: 'b.pdf', content: pdf(MAX_CUSTOMER_UPLOAD_BYTES / 2 + 1) },
    ]);
    expect([response.statusCode, response.json().error]).toEqual([413, 'files_too_large']);
    await nothingKept();
  });

  it('lets the vet bring the total to exactly 40 MB, counting the customer’s files, and not one byte more', async () => {
    const { w } = state;
    const customer = await upload(w.headers.customer, w.confirmed.id, [
      { name: 'a.pdf', content: pdf(MAX_CUSTOMER_UPLOAD_BYTES) },
    ]);
    expect(customer.statusCode).toBe(201);
    const overByOne = await upload(w.headers.vet, w.confirmed.id, [
      { name: 'b.pdf', content: pdf(MAX_STAFF_UPLOAD_BYTES - MAX_CUSTOMER_UPLOAD_BYTES + 1) },
    ]);
    expect([overByOne.statusCode, overByOne.json().error]).toEqual([413, 'files_too_large']);
    expect(overByOne.json().message).toContain(String(MAX_STAFF_UPLOAD_BYTES));
    const atCap = await upload(w.headers.vet, w.confirmed.id, [
      { name: 'b.pdf', content: pdf(MAX_STAFF_UPLOAD_BYTES - MAX_CUSTOMER_UPLOAD_BYTES) },
    ]);
    expect(atCap.statusCode).toBe(201);
    expect(await total()).toBe(MAX_STAFF_UPLOAD_BYTES);
    // Past 20 MB the customer can add nothing.
    const customerMore = await upload(w.headers.customer, w.confirmed.id, [{ name: 'c.pdf', content: pdf(10) }]);
    expect(customerMore.statusCode).toBe(413);
    expect((await filesOnDisk()).stored).toHaveLength(2);
  });

  it('does not let two parallel uploads that each fit pass the cap together', async () => {
    const { w } = state;
    const size = 12_000_000;
    const [a, b] = await Promise.all([
      upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(size) }]),
      upload(w.headers.customer, w.confirmed.id, [{ name: 'b.pdf', content: pdf(size) }]),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 413]);
    expect(await total()).toBe(size);
    expect(await filesOnDisk()).toEqual({ stored: [expect.any(String)], temp: [] });
  });

  it('re-checks the total with the appointment locked: of two stored uploads only one that fits is kept', async () => {
    const { w, t } = state;
    const store = t.context.files;
    const actor: Actor = {
      userId: w.ana.user.id,
      type: 'customer',
      name: 'Ana Silva',
      email: 'ana@example.test',
      locale: 'en',
      sessionId: 0,
    };
    const stored = async () => store.put(Readable.from([pdf(15_000_000)]), { fileName: 'a.pdf', maxBytes: 20_000_000 });
    const [first, second] = [await stored(), await stored()];
    const deps = { db: t.db, clock: t.context.clock, store };
    const data = { appointment_id: w.confirmed.id, file_description: 'Lab results' };
    const results = await Promise.allSettled([
      // As the route runs them: the bytes of a refused upload are deleted.
      discardFilesOnFailure(store, [first], () => addFiles(deps, actor, w.confirmed.id, data, [first])),
      discardFilesOnFailure(store, [second], () => addFiles(deps, actor, w.confirmed.id, data, [second])),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'files_too_large', statusCode: 413 });
    expect(await total()).toBe(15_000_000);
    expect((await filesOnDisk()).stored).toHaveLength(1);
  });

  it(`holds at most ${MAX_FILES_PER_APPOINTMENT} files`, async () => {
    const { w, t } = state;
    await t.db.execute(sql`
      insert into appointment_files (appointment_id, file_name, file_type, file_size, storage_key)
      select ${w.confirmed.id}::integer, 'f' || g, 'text/plain', 1, md5(g::text)
      from generate_series(1, ${MAX_FILES_PER_APPOINTMENT - 1}::integer) g`);
    const last = await upload(w.headers.customer, w.confirmed.id, [{ name: 'a.pdf', content: pdf(10) }]);
    expect(last.statusCode).toBe(201);
    const tooMany = await upload(w.headers.customer, w.confirmed.id, [{ name: 'b.pdf', content: pdf(10) }]);
    expect([tooMany.statusCode, tooMany.json().error]).toEqual([413, 'payload_too_large']);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/files/${w.confirmed.id}`,
      headers: w.headers.vet,
    });
    expect(list.json()).toHaveLength(MAX_FILES_PER_APPOINTMENT);
  });
});

describe('DELETE /api/appointments/file/{file_id} and GET /api/appointments/download-file.php', () => {
  const state = useWorld();
  const { upload, inject, filesOnDisk, rows } = helpers(state);

  /** A file of Ana's (customer) and one of Rui's (vet) on the confirmed appointment, one of Bruno's on his. */
  async function threeFiles() {
    const { w } = state;
    const add = async (headers: Headers, appointmentId: number, name: string, content: Buffer) =>
      (await upload(headers, appointmentId, [{ name, content }])).json<FileAnswer[]>()[0]!;
    return {
      customers: await add(w.headers.customer, w.confirmed.id, 'raio-x ção.png', png()),
      vets: await add(w.headers.vet, w.confirmed.id, 'report.pdf', pdf(2000)),
      brunos: await add(w.headers.otherCustomer, w.requested.id, 'tareco.pdf', pdf(300)),
    };
  }

  it('downloads as an attachment under the original name, sniffed type, nosniff, never cached', async () => {
    const { w } = state;
    const files = await threeFiles();
    for (const role of ['customer', 'vet', 'manager'] as const) {
      const response = await inject('GET', files.customers.download_url, w.headers[role]);
      expect([role, response.statusCode]).toEqual([role, 200]);
      expect(response.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(png().length),
        'content-disposition': `attachment; filename="raio-x cao.png"; filename*=UTF-8''raio-x%20%C3%A7%C3%A3o.png`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      });
      expect(response.rawPayload.equals(png())).toBe(true);
    }
  });

  it.each([
    ['otherCustomer', 404],
    ['otherVet', 404],
    ['anonymous', 401],
  ] as [Role, number][])(
    'refuses %s every file of someone else’s appointment, and every guessed id, with %i',
    async (role, status) => {
      const { w } = state;
      const files = await threeFiles();
      for (const file of [files.customers, files.vets]) {
        expect((await inject('GET', file.download_url, w.headers[role])).statusCode).toBe(status);
        expect((await inject('DELETE', `/api/appointments/file/${file.file_id}`, w.headers[role])).statusCode).toBe(
          status,
        );
      }
      for (const id of [files.brunos.file_id + 1, files.brunos.file_id + 100, 2_147_483_647]) {
        const download = await inject('GET', `/api/appointments/download-file.php?file_id=${id}`, w.headers[role]);
        expect(download.statusCode).toBe(status);
      }
      expect(await rows()).toHaveLength(3);
    },
  );

  it('answers each party 404 for files of appointments that are not theirs, going through every id', async () => {
    const { w } = state;
    const files = await threeFiles();
    const visible: Record<'customer' | 'vet' | 'otherCustomer' | 'otherVet', number[]> = {
      customer: [files.customers.file_id, files.vets.file_id],
      vet: [files.customers.file_id, files.vets.file_id],
      otherCustomer: [files.brunos.file_id],
      otherVet: [files.brunos.file_id],
    };
    for (const [role, ids] of Object.entries(visible) as [keyof typeof visible, number[]][]) {
      for (let id = 1; id <= files.brunos.file_id + 1; id++) {
        const response = await inject('GET', `/api/appointments/download-file.php?file_id=${id}`, w.headers[role]);
        expect([role, id, response.statusCode]).toEqual([role, id, ids.includes(id) ? 200 : 404]);
      }
    }
  });

  it('records uploads, downloads and deletions in the audit log with who and which file, never where it is kept', async () => {
    const { t, w } = state;
    const files = await threeFiles();
    expect((await inject('GET', files.customers.download_url, w.headers.manager)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/appointments/file/${files.vets.file_id}`, w.headers.vet)).statusCode).toBe(
      200,
    );
    // Refused attempts change nothing and record nothing.
    expect((await inject('GET', files.brunos.download_url, w.headers.customer)).statusCode).toBe(404);

    const events = await t.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, 'file.%'))
      .orderBy(auditEvents.id);
    expect(events.map((event) => [event.action, event.actorUserId, event.subjectId])).toEqual([
      ['file.uploaded', w.ana.user.id, files.customers.file_id],
      ['file.uploaded', w.rui.user.id, files.vets.file_id],
      ['file.uploaded', w.bruno.user.id, files.brunos.file_id],
      ['file.downloaded', w.manager.user.id, files.customers.file_id],
      ['file.deleted', w.rui.user.id, files.vets.file_id],
    ]);
    expect(events[3]!.details).toEqual({
      appointment_id: w.confirmed.id,
      file_name: 'raio-x ção.png',
      file_type: 'image/png',
      file_size: png().length,
    });
    const storageKeys = (await t.db.select({ key: appointmentFiles.storageKey }).from(appointmentFiles)).map(
      (row) => row.key,
    );
    for (const key of storageKeys) expect(JSON.stringify(events)).not.toContain(key);
  });

  it('answers 400 for a malformed file id', async () => {
    const { w } = state;
    for (const query of ['', '?file_id=abc', '?file_id=0', '?file_id=1e3']) {
      const response = await inject('GET', `/api/appointments/download-file.php${query}`, w.headers.manager);
      expect([query, response.statusCode]).toEqual([query, 400]);
    }
  });

  it('lets a customer delete what they added, not the vet’s file; the vet deletes any; managers none', async () => {
    const { w } = state;
    const files = await threeFiles();
    const del = (id: number, role: Role) => inject('DELETE', `/api/appointments/file/${id}`, w.headers[role]);

    expect((await del(files.vets.file_id, 'customer')).statusCode).toBe(403);
    expect((await del(files.customers.file_id, 'manager')).statusCode).toBe(403);
    expect(await rows()).toHaveLength(3);

    const own = await del(files.customers.file_id, 'customer');
    expect([own.statusCode, own.json()]).toEqual([200, { file_id: files.customers.file_id }]);
    expect((await filesOnDisk()).stored).toHaveLength(2);
    expect((await inject('GET', files.customers.download_url, w.headers.customer)).statusCode).toBe(404);
    expect((await del(files.customers.file_id, 'customer')).statusCode).toBe(404);

    // The vet removes a file the customer added.
    const again = (await upload(w.headers.customer, w.confirmed.id, [{ name: 'b.pdf', content: pdf(50) }])).json<
      FileAnswer[]
    >()[0]!;
    expect((await del(again.file_id, 'vet')).statusCode).toBe(200);
    expect((await del(files.vets.file_id, 'vet')).statusCode).toBe(200);
    expect((await rows()).map((row) => row.id)).toEqual([files.brunos.file_id]);
    expect((await filesOnDisk()).stored).toHaveLength(1);
  });

  it('refuses deletes once the appointment is frozen (409 error_deleting_file)', async () => {
    const { w, t } = state;
    const files = await threeFiles();
    await t.db.update(appointments).set({ status: 'TK_Canceled' }).where(eq(appointments.id, w.confirmed.id));
    const response = await inject('DELETE', `/api/appointments/file/${files.customers.file_id}`, w.headers.customer);
    expect([response.statusCode, response.json().error]).toEqual([409, 'error_deleting_file']);
    // Still readable.
    expect((await inject('GET', files.customers.download_url, w.headers.customer)).statusCode).toBe(200);
  });
});

describe('PUT /api/appointments/newfileadded/{appointment_id}/{bywhom}/{language}', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp.close();
  });
  const state = {} as { t: TestApp; w: AppointmentWorld };
  beforeEach(async () => {
    smtp.received.length = 0;
    state.t = await buildTestApp({ clock: fixedClock(NOW), env: { SMTP_URL: smtp.url } });
    state.w = await buildAppointmentWorld(state.t);
  });
  afterEach(async () => {
    await state.t.close();
  });

  const notify = (appointmentId: number, byWhom: string, language: string, headers: Headers, payload?: object) =>
    state.t.app.inject({
      method: 'PUT',
      url: `/api/appointments/newfileadded/${appointmentId}/${byWhom}/${language}`,
      headers,
      ...(payload ? { payload } : {}),
    });

  it('tells the vet, in the vet’s language and zone, when the customer added a file', async () => {
    const { w } = state;
    const response = await notify(w.confirmed.id, 'customer', 'en', w.headers.customer, { description: 'ignored' });
    expect([response.statusCode, response.json()]).toEqual([200, { success: true }]);
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([['rui@clinic.test']]);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe('Novo ficheiro na consulta de Bobi');
    expect(mail.text).toContain('Ana Silva adicionou um ficheiro à teleconsulta de Bobi.');
    expect(mail.text).toContain('11:00 (Europe/Lisbon)');
    expect(mail.text).toContain('http://vetcall.test/vet?lang=pt');
    // No file names, descriptions or observations in the mail.
    expect(mail.text).not.toContain('Secret');
  });

  it('tells the customer, in the customer’s language, when the vet added a file', async () => {
    const { w } = state;
    expect((await notify(w.confirmed.id, 'vet', 'pt', w.headers.vet)).statusCode).toBe(200);
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([['ana@example.test']]);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe('New file in the appointment of Bobi');
    expect(mail.text).toContain('Rui Costa added a file to the video consultation of Bobi.');
    expect(mail.text).toContain('http://vetcall.test/customerdata?lang=en');
  });

  it('tells both parties when a manager added one', async () => {
    const { w } = state;
    expect((await notify(w.requested.id, 'manager', 'en', w.headers.manager)).statusCode).toBe(200);
    expect(smtp.received.flatMap((mail) => mail.envelopeTo).sort()).toEqual(['bruno@example.test', 'sara@clinic.test']);
    const sara = smtp.received.find((mail) => mail.envelopeTo.includes('sara@clinic.test'))!;
    expect(sara.subject).toBe('Novo arquivo na consulta de Tareco');
    expect(sara.text).toContain('(America/Sao_Paulo)');
  });

  it.each([
    ['customer', 'vet', 403],
    ['vet', 'customer', 403],
    ['manager', 'customer', 403],
    ['customer', 'manager', 403],
    ['otherCustomer', 'customer', 404],
    ['otherVet', 'vet', 404],
    ['anonymous', 'customer', 401],
  ] as [Role, string, number][])(
    'refuses %s notifying as %s with %i, sending nothing',
    async (role, byWhom, status) => {
      const { w } = state;
      expect((await notify(w.confirmed.id, byWhom, 'en', w.headers[role])).statusCode).toBe(status);
      expect(smtp.received).toEqual([]);
    },
  );

  it('validates the path', async () => {
    const { w } = state;
    const badWho = await notify(w.confirmed.id, 'nurse', 'en', w.headers.customer);
    expect([badWho.statusCode, badWho.json().fields]).toEqual([400, { bywhom: 'invalid_value' }]);
    const badLanguage = await notify(w.confirmed.id, 'customer', 'fr', w.headers.customer);
    expect([badLanguage.statusCode, badLanguage.json().fields]).toEqual([400, { language: 'invalid_value' }]);
    expect((await notify(99_999, 'customer', 'en', w.headers.customer)).statusCode).toBe(404);
  });

  it('sends at most 10 notices an hour per sender and appointment', async () => {
    const { w } = state;
    for (let i = 0; i < 10; i++)
      expect((await notify(w.confirmed.id, 'customer', 'en', w.headers.customer)).statusCode).toBe(200);
    const refused = await notify(w.confirmed.id, 'customer', 'en', w.headers.customer);
    expect([refused.statusCode, refused.json().error]).toEqual([429, 'too_many_requests']);
    expect(smtp.received).toHaveLength(10);
    // The vet's own budget is separate.
    expect((await notify(w.confirmed.id, 'vet', 'en', w.headers.vet)).statusCode).toBe(200);
  });
});

describe('PUT newfileadded when mail cannot be sent', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    // A port nothing listens on.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    t = await buildTestApp({ clock: fixedClock(NOW), env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('accepts the notice and keeps it queued for a retry while the mail server is away', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/appointments/newfileadded/${w.confirmed.id}/customer/en`,
      headers: w.headers.customer,
    });
    expect([response.statusCode, response.json()]).toEqual([200, { success: true }]);
    await t.context.jobs.drain();
    const queued = await t.db.select().from(jobs);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'mail', status: 'pending', attempts: 1 });
    expect(queued[0]!.runAt.getTime()).toBeGreaterThan(new Date(NOW).getTime());
  });
});

describe('crash safety: an upload killed mid-stream', () => {
  const state = useWorld();
  const { store, filesOnDisk, rows } = helpers(state);

  async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('over real HTTP, a socket cut half-way through the second file leaves no row and no bytes', async () => {
    const { t, w } = state;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const body = await multipartBody({ appointment_id: w.confirmed.id, file_description: 'Lab results' }, [
      { name: 'complete.pdf', content: pdf(200_000) },
      { name: 'cut.pdf', content: pdf(8_000_000) },
    ]);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/appointments/file/${w.confirmed.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: ${w.headers.customer.authorization}\r\nContent-Type: ${body.contentType}\r\n` +
        `Content-Length: ${body.payload.length}\r\n\r\n`,
    );
    socket.write(body.payload.subarray(0, Math.floor(body.payload.length / 2)));
    // The first file is stored and the second is being written when the client dies.
    await until(async () => {
      const disk = await filesOnDisk();
      return disk.stored.length === 1 && disk.temp.length === 1;
    }, 'the upload to be half-way');
    socket.destroy();

    await until(async () => {
      const disk = await filesOnDisk();
      return disk.stored.length === 0 && disk.temp.length === 0;
    }, 'the server to clean up');
    expect(await rows()).toEqual([]);
    // The next start's sweep finds nothing left to remove.
    expect(await sweepFileStore({ db: t.db, store: store() }, { now: new Date(Date.now() + DAY_MS) })).toEqual({
      removedStored: 0,
      removedTemp: 0,
    });
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });

    // The server still takes a whole upload afterwards.
    const form = new FormData();
    form.append('file_data', JSON.stringify({ appointment_id: w.confirmed.id, file_description: 'Lab results' }));
    form.append('files[]', new Blob([new Uint8Array(pdf(1000))]), 'ok.pdf');
    const ok = await fetch(`${address}/api/appointments/file/${w.confirmed.id}`, {
      method: 'POST',
      headers: w.headers.customer,
      body: form,
    });
    expect(ok.status).toBe(201);
  });

  it('over real HTTP, an upload over the cap is answered 413 at once and its connection closed', async () => {
    const { t, w } = state;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const form = new FormData();
    form.append('file_data', JSON.stringify({ appointment_id: w.confirmed.id, file_description: 'Lab results' }));
    form.append('files[]', new Blob([new Uint8Array(pdf(MAX_CUSTOMER_UPLOAD_BYTES + 5_000_000))]), 'big.pdf');
    const over = await fetch(`${address}/api/appointments/file/${w.confirmed.id}`, {
      method: 'POST',
      headers: w.headers.customer,
      body: form,
    });
    expect([over.status, over.headers.get('connection')]).toEqual([413, 'close']);
    expect(((await over.json()) as { error: string }).error).toBe('files_too_large');
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
    expect(await rows()).toEqual([]);
  });
});
