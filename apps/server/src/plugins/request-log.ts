import type { FastifyInstance } from 'fastify';

/** A request slower than this is logged at info level whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One log line per request that needs a look: a server error or a slow answer, at info level (errors are
 * also logged with their cause by the error handler). Every other request is logged at debug level, so
 * LOG_LEVEL=debug gives a full access log. Fastify's own two lines per request (incoming, completed) are
 * off: at info level they cost a fifth of a cached read's throughput, and a reverse proxy keeps the
 * access log in production.
 */
export function registerRequestLog(
  app: FastifyInstance,
  { logLevel, slowMs = SLOW_REQUEST_MS }: { logLevel: string; slowMs?: number },
): void {
  const everyRequest = logLevel === 'debug' || logLevel === 'trace';
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const elapsed = reply.elapsedTime;
    if (status >= 500 || elapsed >= slowMs) {
      request.log.info({ req: request, res: { statusCode: status }, responseTime: elapsed }, 'request completed');
    } else if (everyRequest) {
      request.log.debug({ req: request, res: { statusCode: status }, responseTime: elapsed }, 'request completed');
    }
    done();
  });
}
