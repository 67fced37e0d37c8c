import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Computed } from './versioned-cache.ts';

/** The content type of every JSON answer (what Fastify's serializer would give it). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON text of `value` as the route's response schema encodes it — the same check and stripping the
 * serializer gives every other answer — ready to send as it is with {@link sendJson}.
 */
export function encodeJson<T>(schema: z.ZodType<unknown, T>, value: T): Buffer {
  return Buffer.from(JSON.stringify(z.encode(schema, value)));
}

/**
 * Sends JSON text encoded beforehand (return the reply this gives from the handler). A Buffer goes out as
 * it is: Fastify neither serializes nor validates it again, nor parses its content type, nor converts text
 * to bytes and measures it per request.
 */
export function sendJson(reply: FastifyReply, body: Buffer): FastifyReply {
  return reply.header('content-type', JSON_CONTENT_TYPE).send(body);
}

/**
 * The JSON answer of a hot read, kept in `caches.answers` under `key` while the data has not changed and
 * its time limit has not passed (lib/versioned-cache.ts). The answer is encoded once per computation
 * ({@link encodeJson}) and sent as the kept bytes ({@link sendJson}; return the reply this gives from the
 * handler). `key` must name everything the answer depends on besides the data: the parameters, and the
 * actor's type when what it may see differs by type. Refusals (thrown errors) are never kept.
 */
export async function cachedJson<T>(
  reply: FastifyReply,
  context: Pick<AppContext, 'caches' | 'clock'>,
  key: string,
  schema: z.ZodType<unknown, T>,
  compute: () => Promise<Computed<T>>,
): Promise<FastifyReply> {
  const body = await context.caches.answers.read(key, context.clock.now().getTime(), async () => {
    const { value, validUntil } = await compute();
    return { value: encodeJson(schema, value), validUntil };
  });
  return sendJson(reply, body);
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
export async function cachedForActor<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<AppContext, 'caches' | 'clock'>,
  schema: z.ZodType<unknown, T>,
  compute: () => Promise<T>,
): Promise<FastifyReply> {
  const key = `actor:${request.actor?.userId ?? 'none'}:${request.method}:${request.url}`;
  return cachedJson(reply, context, key, schema, async () => {
    const now = context.clock.now();
    return { value: await compute(), validUntil: nextMinuteEdge(now) };
  });
}
