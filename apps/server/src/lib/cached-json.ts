import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { encodeAnswer, sendAnswer } from './json-answer.ts';
import type { Computed } from './versioned-cache.ts';

/**
 * The JSON answer of a hot read, kept in `caches.answers` under `key` while the data has not changed and
 * its time limit has not passed (lib/versioned-cache.ts). The answer is encoded once per computation
 * (lib/json-answer.ts: encoded, and gzipped when large) and sent as the kept bytes (return the reply this gives from
 * the handler). `key` must name everything the answer depends on besides the data: the parameters, and the
 * actor's type when what it may see differs by type. Refusals (thrown errors) are never kept.
 */
export function cachedJson<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<AppContext, 'caches' | 'clock'>,
  key: string,
  schema: z.ZodType<unknown, T>,
  compute: () => Promise<Computed<T>>,
): FastifyReply | Promise<FastifyReply> {
  const answer = context.caches.answers.read(key, context.clock.now().getTime(), async () => {
    const { value, validUntil } = await compute();
    return { value: await encodeAnswer(schema, value), validUntil };
  });
  // A kept answer goes out in the handler's own turn: no promise between the lookup and the send.
  return answer instanceof Promise
    ? answer.then((computed) => sendAnswer(request, reply, computed))
    : sendAnswer(request, reply, answer);
}

const MINUTE_MS = 60_000;

/**
 * The next instant at which time alone can change an answer about appointments and slots. Their times are
 * whole minutes and every rule adds whole minutes or hours to them (a slot is offered until it starts, the
 * room opens 10 minutes before, cancelling is free until 24 hours before…), so a rule's outcome flips at a
 * minute edge m ("before m") or just after it ("until m"). An answer built strictly between two edges stays
 * right until the next edge; one built on an edge, for 1 ms.
 */
export function nextMinuteEdge(now: Date): number {
  const at = now.getTime();
  const edge = Math.ceil(at / MINUTE_MS) * MINUTE_MS;
  return edge === at ? at + 1 : edge;
}

/**
 * An answer that is the actor's own (their lists, in their language): kept per user and per request URL
 * (path and query: everything else it depends on), until the data changes or the next minute edge.
 */
export function cachedForActor<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<AppContext, 'caches' | 'clock'>,
  schema: z.ZodType<unknown, T>,
  compute: () => Promise<T>,
): FastifyReply | Promise<FastifyReply> {
  const key = `actor:${request.actor?.userId ?? 'none'}:${request.method}:${request.url}`;
  return cachedJson(request, reply, context, key, schema, async () => {
    const now = context.clock.now();
    return { value: await compute(), validUntil: nextMinuteEdge(now) };
  });
}
