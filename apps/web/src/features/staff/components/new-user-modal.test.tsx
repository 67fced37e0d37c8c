import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi, refusal } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { NewUserModal } from './new-user-modal';

/** POST /api/users/{type}: a new user id, or 409 email_in_use for the taken address. */
function fakeServer() {
  return fakeApi().answer(
    'POST',
    /^\/api\/users\/(vet|manager)$/,
    z.object({ user_id: z.number().int() }),
    ({ body }) =>
      (body as { email: string }).email === 'marta@vetcall.test'
        ? refusal(409, { error: 'email_in_use', message: 'taken', fields: { email: 'taken' } })
        : { user_id: 9 },
    { status: 201 },
  );
}

function renderModal(type: 'vet' | 'manager') {
  const onClose = vi.fn();
  render(withProviders(<NewUserModal type={type} opened onClose={onClose} />));
  return { onClose, dialog: within(screen.getByRole('dialog')) };
}

type Dialog = ReturnType<typeof renderModal>['dialog'];

/** Pasted rather than typed: each key press re-renders the form, slow in jsdom. */
async function write(dialog: Dialog, label: RegExp, text: string) {
  await userEvent.click(dialog.getByLabelText(label));
  await userEvent.paste(text);
}

async function fillManager(dialog: Dialog, email: string, confirmation = 'staff-secret-1') {
  await write(dialog, /^Name/, 'Nuno Reis');
  await write(dialog, /^Email/, email);
  await write(dialog, /^Password/, 'staff-secret-1');
  await write(dialog, /^Confirm password/, confirmation);
}

const create = (dialog: Dialog) => userEvent.click(dialog.getByRole('button', { name: 'Create' }));

describe('NewUserModal', { timeout: 15_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
  });

  it('asks a vet for every field, and sends nothing', async () => {
    const api = fakeServer();
    const { dialog, onClose } = renderModal('vet');
    expect(dialog.getByLabelText(/^Phone/)).toBeTruthy();
    await create(dialog);
    expect(await screen.findByText('Please fill in all fields.')).toBeTruthy();
    expect(dialog.getAllByText('This field is required.')).toHaveLength(6);
    expect(api.calls).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says the passwords mismatch', async () => {
    const api = fakeServer();
    const { dialog } = renderModal('manager');
    await fillManager(dialog, 'nuno@vetcall.test', 'another-secret');
    await create(dialog);
    // The toast's container loads with the first toast (providers.tsx): wait for both messages.
    await waitFor(() => expect(screen.getAllByText('Passwords mismatch')).toHaveLength(2));
    expect(api.calls).toEqual([]);
  });

  it('creates a vet with phone and specialty, says so and closes', async () => {
    const api = fakeServer();
    const { dialog, onClose } = renderModal('vet');
    await write(dialog, /^Name/, 'Dr. Beatriz Nunes');
    await write(dialog, /^Email/, 'beatriz@vetcall.test');
    await write(dialog, /^Phone/, '+351 911 222 333');
    await write(dialog, /^Specialty/, 'Exotic animals');
    await write(dialog, /^Password/, 'vet-secret-1');
    await write(dialog, /^Confirm password/, 'vet-secret-1');
    await create(dialog);
    expect(await screen.findByText('New user added.')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(api.calls).toEqual([
      {
        method: 'POST',
        url: '/api/users/vet',
        body: {
          name: 'Dr. Beatriz Nunes',
          email: 'beatriz@vetcall.test',
          phone: '+351 911 222 333',
          specialty: 'Exotic animals',
          password: 'vet-secret-1',
          confirmation: 'vet-secret-1',
        },
      },
    ]);
  });

  it('creates a manager without phone or specialty', async () => {
    const api = fakeServer();
    const { dialog } = renderModal('manager');
    expect(dialog.queryByLabelText(/^Phone/)).toBeNull();
    expect(dialog.queryByLabelText(/^Specialty/)).toBeNull();
    await fillManager(dialog, 'nuno@vetcall.test');
    await create(dialog);
    expect(await screen.findByText('New user added.')).toBeTruthy();
    expect(api.calls.map((call) => [call.url, call.body])).toEqual([
      [
        '/api/users/manager',
        { name: 'Nuno Reis', email: 'nuno@vetcall.test', password: 'staff-secret-1', confirmation: 'staff-secret-1' },
      ],
    ]);
  });

  it('puts a taken email on its field and keeps the form open', async () => {
    fakeServer();
    const { dialog, onClose } = renderModal('manager');
    await fillManager(dialog, 'marta@vetcall.test');
    await create(dialog);
    expect(await screen.findByText('Email in use: choose another email.')).toBeTruthy();
    expect(dialog.getByText('This email is already in use.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
