/**
 * The Jitsi Meet IFrame API (https://<domain>/external_api.js), loaded once from the deployment that hosts
 * the room: its script defines `window.JitsiMeetExternalAPI`. Only the parts we use are typed.
 */

export interface JitsiMeetExternalApiOptions {
  roomName: string;
  parentNode: HTMLElement;
  width?: string | number;
  height?: string | number;
  lang?: string;
  jwt?: string;
  userInfo?: { displayName?: string; email?: string };
  configOverwrite?: Record<string, unknown>;
  interfaceConfigOverwrite?: Record<string, unknown>;
}

export interface JitsiMeetExternalApi {
  addListener(event: string, listener: (...args: unknown[]) => void): void;
  executeCommand(command: string, ...args: unknown[]): void;
  /** Removes the iframe and ends this participant's call. */
  dispose(): void;
}

export type JitsiMeetExternalApiConstructor = new (
  domain: string,
  options: JitsiMeetExternalApiOptions,
) => JitsiMeetExternalApi;

declare global {
  interface Window {
    JitsiMeetExternalAPI?: JitsiMeetExternalApiConstructor;
  }
}

/** How long the script may take before the room shows that it could not be loaded. */
export const JITSI_SCRIPT_TIMEOUT_MS = 15_000;

let loading: { domain: string; api: Promise<JitsiMeetExternalApiConstructor> } | undefined;

export const jitsiScriptUrl = (domain: string) => `https://${domain}/external_api.js`;

/**
 * Resolves with `JitsiMeetExternalAPI`: at once if the page has it, else by adding the script tag once (calls
 * while it loads share it). Rejects if the script fails to load or takes longer than `timeoutMs`; a later
 * call tries again.
 */
export function loadJitsiApi(
  domain: string,
  timeoutMs = JITSI_SCRIPT_TIMEOUT_MS,
): Promise<JitsiMeetExternalApiConstructor> {
  if (window.JitsiMeetExternalAPI) return Promise.resolve(window.JitsiMeetExternalAPI);
  if (loading?.domain === domain) return loading.api;

  const api = new Promise<JitsiMeetExternalApiConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = jitsiScriptUrl(domain);
    script.async = true;

    const settle = () => {
      window.clearTimeout(timer);
      script.removeEventListener('load', onLoad);
      script.removeEventListener('error', onError);
      if (loading?.api === api) loading = undefined;
    };
    const fail = (message: string) => {
      settle();
      script.remove();
      reject(new Error(message));
    };
    const onLoad = () => {
      const loaded = window.JitsiMeetExternalAPI;
      if (!loaded) {
        fail(`${script.src} did not define JitsiMeetExternalAPI`);
        return;
      }
      settle();
      resolve(loaded);
    };
    const onError = () => fail(`${script.src} could not be loaded`);
    // Load and error events come asynchronously, after everything here is set up.
    const timer = window.setTimeout(() => fail(`${script.src} took more than ${timeoutMs} ms`), timeoutMs);

    script.addEventListener('load', onLoad);
    script.addEventListener('error', onError);
    document.head.appendChild(script);
  });
  loading = { domain, api };
  return api;
}
