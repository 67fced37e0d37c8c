import path from 'node:path';
import { z } from 'zod';
import { isValidTimeZone } from '@vetcall/shared/scheduling/zoned-time';
import { type IceServer, iceServersSchema, VIDEO_PROVIDERS, type VideoProvider } from '@vetcall/shared/schemas/video';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const urlFromEnv = z.url().refine((value) => !value.endsWith('/'), 'must not end with a slash');

/** ICE_SERVERS: a JSON array of RTCIceServer, checked entry by entry. */
const iceServersFromEnv = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON: an array of {urls, username?, credential?}' });
      return z.NEVER;
    }
  })
  .pipe(iceServersSchema);

/** Every setting the server reads, parsed once. README's configuration table mirrors this. */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: urlFromEnv.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(20),
  MAIL_FROM: z.string().min(3).default('VetCall <no-reply@vetcall.test>'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFromEnv.default(false),
  SUPPORT_EMAIL: z.email().default('support@vetcall.test'),
  CLINIC_TIME_ZONE: z
    .string()
    .refine(isValidTimeZone, 'must be an IANA time zone, such as Europe/Lisbon')
    .default('Europe/Lisbon'),
  WEBSITE_URL: urlFromEnv.optional(),
  INSURANCE_ENABLED: booleanFromEnv.default(false),
  ACCESS_CODES_ENABLED: booleanFromEnv.default(true),
  POSTAL_PT_PROVIDER: z.enum(['geoapi', 'ctt']).default('geoapi'),
  POSTAL_PT_URL: urlFromEnv.optional(),
  CTT_API_KEY: z.string().min(1).optional(),
  POSTAL_US_URL: urlFromEnv.default('https://api.zippopotam.us'),
  POSTAL_BR_URL: urlFromEnv.default('https://viacep.com.br'),
  CALENDAR_PROVIDER: z.enum(['builtin', 'aurinko']).default('builtin'),
  AURINKO_URL: urlFromEnv.default('https://api.aurinko.io'),
  AURINKO_CLIENT_ID: z.string().min(1).optional(),
  AURINKO_SERVICE_TYPE: z.string().min(1).default('Google'),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PAYMENT_PROVIDER: z.enum(['builtin', 'stripe']).default('builtin'),
  STRIPE_API_URL: urlFromEnv.default('https://api.stripe.com'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  GA_MEASUREMENT_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'must be a GA4 measurement id, such as G-1A2B3C4D5E')
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  VIDEO_PROVIDER: z.enum(VIDEO_PROVIDERS).default('builtin'),
  JITSI_DOMAIN: z
    .string()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i,
      'must be a host name, like meet.example.org',
    )
    .optional(),
  JITSI_APP_ID: z.string().min(1).optional(),
  JITSI_APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ICE_SERVERS: iceServersFromEnv.optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().max(100).default('vetcall:'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: urlFromEnv.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
});

export type Environment = z.input<typeof environmentSchema>;

