import { z } from 'zod';
import { VIDEO_PROVIDERS } from './video.ts';

/** Public settings the web app needs before it mounts (GET /api/client-config). */
export const clientConfigSchema = z.object({
  environment: z.enum(['development', 'production', 'test']),
  website_url: z.string(),
  support_email: z.string(),
  /** The clinic's IANA time zone (CLINIC_TIME_ZONE): its today is the latest pet birth (docs/product-rules.md#validation). */
  clinic_time_zone: z.string(),
  /** Pet insurance policies are shown only when in use (docs/product-rules.md#pet-records). */
  insurance_enabled: z.boolean(),
  /** Appointment access codes are in use (docs/product-rules.md#booking). */
  access_codes_enabled: z.boolean(),
  /** Who takes payments: the built-in test checkout or Stripe. */
  payment_provider: z.enum(['builtin', 'stripe']),
  /** GA4 measurement id for the purchase event (docs/product-rules.md#api); null: no analytics is loaded. */
  ga_measurement_id: z.string().nullable(),
  /** The video room: the built-in WebRTC room or the Jitsi Meet IFrame API of `jitsi_domain`. */
  video_provider: z.enum(VIDEO_PROVIDERS),
  /** Host of the self-hosted Jitsi Meet; null unless video_provider is jitsi. */
  jitsi_domain: z.string().nullable(),
});
export type ClientConfigResponse = z.infer<typeof clientConfigSchema>;
