import { clientConfigSchema } from '@vetcall/shared/schemas/client-config';
import { type ClientConfig, loadClientConfig } from '../lib/client-config';
import { fakeApi } from './fake-api';

/** The server's public settings as tests start from; each test overrides what it is about. */
export const TEST_CLIENT_CONFIG: ClientConfig = {
  environment: 'test',
  website_url: 'https://site.test',
  support_email: 'support@vetcall.test',
  clinic_time_zone: 'Europe/Lisbon',
  insurance_enabled: false,
  access_codes_enabled: false,
  payment_provider: 'builtin',
  ga_measurement_id: null,
  video_provider: 'builtin',
  jitsi_domain: null,
};

/** Loads the client config as the app does at start-up, from a stubbed /api/client-config. */
export async function loadTestClientConfig(overrides: Partial<ClientConfig> = {}): Promise<void> {
  const api = fakeApi().answer('GET', '/api/client-config', clientConfigSchema, {
    ...TEST_CLIENT_CONFIG,
    ...overrides,
  });
  await loadClientConfig();
  api.fetch.mockRestore();
}
