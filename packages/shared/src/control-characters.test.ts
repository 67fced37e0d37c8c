import { describe, expect, it } from 'vitest';
import { hasControlCharacter } from './control-characters.ts';
import { fieldErrorsFromIssues, requiredText } from './schemas/fields.ts';
import { appointmentDataSchema } from './schemas/booking.ts';

describe('control characters', () => {
  it('are every C0 control but tab, line feed and carriage return, and DEL', () => {
    const controls = [...Array(32).keys(), 127].map((code) => String.fromCharCode(code));
    expect(controls.filter(hasControlCharacter).map((char) => char.charCodeAt(0))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127,
    ]);
    expect(hasControlCharacter('Rua das Flores, 1\n1000-001 Lisboa\tPT')).toBe(false);
  });

  it('are refused by the shared text fields, so a multipart JSON part is checked too', () => {
    const name = requiredText({ max: 50 }).safeParse('Bo\u0000bi');
    expect(name.success).toBe(false);
    expect(fieldErrorsFromIssues(name.error!.issues)).toEqual({ _: 'invalid_format' });
    const booking = appointmentDataSchema.safeParse({ description: 'Limping\u0000' });
    expect(booking.success).toBe(false);
    expect(fieldErrorsFromIssues(booking.error!.issues)).toMatchObject({ description: 'invalid_format' });
  });
});
