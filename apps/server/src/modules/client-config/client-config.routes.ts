import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientConfigSchema } from '@vetcall/shared/schemas/client-config';
import type { Config } from '../../config.ts';

/** The few settings the browser needs before it mounts; nothing secret. */
export const clientConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/client-config',
    { schema: { tags: ['config'], summary: 'Public settings for the web app', response: { 200: clientConfigSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return {
        environment: config.nodeEnv,
        website_url: config.websiteUrl,
        support_email: config.supportEmail,
        clinic_time_zone: config.clinicTimeZone,
        insurance_enabled: config.insuranceEnabled,
        access_codes_enabled: config.accessCodesEnabled,
        payment_provider: config.payment.provider,
        ga_measurement_id: config.gaMeasurementId ?? null,
        video_provider: config.video.provider,
        jitsi_domain: config.video.provider === 'jitsi' ? (config.video.jitsiDomain ?? null) : null,
      };
    },
  );
};
