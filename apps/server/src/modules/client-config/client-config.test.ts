import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/build-test-app.ts';

/** The clinic's zone as the web app reads it before it mounts (its pet form ends births at the clinic's today). */
async function clinicTimeZoneGiven(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env });
  try {
    const response = await t.app.inject({ method: 'GET', url: '/api/client-config' });
    expect(response.statusCode).toBe(200);
    return response.json().clinic_time_zone;
  } finally {
    await t.close();
  }
}

describe('GET /api/client-config, the clinic’s time zone', () => {
  it('is Lisbon by default and CLINIC_TIME_ZONE when set', async () => {
    expect(await clinicTimeZoneGiven()).toBe('Europe/Lisbon');
    expect(await clinicTimeZoneGiven({ CLINIC_TIME_ZONE: 'America/Sao_Paulo' })).toBe('America/Sao_Paulo');
  });
});
