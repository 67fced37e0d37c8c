import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { calendarGrants } from '../../db/schema.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { authorizeQuery, type CalendarLinkProvider } from './calendar-link-provider.ts';

/** Account tokens of the built-in calendar start with this (the demo seed's do too). */
export const BUILTIN_TOKEN_PREFIX = 'builtin:';

/** A grant is exchanged by the callback page right away; ten minutes is plenty. */
export const BUILTIN_GRANT_TTL_MS = 10 * 60 * 1000;

/** The client id and service type the built-in authorisation page is called with. */
export const BUILTIN_CLIENT_ID = 'vetcall';
export const BUILTIN_SERVICE_TYPE = 'VetCall';

/** The web app's page that stands in for a provider's consent screen. */
export const BUILTIN_AUTHORIZE_PATH = '/calendar/authorize';

interface BuiltinDeps {
  publicUrl: string;
  db: Database;
  clock: Clock;
}

/**
 * VetCall's own calendar: the authorisation page is served by the web app itself, asks the API for a
 * one-time grant and passes it to /auth/callback as the account token; verifying consumes the grant.
 */
export function createBuiltinCalendarProvider(deps: BuiltinDeps): CalendarLinkProvider {
  return {
    kind: 'builtin',
    authorizeUrl(request) {
      const query = authorizeQuery({
        clientId: BUILTIN_CLIENT_ID,
        serviceType: BUILTIN_SERVICE_TYPE,
        publicUrl: deps.publicUrl,
        request,
      });
      return `${deps.publicUrl}${BUILTIN_AUTHORIZE_PATH}?${query.toString()}`;
    },
    async verifyAccountToken(token, vet) {
      return (await consumeBuiltinGrant(deps, vet.userId, token)) ? 'valid' : 'invalid';
    },
  };
}

/**
 * A new grant for the vet: 256 random bits, of which only the SHA-256 is stored. The vet's spent and
 * expired grants are dropped at the same time, so the table stays small.
 */
export async function issueBuiltinGrant(deps: Omit<BuiltinDeps, 'publicUrl'>, vetUserId: number): Promise<string> {
  const token = `${BUILTIN_TOKEN_PREFIX}${generateToken()}`;
  const now = deps.clock.now();
  await deps.db
    .delete(calendarGrants)
    .where(
      and(
        eq(calendarGrants.vetUserId, vetUserId),
        or(lte(calendarGrants.expiresAt, now), isNotNull(calendarGrants.usedAt)),
      ),
    );
  await deps.db.insert(calendarGrants).values({
    vetUserId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + BUILTIN_GRANT_TTL_MS),
    createdAt: now,
  });
  return token;
}

/**
 * Marks the grant used if it is this vet's, unused and unexpired, in one statement: of two requests
 * with the same token, exactly one sees it succeed.
 */
export async function consumeBuiltinGrant(
  deps: Omit<BuiltinDeps, 'publicUrl'>,
  vetUserId: number,
  token: string,
): Promise<boolean> {
  if (!token.startsWith(BUILTIN_TOKEN_PREFIX)) return false;
  const now = deps.clock.now();
  const consumed = await deps.db
    .update(calendarGrants)
    .set({ usedAt: now })
    .where(
      and(
        eq(calendarGrants.tokenHash, hashToken(token)),
        eq(calendarGrants.vetUserId, vetUserId),
        isNull(calendarGrants.usedAt),
        gt(calendarGrants.expiresAt, now),
      ),
    )
    .returning({ id: calendarGrants.id });
  return consumed.length === 1;
}
