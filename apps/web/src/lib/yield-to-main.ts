/**
 * Resolves in a later task, once the browser has had its turn (input, paint): start-up work split with it is
 * several short tasks instead of one long one, in which the page would take no input (issue 16: Lighthouse's
 * total blocking time). `scheduler.yield` where the browser has it; a message otherwise, which unlike a zero
 * timeout is not clamped to 4 ms. The build's preload helper uses it too (build/stepwise-preload.js).
 */
export function yieldToMain(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } };
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
