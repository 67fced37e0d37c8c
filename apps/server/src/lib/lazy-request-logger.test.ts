import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { LazyRequestLogger, lazyChildLoggerFactory } from './lazy-request-logger.ts';

function logged(): { lines: Record<string, unknown>[]; parent: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  const parent = pino(
    { level: 'info', base: null, timestamp: false },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { lines, parent };
}

describe('the lazy request logger', () => {
  it('makes no child until something is logged', () => {
    const { parent } = logged();
    const child = vi.spyOn(parent, 'child');
    const logger = lazyChildLoggerFactory(parent, { reqId: 'r-1' }, {});
    expect(logger.level).toBe('info');
    expect(child).not.toHaveBeenCalled();
    logger.warn('now one is made, once');
    logger.warn('and kept');
    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'r-1' }, {});
  });

  it('writes the line the eager child writes, with the request id, at every level and through its own children', () => {
    const eager = logged();
    const lazy = logged();
    const boom = new Error('boom');
    const logEach = (logger: Pick<pino.Logger, 'info' | 'warn' | 'error' | 'child'>) => {
      logger.info({ route: '/api/me' }, 'request completed');
      logger.warn('slow');
      logger.error({ err: boom }, 'unhandled error');
      logger.child({ signalConnection: 'c-1' }).info('joined');
    };
    logEach(eager.parent.child({ reqId: 'r-9' }));
    logEach(new LazyRequestLogger(lazy.parent, { reqId: 'r-9' }, {}) as unknown as pino.Logger);
    expect(lazy.lines).toEqual(eager.lines);
    expect(lazy.lines.map((line) => [line.reqId, line.msg])).toEqual([
      ['r-9', 'request completed'],
      ['r-9', 'slow'],
      ['r-9', 'unhandled error'],
      ['r-9', 'joined'],
    ]);
  });

  it('takes a route’s own level and serializers, as Fastify passes them', () => {
    const { lines, parent } = logged();
    const logger = lazyChildLoggerFactory(
      parent,
      { reqId: 'r-3' },
      {
        level: 'warn',
        serializers: { user: (user: { name: string }) => user.name },
      },
    );
    expect(logger.level).toBe('warn');
    logger.info('dropped');
    logger.warn({ user: { name: 'Ana', secret: 'x' } }, 'kept');
    expect(lines).toEqual([{ level: 40, reqId: 'r-3', user: 'Ana', msg: 'kept' }]);
    logger.level = 'error';
    expect(logger.level).toBe('error');
  });
});
