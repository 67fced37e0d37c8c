import { z } from 'zod';
import { choiceField, idParam, localeField, requiredText } from './fields.ts';

/** Calendar providers a deployment links vets' calendars with (CALENDAR_PROVIDER). */
export const CALENDAR_PROVIDERS = ['builtin', 'aurinko'] as const;
export type CalendarProvider = (typeof CALENDAR_PROVIDERS)[number];

/** The scope VetCall asks for on the vet's calendar (docs/product-rules.md#api External calendar authorisation). */
export const CALENDAR_SCOPE = 'Calendar.ReadWrite';

/**
 * Where the provider sends the browser back to, relative to the product's address
 * (docs/product-rules.md#calendar-callback).
 */
export const CALENDAR_CALLBACK_PATH = '/auth/callback';

/** Account tokens above this length are not a calendar token. */
export const MAX_ACCOUNT_TOKEN_LENGTH = 4096;

export const calendarVetParamsSchema = z.object({ vet_id: idParam });

/**
 * GET /api/vets/calendar/authorize/{vet_id}: `lang` and `access` travel in the state and come back to
 * /auth/callback, which switches to that language and returns to /vetdata with both
 * (docs/product-rules.md#calendar-callback). `lang` defaults to the vet's own language; `access` can only be 'vet'.
 */
export const calendarAuthorizeQuerySchema = z.object({
  lang: localeField.optional(),
  access: choiceField(['vet']).default('vet'),
});
export type CalendarAuthorizeQuery = z.input<typeof calendarAuthorizeQuerySchema>;

export const calendarAuthorizeResponseSchema = z.object({ url: z.string() });
export type CalendarAuthorizeResponse = z.infer<typeof calendarAuthorizeResponseSchema>;

/** POST /api/vets/calendar/builtin/grant/{vet_id}: a one-time account token of the built-in calendar. */
export const builtinCalendarGrantSchema = z.object({ token: z.string() });
export type BuiltinCalendarGrant = z.infer<typeof builtinCalendarGrantSchema>;

/**
 * The vet id in a body: a positive integer, or its decimal digits (the callback page reads it out of the
 * `state` string).
 */
const bodyVetIdField = z.preprocess(
  (value) => (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : value),
  z
    .number({ error: (issue) => (issue.input === undefined ? 'required' : 'invalid_format') })
    .int({ error: 'invalid_format' })
    .min(1, { error: 'invalid_format' })
    .max(2_147_483_647, { error: 'too_big' }),
);

/** PUT /api/vets/token/{vet_id} (docs/product-rules.md#api): the token the calendar provider gave /auth/callback. */
export const accountTokenBodySchema = z.object({
  vet_id: bodyVetIdField,
  account_token: requiredText({ max: MAX_ACCOUNT_TOKEN_LENGTH }),
});
export type AccountTokenBody = z.input<typeof accountTokenBodySchema>;

/** The answer of linking and unlinking: never the token itself. */
export const calendarLinkStatusSchema = z.object({ vet_id: z.number().int(), calendar_linked: z.boolean() });
export type CalendarLinkStatus = z.infer<typeof calendarLinkStatusSchema>;

/**
 * The `state` of the authorisation round trip: space-separated key:value pairs
 * (docs/product-rules.md#calendar-callback), e.g. `vet_id:12 lang:pt-BR access:vet`.
 */
export function formatCalendarState(state: { vet_id: number; lang: string; access: string }): string {
  return `vet_id:${state.vet_id} lang:${state.lang} access:${state.access}`;
}

/** Reads a `state` back into its pairs; unknown keys are kept, malformed pairs skipped. */
export function parseCalendarState(state: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of state.trim().split(/\s+/)) {
    const separator = part.indexOf(':');
    if (separator <= 0) continue;
    pairs[part.slice(0, separator)] = part.slice(separator + 1);
  }
  return pairs;
}

/** An http(s) URL of a CalDAV server or collection. */
const calDavUrlField = requiredText({ max: 2000 }).refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  },
  { error: 'invalid_format' },
);

/**
 * PUT /api/vets/{vet_id}/calendar/caldav: the vet's CalDAV server, username and app password; the server
 * checks them before saving. Without busy_calendars every calendar found counts as busy; without
 * target_calendar appointments go to the first one.
 */
export const calDavLinkBodySchema = z.object({
  url: calDavUrlField,
  username: requiredText({ max: 500 }),
  password: z.string({ error: 'required' }).min(1, { error: 'required' }).max(1000, { error: 'too_long' }),
  busy_calendars: z.array(calDavUrlField).max(50, { error: 'too_big' }).optional(),
  target_calendar: calDavUrlField.optional(),
});
export type CalDavLinkBody = z.input<typeof calDavLinkBodySchema>;

/**
 * PUT /api/vets/{vet_id}/calendar/caldav/choices: the calendars that count as busy and the one appointments go
 * to, for the account already linked (the server uses the credentials it keeps; the screen never has them again).
 */
export const calDavChoicesBodySchema = z.object({
  busy_calendars: z.array(calDavUrlField).max(50, { error: 'too_big' }),
  target_calendar: calDavUrlField.optional(),
});
export type CalDavChoicesBody = z.input<typeof calDavChoicesBodySchema>;

export const remoteCalendarSchema = z.object({ url: z.string(), name: z.string() });
export type RemoteCalendar = z.infer<typeof remoteCalendarSchema>;

export const calDavLinkResponseSchema = z.object({ linked: z.literal(true), calendars: z.array(remoteCalendarSchema) });
export type CalDavLinkResponse = z.infer<typeof calDavLinkResponseSchema>;

/**
 * GET /api/vets/{vet_id}/calendar (and the answer of POST …/calendar/refresh): what the vet's calendar screen
 * shows. Never the password or the token.
 */
export const calendarSyncStatusSchema = z.object({
  kind: z.enum(['builtin', 'caldav', 'aurinko']).nullable(),
  url: z.string().nullable(),
  username: z.string().nullable(),
  calendars: z.array(remoteCalendarSchema),
  busy_calendars: z.array(z.string()),
  target_calendar: z.string().nullable(),
  busy_read_at: z.string().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  /** The last read failed: slots use the busy times read before. */
  stale: z.boolean(),
});
export type CalendarSyncStatus = z.infer<typeof calendarSyncStatusSchema>;
