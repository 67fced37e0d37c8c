import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCustomer } from '../../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';

const PASSWORD = 'secret-pass';

/** Found by the route fuzz test (src/fuzz): an id past PostgreSQL's integer range reached the query, a 500. */
describe('POST /api/pets/customer/{customer_id}/changes: pet ids out of the integer range', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 400 too_big for an update or a delete of pet 2147483648', async () => {
    const ana = await buildCustomer(t.db, { email: 'ana@example.test', password: PASSWORD });
    const { headers } = await t.loginAs('ana@example.test', PASSWORD);
    const pet = {
      name: 'Bobi',
      species: 'Dog',
      gender: 'M',
      birth: '2020-05-17',
      fertile_status: 'intact',
      weight: 12.5,
    };
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/pets/customer/${ana.customer.id}/changes`,
      payload: { update: [{ ...pet, pet_id: 2_147_483_648 }], delete: [2_147_483_648] },
      headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ 'update.0.pet_id': 'too_big', 'delete.0': 'too_big' });
  });
});
