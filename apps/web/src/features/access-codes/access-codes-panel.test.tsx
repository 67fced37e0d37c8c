import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { type AccessCode, accessCodeSchema } from '@vetcall/shared/schemas/access-code';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { write } from '../../test/user-input';
import { AccessCodesPanel } from './access-codes-panel';

/** A stand-in for the server at the network boundary: codes kept in memory, calls recorded. */
function fakeServer() {
  const codes: AccessCode[] = [
    {
      access_code_id: 1,
      code: 'DEMO-FREE',
      valid_from: '2020-01-01',
      valid_to: '2999-12-31',
      included: true,
      disabled: false,
    },
    {
      access_code_id: 2,
      code: 'DEMO-NORMAL',
      valid_from: '2020-01-01',
      valid_to: '2999-12-31',
      included: false,
      disabled: true,
    },
  ];
  return fakeApi()
    .answer('GET', '/api/appointmentsaccesscodes/', z.array(accessCodeSchema), () => codes)
    .answer('PUT', /^\/api\/appointmentsaccesscodes\/(\d+)\/(disable|enable)$/, accessCodeSchema, ({ match }) => {
      const code = codes.find((c) => c.access_code_id === Number(match[1]))!;
      code.disabled = match[2] === 'disable';
      return code;
    });
}

describe('AccessCodesPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists the codes with included appointments as Free or Normal, and their status', async () => {
    fakeServer();
    render(withProviders(<AccessCodesPanel />));
    const table = await screen.findByRole('table', { name: 'Appointment access codes' });
    const [free, normal] = within(table).getAllByRole('row').slice(1);
    expect(within(free!).getByText('DEMO-FREE')).toBeTruthy();
    expect(within(free!).getByText('Free')).toBeTruthy();
    expect(within(free!).getByText('Active')).toBeTruthy();
    expect(within(normal!).getByText('Normal')).toBeTruthy();
    expect(within(normal!).getByText('Disabled')).toBeTruthy();
  });

  it('disables and enables a code from its row', async () => {
    const { calls } = fakeServer();
    render(withProviders(<AccessCodesPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Disable DEMO-FREE' }));
    expect(await screen.findByText('Access code DEMO-FREE disabled.')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Enable DEMO-NORMAL' }));
    expect(await screen.findByText('Access code DEMO-NORMAL enabled.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.url)).toEqual([
      '/api/appointmentsaccesscodes/1/disable',
      '/api/appointmentsaccesscodes/2/enable',
    ]);
  });

  it('checks the dates before sending, and shows a taken code on its field', async () => {
    const { calls } = fakeServer().refuse('POST', '/api/appointmentsaccesscodes/', 409, {
      error: 'access_code_exists',
      message: 'x',
      fields: { code: 'taken' },
    });
    render(withProviders(<AccessCodesPanel />));
    const form = (await screen.findByRole('heading', { name: 'New access code' })).closest('section')!;
    await userEvent.type(within(form).getByLabelText(/^Code/), 'demo-free');
    // Dates as the English fields show them, pasted (typing re-renders the open calendar per key).
    await userEvent.click(within(form).getByLabelText(/^Valid from/));
    await userEvent.paste('07/01/2030');
    await userEvent.click(within(form).getByLabelText(/^Valid to/));
    await userEvent.paste('06/01/2030');
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(await within(form).findByText('Valid to must not be before valid from.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await write(within(form).getByLabelText(/^Valid to/), '08/01/2030');
    await userEvent.click(within(form).getByLabelText('Included appointment (free)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect(await within(form).findByText('This access code already exists.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/appointmentsaccesscodes/',
        body: { code: 'DEMO-FREE', valid_from: '2030-07-01', valid_to: '2030-08-01', included: true },
      },
    ]);
  });
});