/** The name of every environment variable the server reads (the documentation is checked against it). */
export const ENVIRONMENT_VARIABLES = Object.keys(environmentSchema.shape) as (keyof Environment)[];

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  /** Demo mode seeds demo accounts and exposes /dev/mail; never in production. */
  isDemo: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL per instance (DATABASE_URL only). */
  databasePoolSize: number;
  mailFrom: string;
  smtpUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  supportEmail: string;
  /** The clinic's IANA time zone: its "today" bounds dates such as a pet's birth (docs/product-rules.md#validation). */
  clinicTimeZone: string;
  /** The marketing site behind the login page's 'Back to the website' (defaults to PUBLIC_URL). */
  websiteUrl: string;
  /** Pet insurance policies (docs/product-rules.md#entities Pet policy): hidden unless enabled. */
  insuranceEnabled: boolean;
  /** Appointment access codes (docs/product-rules.md#booking, #manager-screens): on by default. */
  accessCodesEnabled: boolean;
  postalCodes: {
    /** Portugal: GEO API PT (free) or CTT's API (needs a key). */
    portugalProvider: 'geoapi' | 'ctt';
    portugalUrl: string;
    cttApiKey: string | undefined;
    unitedStatesUrl: string;
    brazilUrl: string;
  };
  /**
   * External calendar linking (docs/product-rules.md#calendar-callback, #api): the built-in calendar, or Aurinko in
   * front of Google etc.
   */
  /** Keys PINs and other server-side secrets; from APP_SECRET, else a random one kept in DATA_DIR (not in production). */
  appSecret: string | undefined;
  payment: {
    provider: 'builtin' | 'stripe';
    stripeApiUrl: string;
    stripeSecretKey: string | undefined;
    stripeWebhookSecret: string | undefined;
  };
  /** GA4 purchase events (docs/product-rules.md#api) are sent only when this is set. */
  gaMeasurementId: string | undefined;
  calendar: {
    provider: 'builtin' | 'aurinko';
    /** Aurinko's API origin, without a trailing slash. */
    aurinkoUrl: string;
    /** Aurinko application client id; always set when the provider is aurinko. */
    clientId: string | undefined;
    /** The calendar service Aurinko authorises (Google, Office365, …). */
    serviceType: string;
  };
  webDistDir: string;
  video: {
    /** The room the web app shows: the built-in WebRTC room (signalling here) or a self-hosted Jitsi Meet. */
    provider: VideoProvider;
    /** Host of the Jitsi Meet deployment; always set when the provider is jitsi. */
    jitsiDomain: string | undefined;
    /**
     * Token auth of a self-hosted Jitsi (prosody's app_id and app_secret): set only with the jitsi provider
     * and both JITSI_APP_ID and JITSI_APP_SECRET; then PIN lookups carry a JWT for the room.
     */
    jitsiToken?: { appId: string; appSecret: string };
    /** STUN/TURN servers handed to browsers of the built-in room; none needed on one machine or a LAN. */
    iceServers: IceServer[];
  };
  redis: {
    /** Set: video signalling crosses server instances through Redis pub/sub. */
    url: string | undefined;
    /** Put before every Redis key and channel, so deployments (and tests) can share one Redis. */
    keyPrefix: string;
  };
  /** Where attachment bytes live: DATA_DIR/files, or an S3-compatible bucket (several instances share it). */
  storage: { kind: 'local' } | { kind: 's3'; s3: S3Settings };
}

