/**
 * The room being joined, kept in session storage (docs/product-rules.md#pin-screen "the stored hash"): the appointment
 * hash and the signalling resume token, so a reload of the page takes the seat back instead of finding it held by
 * the connection that just died. Leaving the call clears it; it never outlives the tab.
 */
const KEY = 'vetcall.room';

export interface StoredRoom {
  pin: string;
  hash: string;
  resumeToken?: string;
}

function store(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const storedRoom = {
  get(pin: string): StoredRoom | null {
    try {
      const value = JSON.parse(store()?.getItem(KEY) ?? 'null') as StoredRoom | null;
      return value && value.pin === pin && typeof value.hash === 'string' ? value : null;
    } catch {
      return null;
    }
  },
  set(room: StoredRoom): void {
    try {
      store()?.setItem(KEY, JSON.stringify(room));
    } catch {
      // Without storage a reload simply joins as a new connection.
    }
  },
  clear(): void {
    try {
      store()?.removeItem(KEY);
    } catch {
      // see set()
    }
  },
};
