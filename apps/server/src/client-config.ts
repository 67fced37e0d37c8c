import type { ClientConfigResponse } from '@vetcall/shared/schemas/client-config';
import type { Config } from './config.ts';

/**
 * The few settings the browser is told (GET /api/client-config); nothing secret. The pages the server draws
 * (plugins/public-pages.ts) are drawn with them too.
 */
export function clientConfigOf(config: Config): ClientConfigResponse {
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
}
