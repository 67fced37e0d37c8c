import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildCustomer } from '../demo-data/factories.ts';

describe('control characters in requests', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/login', payload });

  it('refuses U+0000 in a JSON body with 400 naming the field, before the database ever sees it', async () => {
    const response = await login({ email: 'ana\u0000@example.test', password: 'secret-pass' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { email: 'invalid_format' } });
  });

  it('names nested fields and keys, and refuses every C0 control but tab, line feed and carriage return', async () => {
    const nested = await login({ email: 'a@b.test', password: 'x', extra: { list: ['fine', 'bell\u0007'] } });
    expect(nested.json().fields).toEqual({ 'extra.list.1': 'invalid_format' });
    const key = await login({ email: 'a@b.test', password: 'x', ['k\u001b']: 1 });
    expect(key.json().fields).toEqual({ 'k\u001b': 'invalid_format' });
    const del = await login({ email: 'a@b.test', password: 'x\u007f' });
    expect(del.json().fields).toEqual({ password: 'invalid_format' });
    // Lines and tabs are text: the login is simply wrong.
    const lines = await login({ email: 'a@b.test', password: 'line one\n\tline two\r\n' });
    expect([lines.statusCode, lines.json().error]).toEqual([401, 'invalid_login_attempt']);
  });

  it('refuses them in paths and queries', async () => {
    const path = await t.app.inject({ method: 'GET', url: '/api/appointments/info/abc%00def' });
    expect([path.statusCode, path.json().fields]).toEqual([400, { hash: 'invalid_format' }]);
    const query = await t.app.inject({ method: 'GET', url: '/api/translations/en?v=%00' });
    expect([query.statusCode, query.json().fields]).toEqual([400, { v: 'invalid_format' }]);
  });

  it('refuses them in a pet’s name (a text field of an authenticated route) and stores nothing', async () => {
    const ana = await buildCustomer(t.db, { email: 'ana@example.test', password: 'secret-pass' });
    const { headers } = await t.loginAs('ana@example.test', 'secret-pass');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pets',
      headers,
      payload: { customer_id: ana.customer.id, name: 'Bo\u0000bi', species: 'Dog', breed: '', gender: 'M' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ name: 'invalid_format' });
  });
});
