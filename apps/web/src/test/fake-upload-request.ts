/**
 * A stand-in for XMLHttpRequest, the network boundary of file uploads (features/appointments/api/upload-files.ts):
 * it records the request, reports a quarter of it sent, then answers as told. Installed with
 * `vi.stubGlobal('XMLHttpRequest', FakeUploadRequest)`.
 */
export class FakeUploadRequest {
  static last: FakeUploadRequest;
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
    FakeUploadRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string): string | null {
    return FakeUploadRequest.answer.headers?.[name.toLowerCase()] ?? null;
  }
  addEventListener(type: string, listener: (event: unknown) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  send(body: FormData) {
    this.body = body;
    for (const listener of this.upload.listeners) listener({ lengthComputable: true, loaded: 50, total: 200 });
    this.status = FakeUploadRequest.answer.status;
    this.responseText = FakeUploadRequest.answer.body;
    for (const listener of this.listeners.load ?? []) listener({});
  }
}
