import { afterEach, describe, expect, it, vi } from 'vitest';
import { type JitsiMeetExternalApiConstructor, jitsiScriptUrl, loadJitsiApi } from './load-jitsi-api';

const FakeApi = class {
  addListener() {}
  executeCommand() {}
  dispose() {}
} as unknown as JitsiMeetExternalApiConstructor;

const scripts = () => [...document.head.querySelectorAll('script')];

describe('loadJitsiApi', () => {
  afterEach(() => {
    delete window.JitsiMeetExternalAPI;
    for (const script of scripts()) script.remove();
    vi.useRealTimers();
  });

  it("uses the page's JitsiMeetExternalAPI when it is already there, without a script tag", async () => {
    window.JitsiMeetExternalAPI = FakeApi;
    await expect(loadJitsiApi('meet.clinic.test')).resolves.toBe(FakeApi);
    expect(scripts()).toHaveLength(0);
  });

  it("adds the deployment's external_api.js once and resolves with the API it defines", async () => {
    const first = loadJitsiApi('meet.clinic.test');
    const second = loadJitsiApi('meet.clinic.test');
    expect(second).toBe(first);
    expect(scripts().map((script) => script.src)).toEqual(['https://meet.clinic.test/external_api.js']);

    window.JitsiMeetExternalAPI = FakeApi;
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(FakeApi);
    // Loaded: later calls take it from the page.
    await expect(loadJitsiApi('meet.clinic.test')).resolves.toBe(FakeApi);
    expect(scripts()).toHaveLength(1);
  });

  it('rejects when the script fails to load, and tries again on the next call', async () => {
    const loading = loadJitsiApi('meet.clinic.test');
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(loading).rejects.toThrow(jitsiScriptUrl('meet.clinic.test'));
    expect(scripts()).toHaveLength(0);

    const again = loadJitsiApi('meet.clinic.test');
    expect(again).not.toBe(loading);
    expect(scripts()).toHaveLength(1);
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(again).rejects.toThrow();
  });

  it('rejects when the script loads without defining the API', async () => {
    const loading = loadJitsiApi('meet.clinic.test');
    scripts()[0]!.dispatchEvent(new Event('load'));
    await expect(loading).rejects.toThrow('JitsiMeetExternalAPI');
  });

  it('rejects after 15 seconds without an answer', async () => {
    vi.useFakeTimers();
    const loading = loadJitsiApi('meet.clinic.test');
    const settled = vi.fn();
    loading.catch(settled);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(loading).rejects.toThrow('15000 ms');
    expect(scripts()).toHaveLength(0);
  });
});
