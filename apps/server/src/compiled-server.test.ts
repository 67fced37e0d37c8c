import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecordedBuildStale, writeBuildInputs } from '../../../scripts/build-freshness.mjs';
import { isServerBuildStale, serverCommandArgs } from '../../../scripts/build-server.mjs';
import { DEMO_PASSWORD } from './demo-data/seed.ts';
import { registrationInput } from '../test/registration-input.ts';
import {
  type BuiltCheckout,
  buildCheckout,
  type ServerProcess,
  spawnServer,
  startServer,
} from '../test/server-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('build freshness (what npm start checks before running a build)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vetcall-freshness-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A build made from a file and a folder, recorded as started at `startedAt`. */
  async function recordedBuild(name: string, startedAt: number) {
    const source = path.join(dir, `${name}.ts`);
    const folder = path.join(dir, `${name}-migrations`);
    await writeFile(source, 'export {};\n');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, '0000.sql'), 'select 1;\n');
    const past = new Date(startedAt - 60_000);
    for (const target of [source, path.join(folder, '0000.sql'), folder]) await utimes(target, past, past);
    const record = path.join(dir, `${name}.json`);
    writeBuildInputs(record, { startedAt, inputs: [source, folder] });
    return { source, folder, record };
  }

  it('is fresh when nothing it was made from changed', async () => {
    const { record } = await recordedBuild('untouched', Date.now());
    expect(isRecordedBuildStale(record)).toBe(false);
  });

  it('is stale when a source was saved after the build started, or is gone', async () => {
    const changed = await recordedBuild('changed', Date.now());
    const later = new Date(Date.now() + 5_000);
    await utimes(changed.source, later, later);
    expect(isRecordedBuildStale(changed.record)).toBe(true);

    const removed = await recordedBuild('removed', Date.now());
    await rm(removed.source);
    expect(isRecordedBuildStale(removed.record)).toBe(true);
  });

  it('is stale when a recorded folder gained a file (a new migration)', async () => {
    const { folder, record } = await recordedBuild('grown', Date.now() - 1_000);
    await writeFile(path.join(folder, '0001.sql'), 'select 2;\n');
    expect(isRecordedBuildStale(record)).toBe(true);
  });

  it('is stale without a readable record', async () => {
    expect(isRecordedBuildStale(path.join(dir, 'never-built.json'))).toBe(true);
    await writeFile(path.join(dir, 'broken.json'), '{"startedAt":');
    expect(isRecordedBuildStale(path.join(dir, 'broken.json'))).toBe(true);
  });
});

/**
 * The compiled server as `npm start` runs it, from a copy of the build in a checkout that has no sources: the
 * build must not reach back into src/ (migrations, the web app's folder, the lazily loaded dictionaries).
 */
describe('the compiled server', () => {
  let checkout: BuiltCheckout;
  let running: ServerProcess;
  let server: ChildProcess | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    checkout = await buildCheckout('vetcall-compiled-');
    running = await startServer(checkout);
    server = running.process;
    baseUrl = running.baseUrl;
  }, 150_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await checkout.remove();
  }, 60_000);

  it('is fresh right after it was built, and records the sources it inlined (not the tests)', () => {
    expect(isServerBuildStale(checkout.outdir)).toBe(false);
    const { inputs } = JSON.parse(readFileSync(path.join(checkout.outdir, 'build-inputs.json'), 'utf8')) as {
      inputs: string[];
    };
    const sources = inputs.map((input) => path.relative(repoRoot, path.resolve(checkout.outdir, input)));
    expect(sources).toEqual(
      expect.arrayContaining([
        'apps/server/src/main.ts',
        'apps/server/src/db-cli.ts',
        'apps/server/src/db/migrations',
        'packages/shared/src/password-strength.ts',
      ]),
    );
    expect(sources.filter((source) => source.endsWith('.test.ts'))).toEqual([]);
    expect(existsSync(path.join(checkout.outdir, 'main.js.map'))).toBe(true);
  });

  it('migrated a new database from its own copy of the migrations, seeded the demo data and serves the web app', async () => {
    const login = await fetch(`${baseUrl}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@vetcall.test', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const page = await fetch(`${baseUrl}/registration`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('built web app');
    expect((await fetch(`${baseUrl}/api/docs/json`)).status).toBe(200);
  });

  it('refuses a weak password on the first registration (the dictionaries load on first use)', async () => {
    const weak = await fetch(`${baseUrl}/api/users/customer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationInput('password1')),
    });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ fields: { password: 'weak_password' } });
  });

  it('a SIGTERM that comes while it starts stops it at its next step, with 0, and leaves a database that starts', async () => {
    const starting = await spawnServer(checkout, {});
    // PG_VERSION is written once the new database exists, while the start goes on to migrate it and seed it.
    const dataDir = path.join(checkout.root, `data-${starting.port}`);
    const deadline = Date.now() + 30_000;
    while (
      !existsSync(path.join(dataDir, 'db/PG_VERSION')) &&
      starting.process.exitCode === null &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const signalledAt = Date.now();
    expect(await starting.stop(), starting.output()).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(starting.output()).toContain('SIGTERM while starting: stopped before serving.');
    expect(starting.output()).not.toContain('VetCall is running');

    // What the stopped start wrote is whole: the next start on it serves, and the demo accounts sign in.
    const restarted = await startServer(checkout, { DATA_DIR: dataDir });
    try {
      const login = await fetch(`${restarted.baseUrl}/api/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'vet@vetcall.test', password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(200);
    } finally {
      expect(await restarted.stop(), restarted.output()).toBe(0);
    }
  }, 90_000);

  it('on SIGTERM, refuses new connections, finishes an upload in flight (2xx) and exits 0 within 10 s', async () => {
    const login = await fetch(`${baseUrl}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'customer@vetcall.test', password: DEMO_PASSWORD }),
    });
    const { token, user } = (await login.json()) as { token: string; user: { user_id: number } };
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const boundary = 'vetcall-shutdown-test';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="image"; filename="me.png"\r\n` +
          'content-type: image/png\r\n\r\n',
      ),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = request(`${baseUrl}/api/users/image/${user.user_id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      upload.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      upload.on('error', reject);
    });
    // Half the body is on its way, and the server is reading it, when the signal comes.
    const half = Math.floor(body.length / 2);
    await new Promise<void>((resolve) => upload.write(body.subarray(0, half), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    server!.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();

    upload.end(body.subarray(half));
    const answer = await answered;
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ user_id: user.user_id });
    expect(await exited, running.output()).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  }, 30_000);
});

