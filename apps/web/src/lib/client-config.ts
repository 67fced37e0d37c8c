import type { ClientConfigResponse } from '@vetcall/shared/schemas/client-config';
import { todayKey } from '@vetcall/shared/dates';
import { CLIENT_CONFIG_URL, getStartupJson } from './startup-requests';

export type ClientConfig = ClientConfigResponse;

let loaded: ClientConfig | undefined;

type FieldCheck = (value: unknown) => boolean;
const isString: FieldCheck = (value) => typeof value === 'string';
const isBoolean: FieldCheck = (value) => typeof value === 'boolean';
const isStringOrNull: FieldCheck = (value) => value === null || typeof value === 'string';
/** `satisfies` makes the compiler hold each list to the shared schema's enum: no name missing, none extra. */
const oneOf =
  <Name extends string>(names: Record<Name, true>): FieldCheck =>
  (value) =>
    typeof value === 'string' && Object.hasOwn(names, value);

/**
 * What `clientConfigSchema` (packages/shared/src/schemas/client-config.ts) checks, by hand: zod is 24 KB gzip
 * and the app cannot start before this check (issue 16: the login route's JavaScript budget). A test holds the
 * two to the same answers (client-config.test.ts).
 */
const CLIENT_CONFIG_FIELDS: Record<keyof ClientConfig, FieldCheck> = {
  environment: oneOf({ development: true, production: true, test: true } satisfies Record<
    ClientConfig['environment'],
    true
  >),
  website_url: isString,
  support_email: isString,
  clinic_time_zone: isString,
  insurance_enabled: isBoolean,
  access_codes_enabled: isBoolean,
  payment_provider: oneOf({ builtin: true, stripe: true } satisfies Record<ClientConfig['payment_provider'], true>),
  ga_measurement_id: isStringOrNull,
  video_provider: oneOf({ builtin: true, jitsi: true } satisfies Record<ClientConfig['video_provider'], true>),
  jitsi_domain: isStringOrNull,
};

/** The client configuration in `body`, without the fields it does not know (as zod strips them); throws if invalid. */
export function parseClientConfig(body: unknown): ClientConfig {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('client config: not an object');
  const fields = body as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(CLIENT_CONFIG_FIELDS)) {
    if (!check(fields[name])) throw new Error(`client config: invalid ${name}`);
    config[name] = fields[name];
  }
  return config as ClientConfig;
}

export async function loadClientConfig(): Promise<ClientConfig> {
  const response = await getStartupJson(CLIENT_CONFIG_URL);
  if (!response.ok) throw new Error(`client config: HTTP ${response.status}`);
  loaded = parseClientConfig(await response.json());
  return loaded;
}

/** The settings the server draws its pages with (prerender/public-pages.tsx), as the browser would load them. */
export function provideClientConfig(config: ClientConfig): void {
  loaded = config;
}

/** The server's public settings, loaded once before the app mounts. */
export function clientConfig(): ClientConfig {
  if (!loaded) throw new Error('client config used before it was loaded');
  return loaded;
}

/** Today's date key in the clinic's time zone (what the server checks a pet's birth against). */
export function clinicToday(): string {
  return todayKey(new Date(), clientConfig().clinic_time_zone);
}
