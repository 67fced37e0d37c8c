import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { JITSI_LOGO_PATH } from '../../providers/video/jitsi-branding.ts';

/** The darkest shade of the web app's brand colour (apps/web/src/app/theme.ts, brand[9]). */
export const JITSI_BRAND_BACKGROUND = '#085561';
/** Our logo as the web build serves it (apps/web/public). Jitsi's page shows it from our origin. */

/** Jitsi Meet's dynamic-branding JSON, the documented keys we use. */
export const jitsiBrandingSchema = z.object({
  backgroundColor: z.string(),
  premeetingBackground: z.string(),
  logoImageUrl: z.string(),
  logoClickUrl: z.string(),
  inviteDomain: z.string(),
});

/**
 * GET /api/video/jitsi-branding (docs/product-rules.md#api "a branding file is loaded"): the browser inside the Jitsi
 * iframe fetches it cross-origin, so the Jitsi origin is allowed to read it. No login: nothing in it is private.
 */
export const jitsiBrandingRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/jitsi-branding',
    {
      schema: {
        tags: ['video'],
        summary: "Jitsi Meet's dynamic branding: our colours and logo in the Jitsi room",
        response: { 200: jitsiBrandingSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=3600');
      if (config.video.provider === 'jitsi' && config.video.jitsiDomain) {
        void reply.header('access-control-allow-origin', `https://${config.video.jitsiDomain}`);
      }
      return {
        backgroundColor: JITSI_BRAND_BACKGROUND,
        premeetingBackground: JITSI_BRAND_BACKGROUND,
        logoImageUrl: `${config.publicUrl}${JITSI_LOGO_PATH}`,
        logoClickUrl: config.publicUrl,
        inviteDomain: new URL(config.publicUrl).host,
      };
    },
  );
};
