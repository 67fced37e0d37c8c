import { z } from 'zod';

/**
 * A vet's private ICS subscription feed (Google Calendar, Outlook, Apple Calendar follow it by URL).
 * The URL carries a secret of which only a hash is kept, so it is shown once, when it is made.
 */

/** GET and DELETE /api/vets/icsfeed/{vet_id}: whether the vet has a live feed URL. */
export const icsFeedStatusSchema = z.object({ enabled: z.boolean() });
export type IcsFeedStatus = z.infer<typeof icsFeedStatusSchema>;

/** POST /api/vets/icsfeed/{vet_id}: the new subscription URL; any earlier one stops working at once. */
export const icsFeedUrlSchema = z.object({ url: z.url() });
export type IcsFeedUrl = z.infer<typeof icsFeedUrlSchema>;

/** The secret in a feed URL: 256 random bits, base64url without padding. */
export const ICS_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
