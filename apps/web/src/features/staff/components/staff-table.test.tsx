import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { type UserRow, userRowSchema } from '@vetcall/shared/schemas/staff';
import { authStore } from '../../../lib/auth-store';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi, refusal } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { PHONE_WIDTH, setViewportWidth } from '../../../test/viewport';
import { write } from '../../../test/user-input';
import { StaffTable } from './staff-table';

const vets: UserRow[] = [
  {
    user_id: 3,
    type: 'vet',
    name: 'Dr. João Silva',
    email: 'joao@vetcall.test',
    active: true,
    phone: '+351 911 000 111',
    specialty: 'Dermatology',
    vet_id: 1,
  },
  {
    user_id: 4,
    type: 'vet',
    name: 'Dra. Ana Souza',
    email: 'ana@vetcall.test',
    active: true,
    phone: '+351 911 000 222',
    specialty: 'Small animals',
    vet_id: 2,
  },
];
const managers: UserRow[] = [
  { user_id: 1, type: 'manager', name: 'Marta Ferreira', email: 'marta@vetcall.test', active: true },
  { user_id: 2, type: 'manager', name: 'Nuno Reis', email: 'nuno@vetcall.test', active: true },
];

const userIdAnswer = z.object({ user_id: z.number().int() });

/** The server at the network boundary: the user lists, the single-field updates and the removal. */
function fakeServer(options: { takenEmail?: string } = {}) {
  return fakeApi()
    .answer('GET', '/api/users/vet', z.array(userRowSchema), vets)
    .answer('GET', '/api/users/manager', z.array(userRowSchema), managers)
    .answer('POST', /^\/api\/users\/(name|email|vetphone|vetspecialty)\/(\d+)$/, userIdAnswer, ({ match, body }) =>
      match[1] === 'email' && (body as { email: string }).email === options.takenEmail
        ? refusal(409, { error: 'email_in_use', message: 'taken' })
        : { user_id: Number(match[2]) },
    )
    .answer(
      'DELETE',
      /^\/api\/users\/(\d+)$/,
      z.object({ user_id: z.number().int(), active: z.literal(false) }),
      ({ match }) => ({
        user_id: Number(match[1]),
        active: false as const,
      }),
    );
}

const changes = (api: ReturnType<typeof fakeServer>) => api.calls.filter((call) => call.method !== 'GET');
const listLoads = (api: ReturnType<typeof fakeServer>) => api.calls.filter((call) => call.method === 'GET').length;

/** The row whose cell reads `name` (the ID cell of a row in editing). */
async function rowOf(name: string) {
  return within((await screen.findByRole('cell', { name })).closest('tr')!);
}

describe('StaffTable', { timeout: 15_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', {
      user_id: 1,
      type: 'manager',
      name: 'Marta Ferreira',
      email: 'marta@vetcall.test',
      locale: 'en',
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
  });

  it('lists the vets with phone and specialty, and offers New Vet', async () => {
    fakeServer();
    render(withProviders(<StaffTable type="vet" />));
    const table = await screen.findByRole('table', { name: 'Vets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['ID', 'Photo', 'Name', 'Email', 'Phone', 'Specialty', 'Operations']);
    const row = await rowOf('3');
    expect(row.getByRole('cell', { name: '+351 911 000 111' })).toBeTruthy();
    expect(row.getByRole('img', { name: 'Dr. João Silva' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New Vet' })).toBeTruthy();
  });

  it('on a phone, shows each vet as a card with its fields and its operations, and edits in the card', async () => {
    setViewportWidth(PHONE_WIDTH);
    const api = fakeServer();
    render(withProviders(<StaffTable type="vet" />));
    const list = await screen.findByRole('list', { name: 'Vets' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getAllByRole('listitem')[0]!);
    expect(card.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'ID',
      'Photo',
      'Name',
      'Email',
      'Phone',
      'Specialty',
    ]);
    expect(card.getByText('+351 911 000 111')).toBeTruthy();
    const operations = within(card.getByRole('group', { name: 'Operations' }));
    expect(operations.getByRole('button', { name: 'Edit Dr. João Silva' })).toBeTruthy();
    expect(operations.getByRole('button', { name: /^Photo/ })).toBeTruthy();
    expect(operations.getByRole('button', { name: 'Delete Dr. João Silva' })).toBeTruthy();

    await userEvent.click(operations.getByRole('button', { name: 'Edit Dr. João Silva' }));
    await write(card.getByRole('textbox', { name: 'Phone' }), '+351 933 444 555');
    await userEvent.click(card.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Data edited.')).toBeTruthy();
    expect(changes(api)).toEqual([
      { method: 'POST', url: '/api/users/vetphone/3', body: { phone: '+351 933 444 555' } },
    ]);
  });

  it('edits a row inline and sends only the fields that changed', async () => {
    const api = fakeServer();
    render(withProviders(<StaffTable type="vet" />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Dr. João Silva' }));
    const row = await rowOf('3');
    await write(row.getByRole('textbox', { name: 'Phone' }), '+351 933 444 555');
    await write(row.getByRole('textbox', { name: 'Specialty' }), 'Exotic animals');
    const loadsBefore = listLoads(api);
    await userEvent.click(row.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Data edited.')).toBeTruthy();
    expect(changes(api)).toEqual([
      { method: 'POST', url: '/api/users/vetphone/3', body: { phone: '+351 933 444 555' } },
      { method: 'POST', url: '/api/users/vetspecialty/3', body: { specialty: 'Exotic animals' } },
    ]);
    await waitFor(() => expect(listLoads(api)).toBeGreaterThan(loadsBefore));
    expect(screen.queryByRole('textbox', { name: 'Phone' })).toBeNull();
  });

  it('checks the edited fields before sending', async () => {
    const api = fakeServer();
    render(withProviders(<StaffTable type="vet" />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Dra. Ana Souza' }));
    const row = await rowOf('4');
    await write(row.getByRole('textbox', { name: 'Phone' }), '123');
    await userEvent.clear(row.getByRole('textbox', { name: 'Name' }));
    await userEvent.click(row.getByRole('button', { name: 'Save' }));
    expect(await row.findByText('Too short.')).toBeTruthy();
    expect(row.getByText('This field is required.')).toBeTruthy();
    expect(changes(api)).toEqual([]);
  });

  it('says when the new email is in use', async () => {
    fakeServer({ takenEmail: 'ana@vetcall.test' });
    render(withProviders(<StaffTable type="vet" />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Dr. João Silva' }));
    await write((await rowOf('3')).getByRole('textbox', { name: 'Email' }), 'ana@vetcall.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email in use: choose another email.')).toBeTruthy();
  });

  it('deletes a user after confirmation, and nothing when the confirmation is cancelled', async () => {
    const api = fakeServer();
    render(withProviders(<StaffTable type="vet" />));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Dra. Ana Souza' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete user?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(changes(api)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Dra. Ana Souza' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete user?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User removed.')).toBeTruthy();
    expect(changes(api)).toEqual([{ method: 'DELETE', url: '/api/users/4', body: undefined }]);
  });

  it('shows managers without phone and specialty, and no Delete on the manager who is logged in', async () => {
    fakeServer();
    render(withProviders(<StaffTable type="manager" />));
    const table = await screen.findByRole('table', { name: 'Managers' });
    expect(within(table).queryByRole('columnheader', { name: 'Phone' })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Specialty' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Nuno Reis' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Marta Ferreira' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New Manager' })).toBeTruthy();
  });
});
