import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../../demo-data/factories.ts';
import { appointmentFiles } from '../../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/database.ts';
import { discardFilesOnFailure } from '../../modules/appointments/attachment-uploads.ts';
import { deleteAppointmentFile, insertFileRows, listAppointmentFiles } from '../../modules/appointments/file-rows.ts';
import { cleanFileName, type FileStore, STORED_ORPHAN_GRACE_MS, TEMP_FILE_MAX_AGE_MS } from './file-store.ts';
import { sweepFileStore } from './file-store-sweep.ts';
import { createLocalFileStore, type LocalFileStore } from './local-file-store.ts';
import { createS3Client, createS3FileStore } from './s3-file-store.ts';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.ts';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';

const HOUR_MS = 60 * 60 * 1000;

/** A byte source in chunks of `chunkSize`, as the multipart parser hands a file over. */
function chunked(content: Buffer, chunkSize = 16 * 1024) {
  const chunks: Buffer[] = [];
  for (let start = 0; start < content.length; start += chunkSize)
    chunks.push(content.subarray(start, start + chunkSize));
  return Readable.from(chunks);
}

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);

interface Backend {
  store: FileStore;
  /** The storage keys the store holds, read behind its back. */
  storedKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

const backends: { name: string; start(): Promise<Backend & { local?: LocalFileStore; s3?: TestS3Server }> }[] = [
  {
    name: 'the local disk',
    async start() {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-files-'));
      const store = createLocalFileStore(path.join(dataDir, 'files'));
      return {
        store,
        local: store,
        storedKeys: async () => (await readdir(store.root).catch(() => [])).filter((name) => name !== 'tmp'),
        stop: () => rm(dataDir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'an S3-compatible bucket (s3rver)',
    async start() {
      const server = await startS3Server();
      const client: S3Client = createS3Client(server.settings);
      return {
        store: createS3FileStore(server.settings, client),
        s3: server,
        storedKeys: async () => {
          const page = await client.send(new ListObjectsV2Command({ Bucket: server.settings.bucket }));
          return (page.Contents ?? []).map((object) => object.Key!);
        },
        stop: async () => {
          client.destroy();
          await server.stop();
        },
      };
    },
  },
];

async function readAll(stream: AsyncIterable<unknown> | null): Promise<Buffer> {
  if (!stream) throw new Error('no bytes under that key');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A source that hands over `good` bytes and then fails, as a client that goes away mid-upload. */
async function* failingAfter(good: Buffer): AsyncGenerator<Uint8Array> {
  yield good;
  throw Object.assign(new Error('the client went away'), { code: 'ECONNRESET' });
}

describe.each(backends)('appointment file store on $name', (backend) => {
  let store: FileStore;
  let current: Awaited<ReturnType<(typeof backends)[number]['start']>>;
  let database: TestDatabase;
  let appointmentId: number;
  let uploaderId: number;

  beforeEach(async () => {
    current = await backend.start();
    store = current.store;
    database = await createTestDatabase();
    const customer = await buildCustomer(database.db);
    const vet = await buildVet(database.db);
    const pet = await buildPet(database.db, customer.customer.id);
    const appointment = await buildAppointment(database.db, {
      customerUserId: customer.user.id,
      petId: pet.id,
      vetUserId: vet.user.id,
    });
    appointmentId = appointment.id;
    uploaderId = customer.user.id;
  });
  afterEach(async () => {
    await database.release();
    await current.stop();
  });

  const storedKeys = () => current.storedKeys();

  it('stores bytes under a random key, typed by content, and gives them back whole', async () => {
    const content = pdf(100_000);
    const stored = await store.put(chunked(content), { fileName: '../../etc/lab result.pdf', maxBytes: 1e6 });
    expect(stored).toEqual({
      storageKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      fileName: 'lab result.pdf',
      fileType: 'application/pdf',
      fileSize: 100_000,
    });
    expect(await storedKeys()).toEqual([stored.storageKey]);
    expect((await readAll(await store.open(stored.storageKey))).equals(content)).toBe(true);
    const second = await store.put(chunked(content), { fileName: 'lab result.pdf', maxBytes: 1e6 });
    expect(second.storageKey).not.toBe(stored.storageKey);
  });

  it('streams a file larger than one S3 part (a multipart upload) and refuses one over its cap whole', async () => {
    const content = Buffer.concat([pdf(1000), Buffer.alloc(12 * 1024 * 1024 - 1000, 0x61)]);
    const stored = await store.put(chunked(content, 64 * 1024), { fileName: 'scan.pdf', maxBytes: 40e6 });
    expect(stored.fileSize).toBe(content.length);
    expect((await readAll(await store.open(stored.storageKey))).equals(content)).toBe(true);

    await expect(store.put(chunked(content, 64 * 1024), { maxBytes: 8e6 })).rejects.toMatchObject({
      code: 'files_too_large',
      statusCode: 413,
    });
    expect(await storedKeys()).toEqual([stored.storageKey]);
  });

  it('sniffs small files and text whole', async () => {
    const text = await store.put(chunked(Buffer.from('weight,date\n12.5,2026-01-01\n'), 5), {
      fileName: 'weights.csv',
      maxBytes: 1000,
    });
    expect(text.fileType).toBe('text/csv');
    const binary = await store.put(chunked(Buffer.concat([Buffer.alloc(600, 0x61), Buffer.from([0])])), {
      fileName: 'notes.txt',
      maxBytes: 1000,
    });
    expect(binary.fileType).toBe('application/octet-stream');
  });

  it('accepts exactly maxBytes and refuses one byte more with 413 files_too_large, keeping nothing', async () => {
    const exact = await store.put(chunked(pdf(50_000)), { maxBytes: 50_000 });
    expect(exact.fileSize).toBe(50_000);
    await store.discard([exact]);
    await expect(store.put(chunked(pdf(50_001)), { maxBytes: 50_000 })).rejects.toMatchObject({
      code: 'files_too_large',
      statusCode: 413,
    });
    expect(await storedKeys()).toEqual([]);
  });

  it('treats a stream the parser cut at its limit as too large', async () => {
    const source = Object.assign(chunked(pdf(1000)), { truncated: true });
    await expect(store.put(source, { maxBytes: 5000 })).rejects.toMatchObject({ code: 'files_too_large' });
    expect(await storedKeys()).toEqual([]);
  });

  it('keeps nothing of an upload whose client goes away in the middle', async () => {
    await expect(store.put(failingAfter(pdf(200_000)), { maxBytes: 1e6 })).rejects.toThrow('the client went away');
    expect(await storedKeys()).toEqual([]);
  });

  it('refuses programs with 415 file_type_not_allowed as soon as their first bytes arrive', async () => {
    const program = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(2000)]);
    await expect(store.put(chunked(program, 600), { fileName: 'x.pdf', maxBytes: 1e6 })).rejects.toMatchObject({
      code: 'file_type_not_allowed',
      statusCode: 415,
    });
    await expect(
      store.put(chunked(Buffer.from('#!/usr/bin/env python\nprint(1)\n')), { maxBytes: 1e6 }),
    ).rejects.toMatchObject({ code: 'file_type_not_allowed' });
    expect(await storedKeys()).toEqual([]);
  });

  it('deletes the bytes when the transaction that names them fails', async () => {
    const stored = await store.put(chunked(pdf(1000)), { maxBytes: 1e6 });
    await expect(
      discardFilesOnFailure(store, [stored], () =>
        database.db.transaction(async (tx) => {
          await insertFileRows(tx, appointmentId, [stored], { uploadedByUserId: uploaderId, now: new Date() });
          throw new Error('the database went away before commit');
        }),
      ),
    ).rejects.toThrow('went away');
    expect(await database.db.select().from(appointmentFiles)).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });

  it('sweeps bytes no row names (the process died before the commit), after their grace', async () => {
    const kept = await store.put(chunked(pdf(1000)), { fileName: 'kept.pdf', maxBytes: 1e6 });
    await database.db.transaction((tx) =>
      insertFileRows(tx, appointmentId, [kept], { uploadedByUserId: uploaderId, now: new Date() }),
    );
    // Stored, then the process died: no row, nobody deleted the bytes.
    const orphan = await store.put(chunked(pdf(1000)), { maxBytes: 1e6 });

    // Right away: the orphan may still be waiting for its commit.
    expect((await sweepFileStore({ db: database.db, store })).removedStored).toBe(0);
    expect((await storedKeys()).sort()).toEqual([kept.storageKey, orphan.storageKey].sort());

    const later = new Date(Date.now() + STORED_ORPHAN_GRACE_MS + 1000);
    expect((await sweepFileStore({ db: database.db, store }, { now: later })).removedStored).toBe(1);
    expect(await storedKeys()).toEqual([kept.storageKey]);
  });

  it('sweeps an empty store without complaint', async () => {
    expect(await sweepFileStore({ db: database.db, store })).toEqual({ removedStored: 0, removedTemp: 0 });
  });

  it('lists an appointment’s files and deletes one (row, then bytes)', async () => {
    const first = await store.put(chunked(pdf(1000)), { fileName: 'a.pdf', maxBytes: 1e6 });
    const second = await store.put(chunked(Buffer.from('hello')), { fileName: 'b.txt', maxBytes: 1e6 });
    await insertFileRows(database.db, appointmentId, [first, second], {
      uploadedByUserId: uploaderId,
      now: new Date('2026-01-12T10:00:00Z'),
      fileDescription: 'Lab results',
    });
    const listed = await listAppointmentFiles(database.db, appointmentId);
    expect(listed.map((row) => [row.fileName, row.fileType, row.fileSize, row.fileDescription])).toEqual([
      ['a.pdf', 'application/pdf', 1000, 'Lab results'],
      ['b.txt', 'text/plain', 5, 'Lab results'],
    ]);
    expect((await readAll(await store.open(second.storageKey))).toString()).toBe('hello');

    expect(await deleteAppointmentFile({ db: database.db, store }, listed[0]!.id)).toMatchObject({ fileName: 'a.pdf' });
    expect(await deleteAppointmentFile({ db: database.db, store }, listed[0]!.id)).toBeNull();
    expect(await storedKeys()).toEqual([second.storageKey]);
    expect((await listAppointmentFiles(database.db, appointmentId)).map((row) => row.fileName)).toEqual(['b.txt']);
  });

  it('answers no bytes for a key it never stored, and never uses anything but a storage key', async () => {
    expect(await store.open('0123456789abcdef0123456789abcdef')).toBeNull();
    await expect(store.open('../../etc/passwd')).rejects.toThrow('not a storage key');
  });
});

describe('the local disk store', () => {
  let dataDir: string;
  let store: LocalFileStore;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-files-'));
    store = createLocalFileStore(path.join(dataDir, 'files'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const tempNames = async () => readdir(store.tempDir).catch(() => []);

  it('writes through a temp file that is gone once the upload is stored or refused', async () => {
    const content = pdf(100_000);
    const stored = await store.put(chunked(content), { maxBytes: 1e6 });
    expect((await readFile(path.join(store.root, stored.storageKey))).equals(content)).toBe(true);
    expect(await tempNames()).toEqual([]);
    await expect(store.put(chunked(pdf(50_001)), { maxBytes: 50_000 })).rejects.toMatchObject({
      code: 'files_too_large',
    });
    await expect(store.put(failingAfter(pdf(1000)), { maxBytes: 1e6 })).rejects.toThrow('went away');
    expect(await tempNames()).toEqual([]);
  });

  it('sweeps temp files of abandoned uploads after an hour, and not those in progress', async () => {
    const database = await createTestDatabase();
    try {
      await mkdir(store.tempDir, { recursive: true });
      const staleTemp = path.join(store.tempDir, 'aaaa.part');
      const freshTemp = path.join(store.tempDir, 'bbbb.part');
      await writeFile(staleTemp, 'half an upload');
      await writeFile(freshTemp, 'an upload in progress');
      const twoHoursAgo = new Date(Date.now() - 2 * HOUR_MS);
      await utimes(staleTemp, twoHoursAgo, twoHoursAgo);
      expect(await sweepFileStore({ db: database.db, store })).toEqual({ removedStored: 0, removedTemp: 1 });
      expect(await tempNames()).toEqual(['bbbb.part']);
      const muchLater = new Date(Date.now() + TEMP_FILE_MAX_AGE_MS + 1000);
      expect(await sweepFileStore({ db: database.db, store }, { now: muchLater })).toEqual({
        removedStored: 0,
        removedTemp: 1,
      });
    } finally {
      await database.release();
    }
  });

  it('cleans file names for display', () => {
    expect(cleanFileName('C:\\Users\\ana\\x-ray\u0000.png')).toBe('x-ray.png');
    expect(cleanFileName('   ')).toBe('file');
    expect(cleanFileName('a'.repeat(500))).toHaveLength(200);
  });
});

describe('the S3 store when the bucket fails', () => {
  let server: TestS3Server;
  beforeEach(async () => {
    server = await startS3Server();
  });
  afterEach(async () => {
    await server.stop().catch(() => undefined);
  });

  it('answers 503 service_unavailable for an upload or a download while the bucket is unreachable', async () => {
    const store = createS3FileStore(server.settings);
    const stored = await store.put(chunked(pdf(1000)), { maxBytes: 1e6 });
    await server.stop();
    await expect(store.put(chunked(pdf(1000)), { maxBytes: 1e6 })).rejects.toMatchObject({
      code: 'service_unavailable',
      statusCode: 503,
    });
    await expect(store.open(stored.storageKey)).rejects.toMatchObject({ code: 'service_unavailable' });
    // A delete that cannot reach the bucket leaves an orphan for the sweep, and does not throw.
    await expect(store.discard([stored])).resolves.toBeUndefined();
  });

  it('refuses a bucket that does not exist, storing nothing', async () => {
    const store = createS3FileStore({ ...server.settings, bucket: 'no-such-bucket' });
    await expect(store.put(chunked(pdf(1000)), { maxBytes: 1e6 })).rejects.toMatchObject({ statusCode: 503 });
  });
});
