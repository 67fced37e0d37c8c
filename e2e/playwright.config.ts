import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
const dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) throw new Error('run the journeys with `npm run test:e2e` (it prepares E2E_DATA_DIR)');

export default defineConfig({
  testDir: './journeys',
  // Every screen a journey shows is also checked with axe (support/accessibility.ts).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // One server with shared demo data: journeys run one after another.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL,
    // Recording a trace snapshots the page at every action of every journey, and a passing journey's trace is
    // thrown away. On CI, where a failed journey runs again, only that second run records one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a person who asks for less motion: no toast or dialog is caught by the axe checks half faded in or out.
    reducedMotion: 'reduce',
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
