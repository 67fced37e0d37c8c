import { describe, expect, it } from 'vitest';
import { parseMailbox } from './mailbox.ts';

describe('parseMailbox', () => {
  it('splits a display name from its address, quoted or not, and takes a bare address', () => {
    expect(parseMailbox('VetCall <no-reply@vetcall.test>')).toEqual({
      name: 'VetCall',
      email: 'no-reply@vetcall.test',
    });
    expect(parseMailbox('"Clínica Sá" <ola@clinica.pt>')).toEqual({ name: 'Clínica Sá', email: 'ola@clinica.pt' });
    expect(parseMailbox(' team@clinic.example ')).toEqual({ name: '', email: 'team@clinic.example' });
  });
});
