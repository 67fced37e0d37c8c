import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.ts';

describe('contentDisposition', () => {
  it('sends a name per RFC 6266 with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('20260101000000-customers.xlsx')).toBe(
      `attachment; filename="20260101000000-customers.xlsx"; filename*=UTF-8''20260101000000-customers.xlsx`,
    );
    expect(contentDisposition('20260101000000-veterinários (1).xlsx')).toBe(
      `attachment; filename="20260101000000-veterinarios (1).xlsx"; ` +
        `filename*=UTF-8''20260101000000-veterin%C3%A1rios%20%281%29.xlsx`,
    );
  });
});
