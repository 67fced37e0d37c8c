import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { UserType } from '@vetcall/shared/roles';
import type { AppContext } from '../../context.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import { type Actor, authenticateToken } from './auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

/**
 * A hook that admits only a valid session, and only of the given access types when any are named.
 * Role checks here are the coarse gate; services still decide per object (ownership).
 */
export function requireAuth(context: Pick<AppContext, 'db' | 'clock'>, ...types: UserType[]): onRequestHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const actor = await authenticateToken(context, token);
    if (types.length > 0 && !types.includes(actor.type)) throw forbidden();
    request.actor = actor;
  };
}

/** The actor of a request that passed requireAuth. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}
