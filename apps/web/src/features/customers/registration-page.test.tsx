import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { emailCheckResponseSchema, userIdResponseSchema } from '@vetcall/shared/schemas/customer';
import { postalCodeLookupSchema } from '@vetcall/shared/schemas/postal-code';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { write } from '../../test/user-input';
import { RegistrationPage } from './registration-page';

/** The server at the network boundary: a free email, one known postal code, and the registration. */
function fakeServer(options: { takenEmail?: string } = {}) {
  return fakeApi()
    .answer('GET', /^\/api\/users\/checkemail\//, emailCheckResponseSchema, ({ url }) =>
      url.endsWith(encodeURIComponent(options.takenEmail ?? '-')) ? [{ email: options.takenEmail! }] : [],
    )
    .answer('GET', '/api/postalcodes/PT/1000-001', postalCodeLookupSchema, {
      country: 'PT',
      postal_code: '1000-001',
      city: 'Lisboa',
      state: 'Lisboa',
      address: 'Rua dos Açores',
    })
    .refuse('GET', /^\/api\/postalcodes\/PT\/9999-999/, 404, { error: 'not_found', message: 'unknown code' })
    .answer(
      'POST',
      '/api/users/customer',
      userIdResponseSchema,
      ({ body }) =>
        (body as { email: string }).email === options.takenEmail
          ? refusal(409, { error: 'email_in_use', message: 'taken' })
          : { user_id: 41 },
      { status: 201 },
    );
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/registration', element: <RegistrationPage /> },
      { path: '/', element: <p>login page</p> },
    ],
    '/registration',
  );
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

async function fillCustomer(email: string) {
  await write(field(/^Name/), 'Carla Mendes');
  await write(field(/^Email/), email);
  await write(field(/^Phone/), '912 000 111');
  await write(field(/^VAT number/), '245678901');
  await write(field(/^Postal code/), '1000-001');
  // A complete code is looked up at once and fills the address.
  await waitFor(() => expect(field(/^City/)).toHaveProperty('value', 'Lisboa'));
}

async function fillPasswords(password: string, confirmation: string) {
  await write(screen.getByLabelText(/^Password/), password);
  await write(screen.getByLabelText(/^Confirm password/), confirmation);
}

/** What the strength meter says (it shows once the password has a character). */
const strength = () =>
  screen.queryByRole('meter', { name: 'Strength of the password' })?.getAttribute('aria-valuetext');
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }));
const posted = (api: ReturnType<typeof fakeServer>) => api.calls.filter((call) => call.method === 'POST');

// Filling a dozen Mantine fields takes a few seconds on a busy machine.
describe('RegistrationPage', { timeout: 20_000 }, () => {
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

  it('asks to fill in all fields and sends nothing', async () => {
    const api = fakeServer();
    renderPage();
    await submit();
    expect(await screen.findByText('Please fill in all fields.')).toBeTruthy();
    expect(screen.getAllByText('This field is required.').length).toBeGreaterThanOrEqual(8);
    expect(posted(api)).toEqual([]);
  });

  it('says the passwords mismatch and sends nothing', async () => {
    const api = fakeServer();
    renderPage();
    await fillCustomer('carla@example.test');
    await fillPasswords('my-secret-1', 'my-secret-2');
    await submit();
    // The toast's container loads with the first toast (providers.tsx): wait for both messages.
    await waitFor(() => expect(screen.getAllByText('Passwords mismatch')).toHaveLength(2));
    expect(posted(api)).toEqual([]);
  });

  it('fills the address from the postal code, registers in the current language and goes to the login', async () => {
    const api = fakeServer();
    const { router } = renderPage();
    await fillCustomer('carla@example.test');
    expect(field(/^State/)).toHaveProperty('value', 'Lisboa');
    expect(field(/^Address/)).toHaveProperty('value', 'Rua dos Açores');
    await fillPasswords('my-secret-1', 'my-secret-1');
    await submit();
    expect(await screen.findByText('Your account was created. You can log in now.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(posted(api)).toEqual([
      {
        method: 'POST',
        url: '/api/users/customer',
        body: {
          name: 'Carla Mendes',
          email: 'carla@example.test',
          phone: '912 000 111',
          tax_id: '245678901',
          address: 'Rua dos Açores',
          postal_code: '1000-001',
          city: 'Lisboa',
          state: 'Lisboa',
          country: 'PT',
          vet_center: '',
          password: 'my-secret-1',
          confirmation: 'my-secret-1',
          locale: 'en',
        },
      },
    ]);
  });

  it('shows how guessable the password is as it is typed, and refuses a weak one without sending it', async () => {
    const api = fakeServer();
    renderPage();
    await fillCustomer('carla.mendes@example.test');
    await fillPasswords('qwerty', 'qwerty');
    await waitFor(() => expect(strength()).toBe('Very weak'));
    await submit();
    // Under the field and in the toast, which the notifications store may draw a moment after the field.
    await waitFor(() =>
      expect(screen.getAllByText('Too easy to guess. Use a longer password, or a few unrelated words.')).toHaveLength(
        2,
      ),
    );
    expect(posted(api)).toEqual([]);

    // The person's own name is as guessable as a common word.
    await fillPasswords('carlamendes1', 'carlamendes1');
    await waitFor(() => expect(strength()).toBe('Weak'));

    await fillPasswords('cobalt heron lantern', 'cobalt heron lantern');
    await waitFor(() => expect(strength()).toBe('Very strong'));
    await submit();
    await waitFor(() => expect(posted(api)).toHaveLength(1));
  });

  it('marks a taken email when the field is left, and says so when the server refuses it', async () => {
    const api = fakeServer({ takenEmail: 'rita@example.test' });
    const { router } = renderPage();
    await fillCustomer('rita@example.test');
    expect(await screen.findByText('This email is already in use.')).toBeTruthy();
    await fillPasswords('my-secret-1', 'my-secret-1');
    await submit();
    expect(await screen.findByText('Email in use: choose another email.')).toBeTruthy();
    expect(posted(api)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/registration');
  });

  it('puts an unknown postal code on the city field and clears state and address', async () => {
    fakeServer();
    renderPage();
    await write(field(/^State/), 'Porto');
    await write(field(/^Address/), 'Rua Direita');
    await write(field(/^Postal code/), '9999-999');
    // The toast's container loads with the first toast (providers.tsx): wait for both messages.
    await waitFor(() => expect(screen.getAllByText('Invalid postal code.')).toHaveLength(2));
    expect(field(/^State/)).toHaveProperty('value', '');
    expect(field(/^Address/)).toHaveProperty('value', '');
  });
});
