import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { z } from 'zod';
import { userRowSchema } from '@vetcall/shared/schemas/staff';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { CustomersTable } from './customers-table';

function renderTable() {
  const router = createMemoryRouter([{ path: '/manager', element: <CustomersTable /> }], {
    initialEntries: ['/manager'],
  });
  render(withProviders(<RouterProvider router={router} />));
}

describe('CustomersTable', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists customers view-only, each with a link to their data', async () => {
    fakeApi().answer('GET', '/api/users/customer', z.array(userRowSchema), [
      {
        user_id: 5,
        type: 'customer',
        name: 'Rita Carvalho',
        email: 'rita+pets@example.test',
        active: true,
        phone: '912 000 111',
        address: 'Rua dos Açores',
        tax_id: '245678901',
        customer_id: 3,
      },
    ]);
    renderTable();
    const table = await screen.findByRole('table', { name: 'Customers' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'IDNameEmailPhoneAddressVAT numberOperations',
      '5Rita Carvalhorita+pets@example.test912 000 111Rua dos Açores245678901Open data',
    ]);
    expect(screen.getByRole('link', { name: 'Open data of Rita Carvalho' }).getAttribute('href')).toBe(
      '/customerdata?lang=en&access=manager&email=rita%2Bpets%40example.test',
    );
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export to Excel' })).toBeTruthy();
  });

  it('says when the list cannot be loaded', async () => {
    fakeApi().refuse('GET', '/api/users/customer', 403, { error: 'forbidden', message: 'no' });
    renderTable();
    // The list is asked for a second time (one retry, a second later) before the failure shows.
    expect(await screen.findByText('You are not allowed to do this.', undefined, { timeout: 4000 })).toBeTruthy();
  });
});
