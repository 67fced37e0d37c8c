import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { icsFeedStatusSchema, icsFeedUrlSchema } from '@vetcall/shared/schemas/ics-feed';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { IcsFeedPanel } from './ics-feed-panel';

const FEED_URL = 'http://localhost:3000/api/ics/4/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde.ics';

/** The vet's feed at the network boundary: whether it is on, a new URL on POST, off on DELETE. */
function fakeServer(options: { enabled: boolean; createFails?: boolean }) {
  return fakeApi()
    .answer('GET', '/api/vets/icsfeed/4', icsFeedStatusSchema, { enabled: options.enabled })
    .answer('POST', '/api/vets/icsfeed/4', icsFeedUrlSchema, () =>
      options.createFails ? refusal(500, { error: 'internal_error', message: 'x' }) : { url: FEED_URL },
    )
    .answer('DELETE', '/api/vets/icsfeed/4', icsFeedStatusSchema, { enabled: false });
}

const changes = (api: ReturnType<typeof fakeServer>) =>
  api.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.url}`);

describe('IcsFeedPanel', () => {
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

  it('creates a subscription link and shows it once, ready to copy', async () => {
    const api = fakeServer({ enabled: false });
    render(withProviders(<IcsFeedPanel vetId={4} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Create subscription link' }));
    expect(await screen.findByText('Subscription link created.')).toBeTruthy();
    const link = screen.getByRole('textbox', { name: 'Subscription link' });
    expect(link).toHaveProperty('value', FEED_URL);
    expect(link).toHaveProperty('readOnly', true);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create a new link' })).toBeTruthy();
    expect(changes(api)).toEqual(['POST /api/vets/icsfeed/4']);
  });

  it('offers no button until it knows whether a link is active, so no click lands on a label about to change', async () => {
    fakeServer({ enabled: true });
    render(withProviders(<IcsFeedPanel vetId={4} />));
    expect(screen.getByLabelText('Loading…')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Create a new link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create subscription link' })).toBeNull();
  });

  it('makes a new link only after the vet confirms that the old one stops working', async () => {
    const api = fakeServer({ enabled: true });
    render(withProviders(<IcsFeedPanel vetId={4} />));
    expect(await screen.findByText('A subscription link is active. Create a new link if you lost it.')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Create a new link' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Create a new link' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(changes(api)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Create a new link' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Create a new link' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('textbox', { name: 'Subscription link' })).toHaveProperty('value', FEED_URL);
    expect(changes(api)).toEqual(['POST /api/vets/icsfeed/4']);
  });

  it('turns the link off after confirmation', async () => {
    const api = fakeServer({ enabled: true });
    render(withProviders(<IcsFeedPanel vetId={4} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Turn off' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Subscription link turned off.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create subscription link' })).toBeTruthy();
    expect(changes(api)).toEqual(['DELETE /api/vets/icsfeed/4']);
  });

  it('says when the link cannot be made', async () => {
    fakeServer({ enabled: false, createFails: true });
    render(withProviders(<IcsFeedPanel vetId={4} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Create subscription link' }));
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Subscription link' })).toBeNull();
  });
});
