import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createSecrets } from './secrets.ts';

describe('server secrets', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-secrets-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('makes a secret once in DATA_DIR (0600) and keeps using it', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const first = createSecrets(config).mac('pin', '123456');
    expect((await stat(path.join(dataDir, 'app-secret'))).mode & 0o777).toBe(0o600);
    expect(createSecrets(config).mac('pin', '123456')).toBe(first);
    expect((await readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim()).toHaveLength(43);
  });

  it('binds macs and sealed values to their purpose and to APP_SECRET', () => {
    const a = createSecrets(loadConfig({ DATA_DIR: dataDir, APP_SECRET: 'a'.repeat(32) }));
    const b = createSecrets(loadConfig({ DATA_DIR: dataDir, APP_SECRET: 'b'.repeat(32) }));
    expect(a.mac('pin', '123456')).not.toBe(a.mac('other', '123456'));
    expect(a.mac('pin', '123456')).not.toBe(b.mac('pin', '123456'));
    const sealed = a.seal('pins', '{"customer":"123456"}');
    expect(sealed).not.toContain('123456');
    expect(a.open('pins', sealed)).toBe('{"customer":"123456"}');
    expect(() => b.open('pins', sealed)).toThrow();
    expect(() => a.open('other', sealed)).toThrow();
  });

  it('is required in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(/APP_SECRET/);
  });
});