/** The compiled server started with NODE_ENV=production and what is given; it must refuse and say why. */
describe('the compiled server in production', () => {
  let built: BuiltCheckout;
  let checkout: string;
  let outdir: string;
  beforeAll(async () => {
    built = await buildCheckout('vetcall-compiled-prod-');
    ({ root: checkout, outdir } = built);
  }, 120_000);
  afterAll(async () => {
    await built.remove();
  });

  function start(env: Record<string, string>) {
    const child = spawn(process.execPath, serverCommandArgs(outdir), {
      cwd: path.join(checkout, 'apps/server'),
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
    return { child, output };
  }

  function run(env: Record<string, string>) {
    const { child, output } = start(env);
    return new Promise<{ code: number | null; lines: string[] }>((resolve) =>
      child.on('exit', (code) => resolve({ code, lines: output.stderr.trim().split('\n') })),
    );
  }

  it('exits 1 with one line per missing setting', async () => {
    const { code, lines } = await run({ NODE_ENV: 'production', APP_SECRET: 'p'.repeat(32) });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Invalid configuration:',
      '  DATABASE_URL or DATA_DIR: required in production (where the data lives must be chosen)',
      '  PUBLIC_URL: required in production, and must be https:// (the address behind TLS)',
      '  SMTP_URL: required in production (without it mail only lands in a folder)',
      '  PAYMENT_PROVIDER: required in production (stripe; builtin only on purpose: no money moves)',
    ]);
  });

  it('refuses a plain-http PUBLIC_URL alone when everything else is given', async () => {
    const { code, lines } = await run({
      NODE_ENV: 'production',
      APP_SECRET: 'p'.repeat(32),
      DATA_DIR: path.join(checkout, 'data'),
      PUBLIC_URL: 'http://vetcall.clinic.example',
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENT_PROVIDER: 'builtin',
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Invalid configuration:',
      '  PUBLIC_URL: required in production, and must be https:// (the address behind TLS)',
    ]);
  });

  it('starts with PAYMENT_PROVIDER=builtin set on purpose, and says loudly that no money moves', async () => {
    const { child, output } = start({
      NODE_ENV: 'production',
      APP_SECRET: 'p'.repeat(32),
      DATA_DIR: path.join(checkout, 'data-builtin'),
      PUBLIC_URL: 'https://vetcall.clinic.example',
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENT_PROVIDER: 'builtin',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (!output.stderr.includes('WARNING') && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGTERM');
    expect(await exited, output.stderr).toBe(0);
    expect(output.stdout).toContain('VetCall is running at https://vetcall.clinic.example');
    expect(output.stderr).toContain('WARNING: PAYMENT_PROVIDER=builtin in production');
    // The structured log says it too, for whoever only reads the logs.
    expect(output.stdout).toMatch(/"level":40.*PAYMENT_PROVIDER=builtin in production/);
    expect(output.stdout).not.toContain('Demo accounts');
  }, 90_000);
});
