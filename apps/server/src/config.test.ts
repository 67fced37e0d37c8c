import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** A production environment that starts: each refusal test takes one setting away. */
const PRODUCTION = {
  NODE_ENV: 'production',
  APP_SECRET: 'p'.repeat(32),
  DATABASE_URL: 'postgres://vetcall@db.internal:5432/vetcall',
  PUBLIC_URL: 'https://vetcall.clinic.example',
  SMTP_URL: 'smtp://mail.clinic.example:587',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) did not throw`);
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      isProduction: false,
      isDemo: true,
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
      trustProxy: false,
      logLevel: 'info',
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(path.isAbsolute(config.webDistDir)).toBe(true);
  });

  it('derives the public URL from PORT unless PUBLIC_URL is set', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://vetcall.example' }).publicUrl).toBe(
      'https://vetcall.example',
    );
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', SMTP_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
  });

  it('reads the variables it is given', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '4000',
      DATABASE_URL: 'postgresql://u@db:5432/vetcall',
      SMTP_URL: 'smtps://mail.example:465',
      TRUST_PROXY: 'yes',
      DATA_DIR: '/tmp/vetcall-data',
    });
    expect(config).toMatchObject({
      nodeEnv: 'test',
      isDemo: true,
      port: 4000,
      databaseUrl: 'postgresql://u@db:5432/vetcall',
      smtpUrl: 'smtps://mail.example:465',
      trustProxy: true,
      dataDir: '/tmp/vetcall-data',
    });
  });

  it('keeps the clinic in Lisbon unless CLINIC_TIME_ZONE names another IANA zone', () => {
    expect(loadConfig({}).clinicTimeZone).toBe('Europe/Lisbon');
    expect(loadConfig({ CLINIC_TIME_ZONE: 'America/Sao_Paulo' }).clinicTimeZone).toBe('America/Sao_Paulo');
    expect(configError({ CLINIC_TIME_ZONE: 'Lisbon' }).message).toContain(
      'CLINIC_TIME_ZONE: must be an IANA time zone, such as Europe/Lisbon',
    );
    expect(configError({ CLINIC_TIME_ZONE: 'UTC+14' }).message).toContain('CLINIC_TIME_ZONE');
  });

  it('is not a demo in production', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.isProduction).toBe(true);
    expect(config.isDemo).toBe(false);
  });

  describe('in production, refuses the defaults that are only safe for a demo', () => {
    /** The lines of the refusal after its heading, one per setting. */
    const refusalLines = (env: Record<string, string>) => configError(env).message.split('\n').slice(1);

    it('starts with every setting given (an explicit DATA_DIR in place of DATABASE_URL, builtin on purpose)', () => {
      expect(loadConfig({ ...PRODUCTION, DATABASE_URL: '', DATA_DIR: '/srv/vetcall' }).dataDir).toBe('/srv/vetcall');
      expect(loadConfig({ ...PRODUCTION, PAYMENT_PROVIDER: 'builtin' }).payment.provider).toBe('builtin');
    });

    it('says one line per missing setting, all at once', () => {
      expect(refusalLines({ NODE_ENV: 'production' })).toEqual([
        '  APP_SECRET: required in production',
        '  DATABASE_URL or DATA_DIR: required in production (where the data lives must be chosen)',
        '  PUBLIC_URL: required in production, and must be https:// (the address behind TLS)',
        '  SMTP_URL: required in production (without it mail only lands in a folder)',
        '  PAYMENT_PROVIDER: required in production (stripe; builtin only on purpose: no money moves)',
      ]);
    });

    it.each([
      ['APP_SECRET', { APP_SECRET: '' }],
      ['DATABASE_URL or DATA_DIR', { DATABASE_URL: '', DATA_DIR: '' }],
      ['PUBLIC_URL', { PUBLIC_URL: '' }],
      ['PUBLIC_URL', { PUBLIC_URL: 'http://vetcall.clinic.example' }],
      ['SMTP_URL', { SMTP_URL: '' }],
      ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: '' }],
    ])('refuses without %s (%j)', (name, change) => {
      const lines = refusalLines({ ...PRODUCTION, ...change });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^  ${name}: required in production`));
    });

    it('asks none of this outside production', () => {
      expect(loadConfig({ NODE_ENV: 'development' }).payment.provider).toBe('builtin');
      expect(loadConfig({ NODE_ENV: 'test' }).smtpUrl).toBeUndefined();
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://mail.example'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'https://vetcall.example/'],
    ['NODE_ENV', 'staging'],
    ['TRUST_PROXY', 'maybe'],
    ['LOG_LEVEL', 'loud'],
  ])('throws a ConfigError naming %s for %j', (name, value) => {
    const error = configError({ [name]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(name);
  });

  it('links calendars to the built-in calendar unless told otherwise', () => {
    expect(loadConfig({}).calendar).toStrictEqual({
      provider: 'builtin',
      aurinkoUrl: 'https://api.aurinko.io',
      clientId: undefined,
      serviceType: 'Google',
    });
  });

  it('reads the Aurinko settings', () => {
    const config = loadConfig({
      CALENDAR_PROVIDER: 'aurinko',
      AURINKO_URL: 'http://127.0.0.1:9999',
      AURINKO_CLIENT_ID: 'client-123',
      AURINKO_SERVICE_TYPE: 'Office365',
    });
    expect(config.calendar).toStrictEqual({
      provider: 'aurinko',
      aurinkoUrl: 'http://127.0.0.1:9999',
      clientId: 'client-123',
      serviceType: 'Office365',
    });
  });

  it('requires AURINKO_CLIENT_ID when the calendar provider is aurinko', () => {
    const environments: Record<string, string>[] = [
      { CALENDAR_PROVIDER: 'aurinko' },
      { CALENDAR_PROVIDER: 'aurinko', AURINKO_CLIENT_ID: '' },
    ];
    for (const env of environments) {
      const error = configError(env);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toContain('AURINKO_CLIENT_ID');
    }
  });

  it.each([
    ['CALENDAR_PROVIDER', 'google'],
    ['AURINKO_URL', 'not a url'],
    ['AURINKO_URL', 'https://api.aurinko.io/'],
  ])('throws a ConfigError naming %s for %j', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(name);
  });

  it('shows the built-in video room with no ICE servers and no Redis by default', () => {
    const config = loadConfig({});
    expect(config.video).toStrictEqual({ provider: 'builtin', jitsiDomain: undefined, iceServers: [] });
    expect(config.redis).toStrictEqual({ url: undefined, keyPrefix: 'vetcall:' });
  });

  it('reads the video settings: Jitsi, ICE servers (JSON) and Redis', () => {
    const iceServers = [
      { urls: 'stun:stun.clinic.example:3478' },
      {
        urls: ['turn:turn.clinic.example:3478?transport=udp', 'turns:turn.clinic.example:5349'],
        username: 'vc',
        credential: 's3cret',
      },
    ];
    const config = loadConfig({
      VIDEO_PROVIDER: 'jitsi',
      JITSI_DOMAIN: 'meet.clinic.example',
      ICE_SERVERS: JSON.stringify(iceServers),
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      REDIS_KEY_PREFIX: 'clinic-a:',
    });
    expect(config.video).toStrictEqual({ provider: 'jitsi', jitsiDomain: 'meet.clinic.example', iceServers });
    expect(config.redis).toStrictEqual({ url: 'redis://127.0.0.1:6379/2', keyPrefix: 'clinic-a:' });
  });

  it('requires JITSI_DOMAIN when the video provider is jitsi', () => {
    expect(configError({ VIDEO_PROVIDER: 'jitsi' }).message).toContain('JITSI_DOMAIN');
  });

  it.each([
    ['VIDEO_PROVIDER', 'zoom'],
    ['JITSI_DOMAIN', 'https://meet.jit.si'],
    ['ICE_SERVERS', 'stun:stun.example.org'],
    ['ICE_SERVERS', '{"urls":"stun:stun.example.org"}'],
    ['ICE_SERVERS', '[{"urls":"http://stun.example.org"}]'],
    ['ICE_SERVERS', '[{"urls":[]}]'],
    ['ICE_SERVERS', '[{"urls":"turn:turn.example.org:3478"}]'],
    ['ICE_SERVERS', '[{"urls":"stun:stun.example.org","password":"x"}]'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
  ])('throws a ConfigError naming %s for %j', (name, value) => {
    expect(configError({ [name]: value }).message).toContain(name);
  });

  it('names every invalid variable at once', () => {
    const error = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DATABASE_URL');
  });
});
