import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queriesSettled } from './app-queries';

/** A read that answers when `answer` is called. */
function pendingRead() {
  let answer!: (value: string) => void;
  const response = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { response, answer };
}

const clients: QueryClient[] = [];
function client() {
  const made = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  clients.push(made);
  return made;
}
afterEach(() => {
  for (const made of clients.splice(0)) made.clear();
});

/** Records when `promise` settles, without waiting for it. */
function watch(promise: Promise<void>) {
  const state = { settled: false };
  void promise.then(() => {
    state.settled = true;
  });
  return state;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('queriesSettled (a drawn page waits for its screen’s first reads before the app takes its place)', () => {
  it('resolves at once without a client, and soon when nothing is fetching', async () => {
    await queriesSettled(5_000, undefined);
    const idle = watch(queriesSettled(5_000, client()));
    await wait(200);
    expect(idle.settled).toBe(true);
  });

  it('waits for a read under way, and for one that starts just after it ends', async () => {
    const queries = client();
    const customer = pendingRead();
    const pets = pendingRead();
    void queries.fetchQuery({ queryKey: ['customer'], queryFn: () => customer.response });
    const settled = watch(queriesSettled(5_000, queries));
    await wait(100);
    expect(settled.settled).toBe(false);
    customer.answer('ana');
    // The dependent read starts a moment after the first answer, as a screen starts it once it has drawn that.
    await wait(10);
    void queries.fetchQuery({ queryKey: ['pets'], queryFn: () => pets.response });
    await wait(150);
    expect(settled.settled).toBe(false);
    pets.answer('rex');
    await wait(200);
    expect(settled.settled).toBe(true);
  });

  it('gives up waiting after the limit', async () => {
    const queries = client();
    // Left unanswered: emptying the client at the end cancels it.
    queries.fetchQuery({ queryKey: ['slow'], queryFn: () => pendingRead().response }).catch(() => undefined);
    const settled = watch(queriesSettled(150, queries));
    await wait(50);
    expect(settled.settled).toBe(false);
    await wait(250);
    expect(settled.settled).toBe(true);
    expect(queries.isFetching()).toBe(1);
  });
});
