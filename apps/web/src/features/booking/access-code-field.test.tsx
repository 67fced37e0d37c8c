import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { accessCodeValidationSchema } from '@vetcall/shared/schemas/access-code';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { write } from '../../test/user-input';
import { AccessCodeField, type AccessCodeState } from './access-code-field';

function Harness() {
  const [state, setState] = useState<AccessCodeState>({ value: '', status: 'unchecked', included: false });
  return <AccessCodeField state={state} onChange={setState} />;
}

const field = () => screen.getByRole('textbox', { name: /^Access code/ });

describe('AccessCodeField', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says when to try again when the check is rate-limited, never that a valid code is invalid (issue 15 item 2)', async () => {
    fakeApi().refuse(
      'POST',
      '/api/appointmentsaccesscodes/validate',
      429,
      { error: 'too_many_requests', message: 'Too many requests; try again later.' },
      { 'retry-after': '540' },
    );
    render(withProviders(<Harness />));
    await write(field(), 'DEMO-NORMAL');
    expect(await screen.findByText('Too many attempts. Try again in 9 minutes.')).toBeTruthy();
    expect(screen.queryByText('Invalid access code.')).toBeNull();
    expect(field().getAttribute('aria-invalid')).toBe('true');
  });

  it('still says a wrong code is invalid, and a valid one valid', async () => {
    fakeApi().answer('POST', '/api/appointmentsaccesscodes/validate', accessCodeValidationSchema, ({ body }) =>
      (body as { code: string }).code === 'DEMO-NORMAL'
        ? { valid: true, included: false }
        : { valid: false, included: false },
    );
    render(withProviders(<Harness />));
    await write(field(), 'NOPE');
    expect(await screen.findByText('Invalid access code.')).toBeTruthy();
    await write(field(), 'demo-normal');
    expect(await screen.findByText('Valid access code.')).toBeTruthy();
  });
});
