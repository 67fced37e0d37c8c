import { eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import {
  type BuiltinCalendarGrant,
  type CalendarAuthorizeResponse,
  type CalendarLinkStatus,
  formatCalendarState,
} from '@vetcall/shared/schemas/calendar-link';
import type { AppContext } from '../../context.ts';
import { users, vets } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import { issueBuiltinGrant } from '../../providers/calendar/builtin.ts';
import {
  type CalendarLinkProvider,
  CalendarProviderUnavailable,
} from '../../providers/calendar/calendar-link-provider.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canLinkCalendar } from './calendar-link.policy.ts';
import { forgetCalendarLink, linkAurinkoAccount } from '../calendar-sync/calendar-sync.service.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'limiter'> & { calendar: CalendarLinkProvider };

const MINUTE_MS = 60_000;

/** Account tokens are guessable input: a vet gets this many tries to hand one in. */
export const ACCOUNT_TOKEN_RATE_LIMIT = { limit: 10, windowMs: 10 * MINUTE_MS } as const;
/** Each grant is a row; a page that loops must not fill the table. */
export const BUILTIN_GRANT_RATE_LIMIT = { limit: 20, windowMs: 10 * MINUTE_MS } as const;

export const calendarTokenInvalid = () =>
  new AppError('calendar_token_invalid', 400, {
    message: 'The calendar provider did not accept this token; link the calendar again.',
  });

const calendarProviderUnavailable = (cause: unknown) =>
  new AppError('calendar_provider_unavailable', 502, {
    message: 'The calendar provider could not be reached; try again later.',
    cause,
  });

const builtinCalendarDisabled = () =>
  new AppError('builtin_calendar_disabled', 404, {
    message: 'This server links calendars through an external provider, not the built-in calendar.',
  });

/**
 * The vet behind a vet id (vets.id, as in every /api/vets path), if the actor is that vet:
 * 404 when there is no such active vet, 403 when it is someone else's.
 */
export async function ownVet(deps: Pick<Deps, 'db'>, actor: Actor, vetId: number) {
  const [row] = await deps.db
    .select({
      vetId: vets.id,
      userId: vets.userId,
      email: users.email,
      locale: users.locale,
      active: users.active,
    })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(eq(vets.id, vetId))
    .limit(1);
  if (!row || !row.active) throw notFound();
  if (!canLinkCalendar(actor, row.userId)) throw forbidden();
  return row;
}

/** GET /api/vets/calendar/authorize/{vet_id}: where the browser goes to authorise the vet's calendar. */
export async function getCalendarAuthorizeUrl(
  deps: Deps,
  actor: Actor,
  vetId: number,
  query: { lang?: Locale; access: 'vet' },
): Promise<CalendarAuthorizeResponse> {
  const vet = await ownVet(deps, actor, vetId);
  const state = formatCalendarState({ vet_id: vet.vetId, lang: query.lang ?? vet.locale, access: query.access });
  return { url: deps.calendar.authorizeUrl({ state, loginHint: vet.email }) };
}

/** POST /api/vets/calendar/builtin/grant/{vet_id}: a one-time token of the built-in calendar. */
export async function createBuiltinCalendarGrant(
  deps: Deps,
  actor: Actor,
  vetId: number,
): Promise<BuiltinCalendarGrant> {
  if (deps.calendar.kind !== 'builtin') throw builtinCalendarDisabled();
  const vet = await ownVet(deps, actor, vetId);
  assertAllowed(await deps.limiter.hit(`calendar-grant:vet:${vet.vetId}`, BUILTIN_GRANT_RATE_LIMIT));
  return { token: await issueBuiltinGrant(deps, vet.userId) };
}

/**
 * PUT /api/vets/token/{vet_id} (docs/product-rules.md#api): stores the account token once the provider has vouched for
 * it. The token is never answered nor logged.
 */
export async function linkCalendar(
  deps: Deps,
  actor: Actor,
  vetId: number,
  body: { vet_id: number; account_token: string },
): Promise<CalendarLinkStatus> {
  if (body.vet_id !== vetId) {
    throw new AppError('validation_failed', 400, {
      message: 'The vet_id of the body differs from the one of the path.',
      fields: { vet_id: 'invalid_value' },
    });
  }
  const vet = await ownVet(deps, actor, vetId);
  assertAllowed(await deps.limiter.hit(`calendar-token:vet:${vet.vetId}`, ACCOUNT_TOKEN_RATE_LIMIT));

  let verdict;
  try {
    verdict = await deps.calendar.verifyAccountToken(body.account_token, { userId: vet.userId });
  } catch (error) {
    if (error instanceof CalendarProviderUnavailable) throw calendarProviderUnavailable(error);
    throw error;
  }
  if (verdict !== 'valid') throw calendarTokenInvalid();

  await deps.db.update(vets).set({ accountToken: body.account_token }).where(eq(vets.id, vet.vetId));
  // Aurinko's token is used from now on: busy times are read and appointments written with it.
  if (deps.calendar.kind === 'aurinko') await linkAurinkoAccount(deps, vet.userId);
  return { vet_id: vet.vetId, calendar_linked: true };
}

/**
 * PUT /api/vets/removecalendarassociation/{vet_id} (docs/product-rules.md#api): forgets the account token and the
 * calendar's credentials; nothing in the vet's calendar is deleted.
 */
export async function unlinkCalendar(deps: Deps, actor: Actor, vetId: number): Promise<CalendarLinkStatus> {
  const vet = await ownVet(deps, actor, vetId);
  await deps.db.update(vets).set({ accountToken: '' }).where(eq(vets.id, vet.vetId));
  await forgetCalendarLink(deps.db, vet.userId);
  return { vet_id: vet.vetId, calendar_linked: false };
}
