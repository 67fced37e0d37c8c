import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../../demo-data/factories.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { findAppointmentByPin, issuePins, openPins, pinLookupHash, PIN_PATTERN, randomPin, sealPins } from './pins.ts';

describe('appointment PINs', () => {
  let t: TestApp;
  let refs: { customerUserId: number; petId: number; vetUserId: number };
  beforeEach(async () => {
    t = await buildTestApp();
    const vet = await buildVet(t.db);
    const customer = await buildCustomer(t.db);
    const pet = await buildPet(t.db, customer.customer.id);
    refs = { customerUserId: customer.user.id, petId: pet.id, vetUserId: vet.user.id };
  });
  afterEach(async () => {
    await t.close();
  });

  /** An appointment holding PINs, stored the way confirmation stores them. */
  const withPins = (customer: string, vet: string, status: AppointmentStatus = 'TK_Confirmed') =>
    buildAppointment(t.db, refs, {
      status,
      customerPinHash: pinLookupHash(t.context.secrets, customer),
      vetPinHash: pinLookupHash(t.context.secrets, vet),
      pinCipher: sealPins(t.context.secrets, { customer, vet }),
    });

  it('makes six digits, leading zeros kept', () => {
    const pins = Array.from({ length: 200 }, randomPin);
    expect(pins.every((pin) => PIN_PATTERN.test(pin))).toBe(true);
    expect(new Set(pins).size).toBeGreaterThan(190);
  });

  it('seals both PINs so that only the server secret opens them', () => {
    const sealed = sealPins(t.context.secrets, { customer: '012345', vet: '987654' });
    expect(sealed).not.toMatch(/012345|987654/);
    expect(openPins(t.context.secrets, sealed)).toEqual({ customer: '012345', vet: '987654' });
    const [iv, tag, body] = sealed.split('.') as [string, string, string];
    const tampered = `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => openPins(t.context.secrets, [iv, tag, tampered].join('.'))).toThrow();
  });

  describe('findAppointmentByPin', () => {
    it('finds the live appointment of a PIN and says whose PIN it is', async () => {
      const appointment = await withPins('123456', '654321');
      expect(await findAppointmentByPin(t.context, '123456')).toMatchObject({
        party: 'customer',
        appointment: { id: appointment.id, hash: appointment.hash },
      });
      expect(await findAppointmentByPin(t.context, '654321')).toMatchObject({
        party: 'vet',
        appointment: { id: appointment.id },
      });
    });

    it('finds nothing for an unknown or malformed PIN, or one of an appointment no longer live', async () => {
      await withPins('111111', '222222', 'TK_Canceled');
      await withPins('333333', '444444', 'TK_Completed');
      for (const pin of ['111111', '222222', '333333', '999999', '12345', '1234567', 'abcdef', "1' or '1"]) {
        expect(await findAppointmentByPin(t.context, pin)).toBeUndefined();
      }
    });

    it('lets a finished appointment’s PIN be used again by a live one', async () => {
      await withPins('111111', '222222', 'TK_Completed');
      const live = await withPins('111111', '222222');
      expect((await findAppointmentByPin(t.context, '111111'))?.appointment.id).toBe(live.id);
    });
  });

  describe('issuePins', () => {
    it('skips PINs that a live appointment holds in either role, and equal pairs', async () => {
      await withPins('111111', '222222');
      await withPins('555555', '666666', 'TK_Canceled');
      const picks = ['111111', '333333', '444444', '222222', '777777', '777777', '555555', '666666'];
      const issued = await t.db.transaction((tx) => issuePins(tx, t.context.secrets, () => picks.shift()!));
      // A finished appointment's PINs are free again.
      expect(issued.pins).toEqual({ customer: '555555', vet: '666666' });
      expect(issued.customerPinHash).toBe(pinLookupHash(t.context.secrets, '555555'));
      expect(issued.vetPinHash).toBe(pinLookupHash(t.context.secrets, '666666'));
      expect(openPins(t.context.secrets, issued.pinCipher)).toEqual(issued.pins);
    });

    it('gives up rather than loop when no free pair comes', async () => {
      await withPins('111111', '222222');
      await expect(t.db.transaction((tx) => issuePins(tx, t.context.secrets, () => '111111'))).rejects.toThrow(
        /no free PIN pair/,
      );
    });

    it('is backed by the partial unique indexes: two live appointments cannot share a PIN', async () => {
      await withPins('123123', '321321');
      const error = await withPins('123123', '999999').catch((caught: unknown) => caught);
      expect(isUniqueViolation(error)).toBe(true);
      const vetError = await withPins('888888', '321321', 'TK_Requested').catch((caught: unknown) => caught);
      expect(isUniqueViolation(vetError)).toBe(true);
    });
  });
});
