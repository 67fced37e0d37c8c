import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { UserType } from '@vetcall/shared/roles';
import type { AppContext } from '../../context.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import { markSessionHook } from '../../lib/route-access.ts';
import { originOf, type RequestOrigin } from '../../lib/request-origin.ts';
import { hashToken } from '../../lib/tokens.ts';
import { type Actor, authenticateTokenHash } from './auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's actor, shared by its requests (requireAuth). */
    actor: Actor | null;
    /** This request's copy with its origin (actorOf). */
    requestActor: Actor | null;
  }
}

/**
 * Declares the two slots up front, so every request object has the same shape whether or not a hook fills them
 * (Fastify's advice: properties added later make V8 deoptimize the request's hot paths).
 */
export function registerActorSlots(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('requestActor', null);
}

/** Each open connection's last Authorization header and its token's hash (see {@link bearerTokenHash}). */
const lastTokenHashes = new WeakMap<object, { header: string; tokenHash: string }>();

/**
 * The hash of the request's bearer token, or undefined when it has none. A browser sends its requests over a few
 * kept-alive connections, each with the same Authorization header: the last header of each connection and its
 * hash are kept beside the connection (and go with it), so only a changed header is parsed and hashed again.
 * The header string stays in memory while its connection is open, as it was while its request was read.
 */
function bearerTokenHash(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const socket = request.raw.socket;
  const kept = lastTokenHashes.get(socket);
  if (kept?.header === header) return kept.tokenHash;
  const token = bearerToken(header);
  if (token === undefined) return undefined;
  const tokenHash = hashToken(token);
  lastTokenHashes.set(socket, { header, tokenHash });
  return tokenHash;
}

const BEARER_TOKEN = /^bearer ([^ ]*)/i;

/** The token of an Authorization header "Bearer <token>" (scheme in any case), or undefined. */
export function bearerToken(header: string): string | undefined {
  return BEARER_TOKEN.exec(header)?.[1]?.trim() || undefined;
}

/**
 * A hook that admits only a valid session, and only of the given access types when any are named.
 * Role checks here are the coarse gate; services still decide per object (ownership).
 */
export function requireAuth(
  context: Pick<AppContext, 'db' | 'clock'> & Partial<Pick<AppContext, 'caches'>>,
  ...types: UserType[]
): onRequestHookHandler {
  const admit = (request: FastifyRequest, actor: Actor): Error | undefined => {
    if (types.length > 0 && !types.includes(actor.type)) return forbidden();
    request.actor = actor;
    return undefined;
  };
  // A callback hook: a kept session (nearly every request) is admitted in the same turn, without the promise
  // and the extra turn an async hook costs each request.
  const hook: onRequestHookHandler = (request, _reply, done) => {
    const tokenHash = bearerTokenHash(request);
    if (!tokenHash) return done(unauthorized());
    let found: Actor | Promise<Actor>;
    try {
      found = authenticateTokenHash(context, tokenHash);
    } catch (error) {
      return done(error as Error);
    }
    if (found instanceof Promise) {
      found.then(
        (actor) => done(admit(request, actor)),
        (error: unknown) => done(error as Error),
      );
    } else done(admit(request, found));
  };
  return markSessionHook(hook, types);
}

/**
 * The session's actor of a request that passed requireAuth: one object for every request of an unchanged session
 * (auth.service authenticateToken caches it), so answers may be kept by it (GET /api/me).
 */
export function sessionActorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/**
 * The actor of a request that passed requireAuth, as services take it: the session's actor and where this request
 * came from (read only when the audit log asks), on a copy of this request's own.
 */
export function actorOf(request: FastifyRequest): Actor {
  return (request.requestActor ??= new RequestActor(sessionActorOf(request), request));
}

/**
 * A request's own copy of its session's actor, with the request's origin read on first use. A class, not an
 * object literal with a getter: each such literal's getter is a new function, which gave every copy a hidden class
 * of its own, held by the old generation and holding the getter's request; so every request (its headers, Fastify's
 * request and reply) outlived the young generation's collections and was promoted, and a list read spent a tenth
 * of its time collecting garbage.
 */
class RequestActor implements Actor {
  readonly userId: number;
  readonly type: Actor['type'];
  readonly name: string;
  readonly email: string;
  readonly locale: Actor['locale'];
  readonly sessionId: number;
  readonly #request: FastifyRequest;
  #origin: RequestOrigin | undefined;

  constructor(session: Actor, request: FastifyRequest) {
    this.userId = session.userId;
    this.type = session.type;
    this.name = session.name;
    this.email = session.email;
    this.locale = session.locale;
    this.sessionId = session.sessionId;
    this.#request = request;
  }

  get origin(): RequestOrigin {
    return (this.#origin ??= originOf(this.#request));
  }
}
