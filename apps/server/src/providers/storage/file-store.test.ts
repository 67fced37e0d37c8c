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
import {
  cleanFileName,
  type FileStore,
  fileStoreFor,
  openStoredFile,
  STORED_ORPHAN_GRACE_MS,
  storeUpload,
  sweepFileStore,
  TEMP_FILE_MAX_AGE_MS,
} from './file-store.ts';

const HOUR_MS = 60 * 60 * 1000;

/** A byte source in chunks of `chunkSize`, as the multipart parser hands a file over. */
function chunked(content: Buffer, chunkSize = 16 * 1024) {
  const chunks: Buffer[] = [];
  for (let start = 0; start < content.length; start += chunkSize)
    chunks.push(content.subarray(start, start + chunkSize));
  return Readable.from(chunks);
}

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);

describe('appointment file store', () => {
  let dataDir: string;
  let store: FileStore;
  let database: TestDatabase;
  let appointmentId: number;
  let uploaderId: number;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-files-'));
    store = fileStoreFor({ dataDir });
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
    await rm(dataDir, { recursive: true, force: true });
  });

  const storedNames = async () => (await readdir(store.root).catch(() => [])).filter((name) => name !== 'tmp');
  const tempNames = async () => readdir(store.tempDir).catch(() => []);

  it('stores bytes under a random name in DATA_DIR/files, typed by content, with no temp file left', async () => {
    const content = pdf(100_000);
    const stored = await storeUpload(store, chunked(content), { fileName: '../../etc/lab result.pdf', maxBytes: 1e6 });
    expect(stored).toEqual({
      storageKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      fileName: 'lab result.pdf',
      fileType: 'application/pdf',
      fileSize: 100_000,
    });
    expect(store.root).toBe(path.join(dataDir, 'files'));
    expect(await storedNames()).toEqual([stored.storageKey]);
    expect(await tempNames()).toEqual([]);
    expect((await readFile(path.join(store.root, stored.storageKey))).equals(content)).toBe(true);
    const second = await storeUpload(store, chunked(content), { fileName: 'lab result.pdf', maxBytes: 1e6 });
    expect(second.storageKey).not.toBe(stored.storageKey);
  });

  it('sniffs small files and text whole', async () => {
    const text = await storeUpload(store, chunked(Buffer.from('weight,date\n12.5,2026-01-01\n'), 5), {
      fileName: 'weights.csv',
      maxBytes: 1000,
    });
    expect(text.fileType).toBe('text/csv');
    const binary = await storeUpload(store, chunked(Buffer.concat([Buffer.alloc(600, 0x61), Buffer.from([0])])), {
      fileName: 'notes.txt',
      maxBytes: 1000,
    });
    expect(binary.fileType).toBe('application/octet-stream');
  });

  it('accepts exactly maxBytes and refuses one byte more with 413 files_too_large, keeping nothing', async () => {
    await expect(storeUpload(store, chunked(pdf(50_000)), { maxBytes: 50_000 })).resolves.toMatchObject({
      fileSize: 50_000,
    });
    await rm(store.root, { recursive: true });
    await expect(storeUpload(store, chunked(pdf(50_001)), { maxBytes: 50_000 })).rejects.toMatchObject({
      code: 'files_too_large',
      statusCode: 413,
    });
    expect(await storedNames()).toEqual([]);
    expect(await tempNames()).toEqual([]);
  });

  it('treats a stream the parser cut at its limit as too large', async () => {
    const source = Object.assign(chunked(pdf(1000)), { truncated: true });
    await expect(storeUpload(store, source, { maxBytes: 5000 })).rejects.toMatchObject({ code: 'files_too_large' });
    expect(await tempNames()).toEqual([]);
  });

  it('refuses programs with 415 file_type_not_allowed as soon as their first bytes arrive', async () => {
    const program = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(2000)]);
    await expect(storeUpload(store, chunked(program, 600), { fileName: 'x.pdf', maxBytes: 1e6 })).rejects.toMatchObject(
      { code: 'file_type_not_allowed', statusCode: 415 },
    );
    await expect(
      storeUpload(store, chunked(Buffer.from('#!/usr/bin/env python\nprint(1)\n')), { maxBytes: 1e6 }),
    ).rejects.toMatchObject({ code: 'file_type_not_allowed' });
    expect(await storedNames()).toEqual([]);
    expect(await tempNames()).toEqual([]);
  });

  it('deletes the bytes when the transaction that names them fails', async () => {
    const stored = await storeUpload(store, chunked(pdf(1000)), { maxBytes: 1e6 });
    await expect(
      discardFilesOnFailure(store, [stored], () =>
        database.db.transaction(async (tx) => {
          await insertFileRows(tx, appointmentId, [stored], { uploadedByUserId: uploaderId, now: new Date() });
          throw new Error('the database went away before commit');
        }),
      ),
    ).rejects.toThrow('went away');
    expect(await database.db.select().from(appointmentFiles)).toEqual([]);
    expect(await storedNames()).toEqual([]);
  });

  it('sweeps bytes no row names (a crash before commit) and abandoned temp files, after their grace', async () => {
    const kept = await storeUpload(store, chunked(pdf(1000)), { fileName: 'kept.pdf', maxBytes: 1e6 });
    await database.db.transaction((tx) =>
      insertFileRows(tx, appointmentId, [kept], { uploadedByUserId: uploaderId, now: new Date() }),
    );
    // Stored, then the process died: no row, nobody deleted the bytes.
    const orphan = await storeUpload(store, chunked(pdf(1000)), { maxBytes: 1e6 });
    await mkdir(store.tempDir, { recursive: true });
    const staleTemp = path.join(store.tempDir, 'aaaa.part');
    const freshTemp = path.join(store.tempDir, 'bbbb.part');
    await writeFile(staleTemp, 'half an upload');
    await writeFile(freshTemp, 'an upload in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR_MS);
    await utimes(staleTemp, twoHoursAgo, twoHoursAgo);

    // Right away: the orphan may still be waiting for its commit; nothing named goes, the fresh temp stays.
    expect(await sweepFileStore({ db: database.db, store })).toEqual({ removedStored: 0, removedTemp: 1 });
    expect((await storedNames()).sort()).toEqual([kept.storageKey, orphan.storageKey].sort());

    const later = new Date(Date.now() + STORED_ORPHAN_GRACE_MS + 1000);
    expect(await sweepFileStore({ db: database.db, store }, { now: later })).toEqual({
      removedStored: 1,
      removedTemp: 0,
    });
    expect(await storedNames()).toEqual([kept.storageKey]);
    expect(await tempNames()).toEqual(['bbbb.part']);
    const muchLater = new Date(Date.now() + TEMP_FILE_MAX_AGE_MS + 1000);
    expect(await sweepFileStore({ db: database.db, store }, { now: muchLater })).toEqual({
      removedStored: 0,
      removedTemp: 1,
    });
  });

  it('sweeps an empty or missing store without complaint', async () => {
    expect(await sweepFileStore({ db: database.db, store })).toEqual({ removedStored: 0, removedTemp: 0 });
  });

  it('lists an appointment’s files and deletes one (row, then bytes)', async () => {
    const first = await storeUpload(store, chunked(pdf(1000)), { fileName: 'a.pdf', maxBytes: 1e6 });
    const second = await storeUpload(store, chunked(Buffer.from('hello')), { fileName: 'b.txt', maxBytes: 1e6 });
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
    const chunks: Buffer[] = [];
    for await (const chunk of openStoredFile(store, second.storageKey)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');

    expect(await deleteAppointmentFile({ db: database.db, store }, listed[0]!.id)).toMatchObject({ fileName: 'a.pdf' });
    expect(await deleteAppointmentFile({ db: database.db, store }, listed[0]!.id)).toBeNull();
    expect(await storedNames()).toEqual([second.storageKey]);
    expect((await listAppointmentFiles(database.db, appointmentId)).map((row) => row.fileName)).toEqual(['b.txt']);
  });

  it('never turns anything but a storage key into a path', () => {
    expect(() => openStoredFile(store, '../../etc/passwd')).toThrow('not a storage key');
    expect(cleanFileName('C:\\Users\\ana\\x-ray\u0000.png')).toBe('x-ray.png');
    expect(cleanFileName('   ')).toBe('file');
    expect(cleanFileName('a'.repeat(500))).toHaveLength(200);
  });
});
