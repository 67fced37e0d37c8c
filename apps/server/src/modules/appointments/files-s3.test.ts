import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointmentFiles } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type AppointmentWorld, buildAppointmentWorld, type Headers } from '../../../test/appointment-world.ts';
import { type FilePart, multipartBody } from '../../../test/file-upload.ts';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.ts';
import { sweepFileStore } from '../../providers/storage/file-store-sweep.ts';
import { createS3Client } from '../../providers/storage/s3-file-store.ts';
import { STORED_ORPHAN_GRACE_MS } from '../../providers/storage/file-store.ts';

const NOW = '2026-11-20T10:00:00Z';
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x41)]);

/**
 * The files routes with STORAGE=s3 against a real S3-compatible server (s3rver): the bytes go to the bucket and
 * come back from it, and a bucket that fails at any step leaves no row without its object.
 */
describe('appointment files in an S3 bucket (STORAGE=s3)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  let w: AppointmentWorld;

  beforeEach(async () => {
    s3 = await startS3Server();
    t = await buildTestApp({ clock: fixedClock(NOW), env: s3.env });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
    await s3.stop().catch(() => undefined);
  });

  const objectKeys = async () => {
    const client = createS3Client(s3.settings);
    try {
      const page = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
      return (page.Contents ?? []).map((object) => object.Key!).sort();
    } finally {
      client.destroy();
    }
  };
  const rowKeys = async () =>
    (await t.db.select({ key: appointmentFiles.storageKey }).from(appointmentFiles)).map((row) => row.key).sort();
  const upload = async (headers: Headers, files: FilePart[]) => {
    const body = await multipartBody({ appointment_id: w.confirmed.id, file_description: 'X-ray' }, files);
    return t.app.inject({
      method: 'POST',
      url: `/api/appointments/file/${w.confirmed.id}`,
      headers: { ...headers, 'content-type': body.contentType },
      payload: body.payload,
    });
  };

  it('stores an upload as an object named by its row, downloads it for the vet and deletes both', async () => {
    const content = pdf(300_000);
    const stored = await upload(w.headers.customer, [{ name: 'x-ray.pdf', content }]);
    expect(stored.statusCode).toBe(201);
    expect(t.context.files.kind).toBe('s3');
    const keys = await rowKeys();
    expect(keys).toHaveLength(1);
    expect(await objectKeys()).toEqual(keys);

    const [row] = await t.db.select().from(appointmentFiles);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/download-file.php?file_id=${row!.id}`,
      headers: w.headers.vet,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.rawPayload.equals(content)).toBe(true);
    // Someone else's appointment: nothing of the object leaks.
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/download-file.php?file_id=${row!.id}`,
      headers: w.headers.otherCustomer,
    });
    expect(refused.statusCode).toBe(404);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/appointments/file/${row!.id}`,
      headers: w.headers.customer,
    });
    expect(removed.statusCode).toBe(200);
    expect(await rowKeys()).toEqual([]);
    expect(await objectKeys()).toEqual([]);
  });

  it('refuses an upload over the cap or a program with no row and no object', async () => {
    const program = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(100)]);
    const refused = await upload(w.headers.customer, [
      { name: 'a.pdf', content: pdf(1000) },
      { name: 'b.pdf', content: program },
    ]);
    expect(refused.statusCode).toBe(415);
    expect(await rowKeys()).toEqual([]);
    expect(await objectKeys()).toEqual([]);
  });

  it('answers 503 with no row while the bucket is unreachable, and works again once it is back', async () => {
    const port = new URL(s3.settings.endpoint!).port;
    await s3.stop();
    const refused = await upload(w.headers.customer, [{ name: 'x-ray.pdf', content: pdf(1000) }]);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'service_unavailable' });
    expect(await rowKeys()).toEqual([]);

    s3 = await startS3Server('vetcall-test', Number(port));
    expect((await upload(w.headers.customer, [{ name: 'x-ray.pdf', content: pdf(1000) }])).statusCode).toBe(201);
    expect(await objectKeys()).toEqual(await rowKeys());
  });

  it('deletes the row even when the bucket is down, and the sweep removes the object once it is back', async () => {
    expect((await upload(w.headers.customer, [{ name: 'x-ray.pdf', content: pdf(1000) }])).statusCode).toBe(201);
    const [row] = await t.db.select().from(appointmentFiles);
    const port = new URL(s3.settings.endpoint!).port;
    const directory = s3.directory;
    await s3.stop({ keepData: true });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/appointments/file/${row!.id}`,
      headers: w.headers.customer,
    });
    expect(removed.statusCode).toBe(200);
    expect(await rowKeys()).toEqual([]);

    // Back with what it held: an object no row names, which the sweep deletes after its grace.
    s3 = await startS3Server('vetcall-test', Number(port), directory);
    expect(await objectKeys()).toEqual([row!.storageKey]);
    const later = new Date(Date.now() + STORED_ORPHAN_GRACE_MS + 1000);
    expect((await sweepFileStore({ db: t.db, store: t.context.files }, { now: later })).removedStored).toBe(1);
    expect(await objectKeys()).toEqual([]);
  });
});
