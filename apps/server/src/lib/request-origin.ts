/** Where a request came from, as the audit log records it (docs/audit-log.md). */
export interface RequestOrigin {
  /** The client address as Fastify sees it: the socket's, or the forwarded one when TRUST_PROXY is on. */
  ip: string;
  /** The User-Agent header, cut to MAX_USER_AGENT_LENGTH. */
  userAgent: string | null;
}

/** Enough to tell browsers and versions apart; the rest of a long header is noise a client can pad at will. */
export const MAX_USER_AGENT_LENGTH = 200;

export function originOf(request: {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): RequestOrigin {
  const agent = request.headers['user-agent'];
  const text = Array.isArray(agent) ? agent[0] : agent;
  return { ip: request.ip, userAgent: text ? text.slice(0, MAX_USER_AGENT_LENGTH) : null };
}
