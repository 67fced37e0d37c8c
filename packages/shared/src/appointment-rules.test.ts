import { describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from './appointment-status.ts';
import {
  canAddFilesAs,
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
