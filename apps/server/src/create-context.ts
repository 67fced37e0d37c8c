import path from 'node:path';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createMemoryRateLimiter } from './plugins/rate-limiter.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './providers/mail/mailer.ts';
import { createSecrets } from './secrets.ts';

export function createMailer(config: Config): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom);
}

/** Assembles the context from configuration; tests pass their own database, clock or mailer. */
export function createContext(
  config: Config,
  database: DatabaseHandle,
  overrides: { clock?: Clock; mailer?: Mailer } = {},
): AppContext {
  const clock = overrides.clock ?? systemClock;
  return {
    config,
    database,
    db: database.db,
    clock,
    mailer: overrides.mailer ?? createMailer(config),
    limiter: createMemoryRateLimiter(clock),
    secrets: createSecrets(config),
  };
}
