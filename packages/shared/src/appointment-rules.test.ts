import { describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from './appointment-status.ts';
import {
  cancellationTerms,
  canAddFilesAs,
  completionTerms,
  rescheduleTerms,
  canRemoveFile,
  editableFieldOf,
  isAppointmentEditable,
  uploadCapFor,
} from './appointment-rules.ts';

describe('appointment rules', () => {
  it('keep the record editable from payment until after the consultation', () => {
    const editable = APPOINTMENT_STATUSES.filter(isAppointmentEditable);
    expect(editable).toEqual(['TK_Requested', 'TK_Confirmed', 'TK_Completed']);
  });

  it('give each party its one field, and managers none', () => {
    expect(editableFieldOf('customer')).toBe('description');
    expect(editableFieldOf('vet')).toBe('vet_observations');
    expect(editableFieldOf('manager')).toBeNull();
  });

  it('let the two parties add files, never a manager', () => {
    expect([canAddFilesAs('customer'), canAddFilesAs('vet'), canAddFilesAs('manager')]).toEqual([true, true, false]);
  });

  it('let a vet remove any file and a customer only their own', () => {
    expect(canRemoveFile('vet', 'customer')).toBe(true);
    expect(canRemoveFile('vet', null)).toBe(true);
    expect(canRemoveFile('customer', 'customer')).toBe(true);
    expect(canRemoveFile('customer', 'vet')).toBe(false);
    expect(canRemoveFile('manager', 'manager')).toBe(false);
  });

  it('cap a customer at 20 MB and staff at 40 MB', () => {
    expect(uploadCapFor('customer')).toBe(20_971_520);
    expect(uploadCapFor('vet')).toBe(41_943_040);
    expect(uploadCapFor('manager')).toBe(41_943_040);
  });
});

describe('cancellation terms', () => {
  const start = new Date('2026-11-20T11:00:00Z');
  const at = (iso: string) => new Date(iso);
  const confirmed = { status: 'TK_Confirmed' as const, schedule: start, durationMinutes: 30, priceCents: 2500 };

  it('refund a customer until 24 hours before the start, then cancel without a refund until the start', () => {
    expect(cancellationTerms('customer', confirmed, at('2026-11-19T11:00:00Z'))).toEqual({
      allowed: true,
      refund: true,
    });
    expect(cancellationTerms('customer', confirmed, at('2026-11-19T11:00:01Z'))).toEqual({
      allowed: true,
      refund: false,
    });
    expect(cancellationTerms('customer', confirmed, start)).toEqual({ allowed: false, reason: 'cancellation_closed' });
  });

  it('let staff cancel until the end, always refunded; free appointments have nothing to refund', () => {
    expect(cancellationTerms('vet', confirmed, at('2026-11-20T11:29:59Z'))).toEqual({ allowed: true, refund: true });
    expect(cancellationTerms('manager', confirmed, at('2026-11-20T11:30:00Z'))).toMatchObject({ allowed: false });
    expect(cancellationTerms('vet', { ...confirmed, priceCents: 0 }, at('2026-11-18T00:00:00Z'))).toEqual({
      allowed: true,
      refund: false,
    });
  });

  it('cancel an unpaid appointment with nothing to refund, and refuse final ones', () => {
    const pending = { ...confirmed, status: 'TK_PendingPayment' as const };
    expect(cancellationTerms('customer', pending, at('2026-11-18T00:00:00Z'))).toEqual({
      allowed: true,
      refund: false,
    });
    for (const status of ['TK_Completed', 'TK_Canceled', 'TK_PaymentFailed'] as const) {
      expect(cancellationTerms('manager', { ...confirmed, status }, at('2026-11-18T00:00:00Z'))).toEqual({
        allowed: false,
        reason: 'invalid_transition',
      });
    }
  });

  it('let the customer move their own until 24 hours before the start, staff until the start', () => {
    const start = confirmed.schedule.getTime();
    const before = (hours: number) => new Date(start - hours * 3_600_000);
    expect(rescheduleTerms('customer', confirmed, before(24.01))).toEqual({ allowed: true });
    expect(rescheduleTerms('customer', confirmed, before(24))).toEqual({ allowed: false, reason: 'reschedule_closed' });
    expect(rescheduleTerms('vet', confirmed, before(0.01))).toEqual({ allowed: true });
    expect(rescheduleTerms('manager', confirmed, before(0))).toEqual({ allowed: false, reason: 'reschedule_closed' });
    expect(rescheduleTerms('customer', { ...confirmed, status: 'TK_Requested' }, before(30))).toEqual({
      allowed: true,
    });
    for (const status of ['TK_PendingPayment', 'TK_Completed', 'TK_Canceled', 'TK_PaymentFailed'] as const) {
      expect(rescheduleTerms('manager', { ...confirmed, status }, before(30))).toEqual({
        allowed: false,
        reason: 'invalid_transition',
      });
    }
  });

  it('let only the vet mark a confirmed appointment done, once it has started', () => {
    const start = confirmed.schedule;
    expect(completionTerms('vet', confirmed, start)).toEqual({ allowed: true });
    expect(completionTerms('vet', confirmed, new Date(start.getTime() - 1))).toEqual({
      allowed: false,
      reason: 'completion_too_early',
    });
    expect(completionTerms('customer', confirmed, start)).toEqual({ allowed: false, reason: 'forbidden' });
    expect(completionTerms('manager', confirmed, start)).toEqual({ allowed: false, reason: 'forbidden' });
    expect(completionTerms('vet', { ...confirmed, status: 'TK_Requested' }, start)).toEqual({
      allowed: false,
      reason: 'invalid_transition',
    });
  });
});