export interface S3Settings {
  /** An S3-compatible server's URL (MinIO, Ceph, R2…); unset means AWS's own endpoint for the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's own credential chain (AWS_* variables, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** bucket in the path (most self-hosted servers) rather than in the host name. */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * What production refuses to start without, one line per setting: each default here is safe for a demo on a
 * laptop and wrong for a clinic (a database in the working directory, plain http, mail kept in a local folder,
 * a checkout where no money moves). A default is not enough: the setting must be in the environment.
 */
function productionProblems(
  values: z.output<typeof environmentSchema>,
  given: Record<string, string | undefined>,
): string[] {
  const problems: string[] = [];
  if (!values.APP_SECRET) problems.push('APP_SECRET: required in production');
  if (!values.DATABASE_URL && given.DATA_DIR === undefined) {
    problems.push('DATABASE_URL or DATA_DIR: required in production (where the data lives must be chosen)');
  }
  if (!values.PUBLIC_URL?.startsWith('https://')) {
    problems.push('PUBLIC_URL: required in production, and must be https:// (the address behind TLS)');
  }
  if (!values.SMTP_URL) problems.push('SMTP_URL: required in production (without it mail only lands in a folder)');
  if (given.PAYMENT_PROVIDER === undefined) {
    problems.push('PAYMENT_PROVIDER: required in production (stripe; builtin only on purpose: no money moves)');
  }
  return problems;
}

/** Parses the environment; an invalid value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(environmentSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = environmentSchema.safeParse(relevant);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  if (values.CALENDAR_PROVIDER === 'aurinko' && !values.AURINKO_CLIENT_ID) {
    throw new ConfigError('Invalid configuration:\n  AURINKO_CLIENT_ID: required when CALENDAR_PROVIDER is aurinko');
  }
  if (values.PAYMENT_PROVIDER === 'stripe' && (!values.STRIPE_SECRET_KEY || !values.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER is stripe',
    );
  }
  if (values.VIDEO_PROVIDER === 'jitsi' && !values.JITSI_DOMAIN) {
    throw new ConfigError('Invalid configuration:\n  JITSI_DOMAIN: required when VIDEO_PROVIDER is jitsi');
  }
  if ((values.JITSI_APP_ID === undefined) !== (values.JITSI_APP_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration:\n  JITSI_APP_ID, JITSI_APP_SECRET: set both or neither');
  }
  if (values.STORAGE === 's3' && !values.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE is s3');
  }
  if ((values.S3_ACCESS_KEY_ID === undefined) !== (values.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  if (values.NODE_ENV === 'production') {
    const missing = productionProblems(values, relevant);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  ${missing.join('\n  ')}`);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    nodeEnv: values.NODE_ENV,
    isProduction: values.NODE_ENV === 'production',
    isDemo: values.NODE_ENV !== 'production',
    port: values.PORT,
    host: values.HOST,
    publicUrl: values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    mailFrom: values.MAIL_FROM,
    smtpUrl: values.SMTP_URL,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    supportEmail: values.SUPPORT_EMAIL,
    clinicTimeZone: values.CLINIC_TIME_ZONE,
    websiteUrl: values.WEBSITE_URL ?? values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    insuranceEnabled: values.INSURANCE_ENABLED,
    accessCodesEnabled: values.ACCESS_CODES_ENABLED,
    postalCodes: {
      portugalProvider: values.POSTAL_PT_PROVIDER,
      portugalUrl:
        values.POSTAL_PT_URL ??
        (values.POSTAL_PT_PROVIDER === 'ctt' ? 'https://www.cttcodigopostal.pt' : 'https://json.geoapi.pt'),
      cttApiKey: values.CTT_API_KEY,
      unitedStatesUrl: values.POSTAL_US_URL,
      brazilUrl: values.POSTAL_BR_URL,
    },
    appSecret: values.APP_SECRET,
    payment: {
      provider: values.PAYMENT_PROVIDER,
      stripeApiUrl: values.STRIPE_API_URL,
      stripeSecretKey: values.STRIPE_SECRET_KEY,
      stripeWebhookSecret: values.STRIPE_WEBHOOK_SECRET,
    },
    gaMeasurementId: values.GA_MEASUREMENT_ID,
    calendar: {
      provider: values.CALENDAR_PROVIDER,
      aurinkoUrl: values.AURINKO_URL,
      clientId: values.AURINKO_CLIENT_ID,
      serviceType: values.AURINKO_SERVICE_TYPE,
    },
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    video: {
      provider: values.VIDEO_PROVIDER,
      jitsiDomain: values.JITSI_DOMAIN,
      iceServers: values.ICE_SERVERS ?? [],
      // Only the Jitsi room uses tokens; with the built-in room the two settings are ignored.
      ...(values.VIDEO_PROVIDER === 'jitsi' && values.JITSI_APP_ID && values.JITSI_APP_SECRET
        ? { jitsiToken: { appId: values.JITSI_APP_ID, appSecret: values.JITSI_APP_SECRET } }
        : {}),
    },
    redis: { url: values.REDIS_URL, keyPrefix: values.REDIS_KEY_PREFIX },
    storage:
      values.STORAGE === 's3'
        ? {
            kind: 's3',
            s3: {
              endpoint: values.S3_ENDPOINT,
              bucket: values.S3_BUCKET!,
              region: values.S3_REGION,
              credentials:
                values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
                  ? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY }
                  : undefined,
              forcePathStyle: values.S3_FORCE_PATH_STYLE,
            },
          }
        : { kind: 'local' },
  };
}
