import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { acceptsGzip } from './accept-encoding.ts';

/** The content type of every JSON answer (what Fastify's serializer would give it). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON text of `value` as the route's response schema encodes it — the same check and stripping the
 * serializer gives every other answer — ready to send as it is with {@link sendJson}.
 */
export function encodeJson<T>(schema: z.ZodType<unknown, T>, value: T): string {
  return JSON.stringify(z.encode(schema, value));
}

/**
 * Sends JSON encoded beforehand (return the reply this gives from the handler): Fastify neither serializes
 * nor validates it again.
 */
export function sendJson(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.header('content-type', JSON_CONTENT_TYPE).send(body);
}

/** Bytes kept to be sent again and again (a JSON answer, a drawn page), and their gzip form when it pays. */
export interface KeptBytes {
  body: string | Buffer;
  gzipped?: Buffer;
}

/**
 * From this size an answer is kept as bytes and gzipped too. A week of slots is 10 KB of JSON and 1 KB
 * gzipped: once an answer is kept, the bytes written per request are most of what it costs (a bare Fastify
 * answering 10 KB does 0.7 × its hello-world's requests per second, at 36 µs of CPU per request as a
 * string and 31 µs as a Buffer, against 26 µs), and they are what a phone waits for. Below it, the text:
 * Node joins a short text body to the head in one chunk.
 */
const GZIP_FROM_CHARS = 1024;
const gzipAsync = promisify(gzip);

/** `text` kept as bytes and gzipped (zlib on the thread pool), to be sent with {@link sendKept}. */
export async function keepGzipped(text: string): Promise<KeptBytes & { body: Buffer; gzipped: Buffer }> {
  const body = Buffer.from(text);
  return { body, gzipped: await gzipAsync(body) };
}

export async function encodeAnswer<T>(schema: z.ZodType<unknown, T>, value: T): Promise<KeptBytes> {
  const text = encodeJson(schema, value);
  return text.length < GZIP_FROM_CHARS ? { body: text } : keepGzipped(text);
}

/**
 * Sends kept bytes, gzipped when the request takes gzip, adding accept-encoding to the Vary the reply already
 * has unless it names it (return the reply this gives from the handler). The content type is the caller's.
 */
export function sendKept(request: FastifyRequest, reply: FastifyReply, kept: KeptBytes): FastifyReply {
  if (kept.gzipped === undefined) return reply.send(kept.body);
  const current = reply.getHeader('vary');
  const vary = typeof current === 'string' ? current : '';
  if (!/\baccept-encoding\b/i.test(vary))
    void reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(kept.body);
  return reply.header('content-encoding', 'gzip').send(kept.gzipped);
}

/** Sends a kept JSON answer, gzipped when the request takes gzip (return the reply this gives from the handler). */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: KeptBytes): FastifyReply {
  return sendKept(request, reply.header('content-type', JSON_CONTENT_TYPE), answer);
}
