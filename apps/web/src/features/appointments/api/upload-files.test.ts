import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { FakeUploadRequest } from '../../../test/fake-upload-request';
import { uploadAppointmentFiles } from './upload-files';

describe('uploadAppointmentFiles', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    storage.clear();
  });

  it('posts file_data before the files, with the bearer header, and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
    storage.setSession('tok-9', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
    FakeUploadRequest.answer = { status: 201, body: JSON.stringify([{ file_id: 3, file_name: 'a.png' }]) };
    const progress: number[] = [];
    const created = await uploadAppointmentFiles(
      { appointment_id: 12, file_description: 'X-ray' },
      [new File(['x'], 'a.png', { type: 'image/png' })],
      (fraction) => progress.push(fraction),
    );
    const request = FakeUploadRequest.last;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/appointments/file/12');
    expect(request.headers.authorization).toBe('Bearer tok-9');
    expect([...request.body!.keys()]).toEqual(['file_data', 'files[]']);
    expect(JSON.parse(String(request.body!.get('file_data')))).toEqual({
      appointment_id: 12,
      file_description: 'X-ray',
    });
    expect(progress).toEqual([0.25, 1]);
    expect(created).toEqual([{ file_id: 3, file_name: 'a.png' }]);
  });

  it('turns an error answer into an ApiError with the server code (413 files_too_large)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
    FakeUploadRequest.answer = { status: 413, body: JSON.stringify({ error: 'files_too_large', message: 'cap' }) };
    const upload = uploadAppointmentFiles({ appointment_id: 12, file_description: 'X-ray' }, []);
    await expect(upload).rejects.toBeInstanceOf(ApiError);
    await expect(upload).rejects.toMatchObject({ status: 413, code: 'files_too_large' });

    FakeUploadRequest.answer = { status: 413, body: '<html>proxy</html>' };
    await expect(uploadAppointmentFiles({ appointment_id: 12, file_description: 'X-ray' }, [])).rejects.toMatchObject({
      status: 413,
      code: 'files_too_large',
    });
  });

  it('keeps the Retry-After of a 429, so the person is told when to try again', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
    FakeUploadRequest.answer = {
      status: 429,
      body: JSON.stringify({ error: 'too_many_requests', message: 'x' }),
      headers: { 'retry-after': '120' },
    };
    await expect(uploadAppointmentFiles({ appointment_id: 12, file_description: 'X-ray' }, [])).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
      retryAfterSeconds: 120,
    });
  });
});
