import v8 from 'node:v8';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { actorOf } from './authentication.ts';
import type { Actor } from './auth.service.ts';

const session: Actor = {
  userId: 7,
  type: 'customer',
  name: 'Rita',
  email: 'rita@clinic.test',
  locale: 'pt',
  sessionId: 3,
};

function requestFrom(ip: string, userAgent?: string): FastifyRequest {
  let headerReads = 0;
  const request = {
    actor: session,
    requestActor: null,
    ip,
    get headers() {
      headerReads += 1;
      return userAgent === undefined ? {} : { 'user-agent': userAgent };
    },
    headerReads: () => headerReads,
  };
  return request as unknown as FastifyRequest;
}

describe('actorOf', () => {
  it('gives each request one copy of its session’s actor, with the request’s origin read on first use', () => {
    const request = requestFrom('203.0.113.9', 'Firefox/140');
    const actor = actorOf(request);
    expect(actorOf(request)).toBe(actor);
    expect(actor).not.toBe(session);
    expect({ ...actor }).toEqual({ ...session });
    const reads = (request as unknown as { headerReads(): number }).headerReads;
    expect(reads()).toBe(0);
    expect(actor.origin).toEqual({ ip: '203.0.113.9', userAgent: 'Firefox/140' });
    expect(actor.origin).toBe(actor.origin);
    expect(reads()).toBe(1);
    expect(actorOf(requestFrom('198.51.100.1')).origin).toEqual({ ip: '198.51.100.1', userAgent: null });
  });

  it('gives the copies of different requests one hidden class, so no copy holds its request in the old generation', () => {
    // A copy with a hidden class of its own (an object literal with a getter made per request) is held by that
    // class, which lives in the old generation; its request then outlives every young-generation collection.
    v8.setFlagsFromString('--allow-natives-syntax');
    const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const first = actorOf(requestFrom('203.0.113.1'));
    const second = actorOf(requestFrom('203.0.113.2'));
    void first.origin;
    expect(haveSameMap(first, second)).toBe(true);
    // The test itself can tell: two literals with their own getters do not share one.
    const literal = (n: number) => ({
      ...session,
      get origin() {
        return n;
      },
    });
    expect(haveSameMap(literal(1), literal(2))).toBe(false);
  });
});
