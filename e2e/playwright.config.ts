import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
const dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) throw new Error('run the journeys with `npm run test:e2e` (it prepares E2E_DATA_DIR)');

export default defineConfig({
  testDir: './journeys',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One server with shared demo data: journeys run one after another.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // The video journey: fake camera and microphone, granted without a prompt, and WebRTC candidates
        // on loopback (the journeys run in a network namespace that has nothing else, see run-journeys.mjs).
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--allow-loopback-in-peer-connection',
      ],
    },
  },
  webServer: {
    command: 'node ../scripts/start.mjs',
    url: `${baseURL}/api/ready`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // The embedded database, in-process signalling and the outbox, whatever the calling shell exports
      // (nothing outside the loopback namespace is reachable anyway).
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      ...(process.env.E2E_POSTAL_PT_URL ? { POSTAL_PT_URL: process.env.E2E_POSTAL_PT_URL } : {}),
    },
  },
});
