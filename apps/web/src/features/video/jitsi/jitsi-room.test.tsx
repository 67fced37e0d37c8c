import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PinLookup } from '@vetcall/shared/schemas/video';
import { loadTestClientConfig } from '../../../test/client-config';
import { initTestI18n, withProviders } from '../../../test/render';
import { JITSI_TOOLBAR_BUTTONS, JitsiRoom } from './jitsi-room';
import type { JitsiMeetExternalApiConstructor } from './load-jitsi-api';
import { FakeJitsiApi } from '../../../test/fake-jitsi-api';

const lookup: PinLookup = {
  user_email: 'ana@vetcall.test',
  user_name: 'Ana Dona',
  hash: 'Ab-9_xYz0123456789abcd',
  party: 'customer',
  opens_at: '2026-03-10T13:30:00.000Z',
  closes_at: '2026-03-10T15:00:00.000Z',
};

async function renderRoom(props: { lookup?: PinLookup; onLeave?: () => void } = {}) {
  const onLeave = props.onLeave ?? vi.fn();
  const utils = render(withProviders(<JitsiRoom lookup={props.lookup ?? lookup} onLeave={onLeave} />));
  return { ...utils, onLeave };
}

/** The one room made so far, once the (fake) script has been taken from the page. */
async function theRoom(): Promise<FakeJitsiApi> {
  await waitFor(() => expect(FakeJitsiApi.instances).toHaveLength(1));
  return FakeJitsiApi.instances[0]!;
}

describe('JitsiRoom', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig({ video_provider: 'jitsi', jitsi_domain: 'meet.clinic.test' });
    FakeJitsiApi.instances = [];
    window.JitsiMeetExternalAPI = FakeJitsiApi as unknown as JitsiMeetExternalApiConstructor;
  });
  afterEach(async () => {
    delete window.JitsiMeetExternalAPI;
    for (const script of document.head.querySelectorAll('script')) script.remove();
    await i18next.changeLanguage('en');
    vi.restoreAllMocks();
  });

  it('opens the room named by the appointment hash, with the toolbar of docs/product-rules.md#api and no prejoin page', async () => {
    await renderRoom();
    const room = await theRoom();
    expect(room.domain).toBe('meet.clinic.test');
    const { options } = room;
    expect(options.roomName).toBe(lookup.hash);
    expect(options).toMatchObject({ width: '100%', height: '100%', lang: 'en' });
    expect(options.userInfo).toEqual({ displayName: 'Ana Dona', email: 'ana@vetcall.test' });
    expect(options.configOverwrite).toEqual({
      prejoinConfig: { enabled: false },
      prejoinPageEnabled: false,
      enableWelcomePage: false,
      doNotStoreRoom: true,
      disableDeepLinking: true,
      toolbarButtons: [
        'microphone',
        'camera',
        'desktop',
        'fullscreen',
        'fodeviceselection',
        'hangup',
        'chat',
        'videoquality',
        'tileview',
        'select-background',
        'sharedvideo',
        'download',
      ],
      dynamicBrandingUrl: `${window.location.origin}/api/video/jitsi-branding`,
    });
    expect(JITSI_TOOLBAR_BUTTONS).toHaveLength(12);
    expect(options.interfaceConfigOverwrite).toEqual({
      SHOW_JITSI_WATERMARK: false,
      SHOW_WATERMARK_FOR_GUESTS: false,
      MOBILE_APP_PROMO: false,
    });
    // Without token auth no jwt is passed at all.
    expect(options).not.toHaveProperty('jwt');
    // The iframe goes inside the room's region, and the loader is gone.
    expect(screen.getByRole('region', { name: 'Video consultation' }).contains(options.parentNode)).toBe(true);
    await waitFor(() => expect(screen.queryByLabelText('Loading…')).toBeNull());
  });

  it('passes the token of the lookup when the server sent one', async () => {
    await renderRoom({ lookup: { ...lookup, jitsi_jwt: 'header.payload.signature' } });
    expect((await theRoom()).options.jwt).toBe('header.payload.signature');
  });

  it.each([
    ['en', 'en'],
    ['pt', 'pt'],
    ['pt-BR', 'ptBR'],
  ])('speaks Jitsi language %s as %s', async (locale, jitsiLang) => {
    await i18next.changeLanguage(locale);
    await renderRoom();
    expect((await theRoom()).options.lang).toBe(jitsiLang);
  });

  it('goes back once when Jitsi says the call is over, whichever events come', async () => {
    const { onLeave } = await renderRoom();
    const room = await theRoom();
    expect(onLeave).not.toHaveBeenCalled();
    act(() => room.emit('readyToClose'));
    expect(onLeave).toHaveBeenCalledTimes(1);
    act(() => {
      room.emit('videoConferenceLeft');
      room.emit('readyToClose');
    });
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('also goes back on videoConferenceLeft alone', async () => {
    const { onLeave } = await renderRoom();
    const room = await theRoom();
    act(() => room.emit('videoConferenceLeft'));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('disposes of the room when it unmounts, and does not remake it on a new lookup of the same PIN', async () => {
    const { rerender, unmount } = await renderRoom();
    const room = await theRoom();
    rerender(withProviders(<JitsiRoom lookup={{ ...lookup, jitsi_jwt: 'a.fresh.token' }} onLeave={vi.fn()} />));
    expect(FakeJitsiApi.instances).toHaveLength(1);
    expect(room.dispose).not.toHaveBeenCalled();
    unmount();
    expect(room.dispose).toHaveBeenCalledTimes(1);
  });

  it('shows a loader while the script loads, then an alert with a way back when it fails', async () => {
    delete window.JitsiMeetExternalAPI;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onLeave = vi.fn();
    await renderRoom({ onLeave });
    expect(screen.getByLabelText('Loading…')).toBeTruthy();
    const script = document.head.querySelector<HTMLScriptElement>(
      'script[src="https://meet.clinic.test/external_api.js"]',
    );
    expect(script).not.toBeNull();

    act(() => {
      script!.dispatchEvent(new Event('error'));
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The video room could not be opened');
    expect(alert.textContent).toContain('The video service did not answer.');
    expect(screen.queryByLabelText('Loading…')).toBeNull();
    expect(FakeJitsiApi.instances).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('shows the alert when no Jitsi domain is configured', async () => {
    await loadTestClientConfig({ video_provider: 'jitsi', jitsi_domain: null });
    await renderRoom();
    expect((await screen.findByRole('alert')).textContent).toContain('The video room could not be opened');
    expect(FakeJitsiApi.instances).toHaveLength(0);
  });
});
