import { z } from 'zod';

/**
 * Response schemas the server declares inline in its route files rather than in `@vetcall/shared`, so a
 * test cannot import them. Copied here, in one place, for `fakeApi`; each names the route file it copies.
 * They belong in `@vetcall/shared/schemas/*` (then the route and the tests share them and this file goes).
 */

/** availability.routes.ts, GET /api/vets/calendarprofiles/{vet_id}. */
export const calendarProfileListSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));

/** availability.routes.ts, GET /api/vets/time-limits. */
export const timeLimitListSchema = z.array(z.object({ time_limit_id: z.number().int(), time_limit: z.string() }));

/** files.routes.ts, DELETE /api/appointments/file/{file_id}. */
export const fileRemovedSchema = z.object({ file_id: z.number().int() });

/** files.routes.ts, PUT /api/appointments/newfileadded/{appointment_id}/{bywhom}/{language}. */
export const fileAddedNoticeSchema = z.object({ success: z.literal(true) });
