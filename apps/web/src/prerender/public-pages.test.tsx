import { describe, expect, it } from 'vitest';
import en from '@vetcall/shared/i18n/en.json';
import ptBR from '@vetcall/shared/i18n/pt-BR.json';
import pt from '@vetcall/shared/i18n/pt.json';
import { TEST_CLIENT_CONFIG } from '../test/client-config';
import { createPublicPageRenderer } from './public-pages';

/** The drawing parsed as the browser would, for queries. */
function parse(html: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
}

describe('the public pages drawn for the server', () => {
  it('draws the login and registration screens in each language, with the page title', async () => {
    const renderer = await createPublicPageRenderer({
      catalogs: { en, pt, 'pt-BR': ptBR },
      clientConfig: { ...TEST_CLIENT_CONFIG, website_url: 'https://clinic.example' },
    });
    const login = await renderer.render('Login', 'en');
    expect(login.title).toBe(en.page_titles.login);
    const loginPage = parse(login.html);
    expect(loginPage.querySelector('h1')?.textContent).toBe(en.login.heading);
    expect(loginPage.querySelector('input[autocomplete="username"]')).not.toBeNull();
    expect(loginPage.querySelector('a[href="/registration"]')?.textContent).toBe(en.login.new_customer);
    expect(loginPage.querySelector('a[href="https://clinic.example"]')).not.toBeNull();

    const registration = await renderer.render('Registration', 'pt');
    expect(registration.title).toBe(pt.page_titles.registration);
    const registrationPage = parse(registration.html);
    expect(registrationPage.querySelector('h1')?.textContent).toBe(pt.registration.heading);
    expect(registrationPage.querySelectorAll('input').length).toBeGreaterThan(8);

    const brazilian = await renderer.render('Registration', 'pt-BR');
    expect(parse(brazilian.html).querySelector('h1')?.textContent).toBe(ptBR.registration.heading);
  });

  it('takes no typing and cannot be sent until the app replaces it; its links work', async () => {
    const renderer = await createPublicPageRenderer({
      catalogs: { en, pt, 'pt-BR': ptBR },
      clientConfig: TEST_CLIENT_CONFIG,
    });
    for (const screen of ['Login', 'Registration'] as const) {
      const page = parse((await renderer.render(screen, 'en')).html);
      const fields = [...page.querySelectorAll('input, textarea')];
      expect(fields.length).toBeGreaterThan(1);
      for (const field of fields) expect(field.hasAttribute('readonly'), field.outerHTML).toBe(true);
      const submits = [...page.querySelectorAll('button[type="submit"], select')];
      expect(submits.length).toBeGreaterThan(0);
      for (const control of submits) expect(control.hasAttribute('disabled'), control.outerHTML).toBe(true);
      // The other buttons (show password, About) do nothing without the app and say so, but keep their look
      // (Mantine hides a disabled show-password button).
      const others = [...page.querySelectorAll('button:not([type="submit"])')];
      expect(others.length).toBeGreaterThan(0);
      for (const button of others) {
        expect(button.hasAttribute('disabled'), button.outerHTML).toBe(false);
        expect(button.getAttribute('aria-disabled'), button.outerHTML).toBe('true');
      }
      expect(page.querySelectorAll('a[href]').length).toBeGreaterThan(0);
    }
  });

  it('draws the customer home for no one: the shell and the booking form held, no name, no data', async () => {
    const renderer = await createPublicPageRenderer({
      catalogs: { en, pt, 'pt-BR': ptBR },
      clientConfig: TEST_CLIENT_CONFIG,
    });
    const drawn = await renderer.render('Customer', 'en');
    expect(drawn.title).toBe(en.page_titles.customer);
    const page = parse(drawn.html);
    expect(page.querySelector('h1')?.textContent).toBe(en.modes.customer.appointment_req);
    expect(page.querySelector('[data-testid="session-user-name"]')?.textContent).toBe('');
    const form = page.querySelector('fieldset');
    expect([form?.hasAttribute('disabled'), form?.getAttribute('aria-busy')]).toEqual([true, 'true']);
    expect(page.querySelector('textarea')?.hasAttribute('readonly')).toBe(true);
    expect([...page.querySelectorAll('select option')].map((option) => option.textContent)).toEqual([
      en.booking.choose_pet,
      en.booking.choose_vet,
    ]);
    // The login screen drawn after it is drawn for no one either.
    expect(
      parse((await renderer.render('Login', 'en')).html).querySelector('input[autocomplete="username"]'),
    ).not.toBeNull();
  });
});
