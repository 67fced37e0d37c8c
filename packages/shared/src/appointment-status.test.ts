import { describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, canTransition, statusesLeadingTo } from './appointment-status.ts';

describe('appointment lifecycle', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = APPOINTMENT_STATUSES.flatMap((from) =>
      APPOINTMENT_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toStrictEqual([
      'TK_PendingPayment→TK_PaymentFailed',
      'TK_PendingPayment→TK_Requested',
      'TK_PendingPayment→TK_Canceled',
      'TK_Requested→TK_Confirmed',
      'TK_Requested→TK_Canceled',
      'TK_Confirmed→TK_Canceled',
      'TK_Confirmed→TK_Completed',
    ]);
  });

  it('never goes back to pending payment and never leaves a final status', () => {
    expect(statusesLeadingTo('TK_PendingPayment')).toStrictEqual([]);
    for (const final of ['TK_PaymentFailed', 'TK_Canceled', 'TK_Completed'] as const) {
      expect(APPOINTMENT_STATUSES.some((to) => canTransition(final, to))).toBe(false);
    }
    expect(statusesLeadingTo('TK_Canceled')).toStrictEqual(['TK_PendingPayment', 'TK_Requested', 'TK_Confirmed']);
  });
});
