import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { uploadAppointmentFiles } from './upload-files';

/** A stand-in for XMLHttpRequest that records the request and answers as told. */
class FakeRequest {
  static last: FakeRequest;
  static answer: { status: number; body: string; headers?: Record<string, string> } = { status: 201, body: '[]' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  private listeners: Record<string, ((event: unknown) => void)[]> = {};
  upload = {
    listeners: [] as ((event: unknown) => void)[],
    addEventListener: (_type: string, listener: (event: unknown) => void) => this.upload.listeners.push(listener),
  };

  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string): string | null {
    return FakeRequest.answer.headers?.[name.toLowerCase()] ?? null;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  send(body: FormData) {
    this.body = body;
    for (const listener of this.upload.listeners) listener({ lengthComputable: true, loaded: 50, total: 200 });
    this.status = FakeRequest.answer.status;
    this.responseText = FakeRequest.answer.body;
    for (const listener of this.listeners.load ?? []) listener({});
  }
}

describe('uploadAppointmentFiles', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    storage.clear();
  });

  it('posts file_data before the files, with the bearer header, and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    storage.setSession('tok-9', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
    FakeRequest.answer = { status: 201, body: JSON.stringify([{ file_id: 3, file_name: 'a.png' }]) };
    const progress: number[] = [];
    const created = await uploadAppointmentFiles(
      { appointment_id: 12, file_description: 'X-ray' },
      [new File(['x'], 'a.png', { type: 'image/png' })],
      (fraction) => progress.push(fraction),
    );
    const request = FakeRequest.last;
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
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    FakeRequest.answer = { status: 413, body: JSON.stringify({ error: 'files_too_large', message: 'cap' }) };
    const upload = uploadAppointmentFiles({ appointment_id: 12, file_description: 'X-ray' }, []);
    await expect(upload).rejects.toBeInstanceOf(ApiError);
    await expect(upload).rejects.toMatchObject({ status: 413, code: 'files_too_large' });

    FakeRequest.answer = { status: 413, body: '<html>proxy</html>' };
    await expect(uploadAppointmentFiles({ appointment_id: 12, file_description: 'X-ray' }, [])).rejects.toMatchObject({
      status: 413,
      code: 'files_too_large',
    });
  });

  it('keeps the Retry-After of a 429, so the person is told when to try again', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    FakeRequest.answer = {
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
