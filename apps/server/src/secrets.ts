import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

/**
 * The server's secret and what is derived from it. APP_SECRET in production; elsewhere a random secret
 * is made once and kept in DATA_DIR/app-secret (mode 0600), so the demo works with no setup and PINs
 * survive restarts.
 */
export interface Secrets {
  /** HMAC-SHA-256 under a purpose-bound key, hex: lookups by a secret value without storing it. */
  mac(purpose: string, value: string): string;
  /** AES-256-GCM under a purpose-bound key: 'iv.tag.ciphertext' in base64url. */
  seal(purpose: string, plaintext: string): string;
  open(purpose: string, sealed: string): string;
}

function readOrCreateSecret(config: Config): string {
  if (config.appSecret) return config.appSecret;
  const file = path.join(config.dataDir, 'app-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export function createSecrets(config: Config): Secrets {
  const master = readOrCreateSecret(config);
  const keyFor = (purpose: string) => Buffer.from(hkdfSync('sha256', master, 'vetcall', purpose, 32));
  return {
    mac: (purpose, value) =>
      createHmac('sha256', keyFor(`mac:${purpose}`))
        .update(value)
        .digest('hex'),
    seal(purpose, plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyFor(`seal:${purpose}`), iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    open(purpose, sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !body) throw new Error('malformed sealed value');
      const decipher = createDecipheriv('aes-256-gcm', keyFor(`seal:${purpose}`), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}
