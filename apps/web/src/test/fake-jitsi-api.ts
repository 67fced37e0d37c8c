import { vi } from 'vitest';
import type { JitsiMeetExternalApiOptions } from '../features/video/jitsi/load-jitsi-api';

/** Stands in for Jitsi's IFrame API: records what the room asked for, and lets a test fire Jitsi's events. */
export class FakeJitsiApi {
  static instances: FakeJitsiApi[] = [];
  listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  executeCommand = vi.fn();
  dispose = vi.fn();
  constructor(
    public domain: string,
    public options: JitsiMeetExternalApiOptions,
  ) {
    FakeJitsiApi.instances.push(this);
  }
  addListener(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  emit(event: string) {
    for (const listener of this.listeners.get(event) ?? []) listener({});
  }
}
