import type { Page } from '@playwright/test';
import { catalog } from '../support/catalog';
import { DEMO, DEMO_PASSWORD, expect, expectAccessible, test } from '../support/fixtures';

/** Where each heading, label, field, link and button of the page is, and what it says. */
async function layout(page: Page) {
  return page.locator('#root').evaluate((root) =>
    [...root.querySelectorAll('h1, label, input, a, button, p')].map((element) => {
      const box = element.getBoundingClientRect();
      const place = [box.x, box.y, box.width, box.height].map(Math.round).join(',');
      return `${element.tagName} ${place} ${(element.textContent ?? '').trim()}`;
    }),
  );
}

/** The page as the server drew it: what a browser shows before any of the app's JavaScript has run. */
async function drawnLayout(page: Page, address: string) {
  await page.route('**/*.js', (route) => route.abort());
  await page.goto(address);
  await expect(page.locator('#root[data-prerendered]')).toBeAttached();
  const drawn = { layout: await layout(page), title: await page.title() };
  await page.unroute('**/*.js');
  return drawn;
}

for (const [path, headingKey, lang] of [
  ['/', 'login.heading', 'en'],
  ['/registration', 'registration.heading', 'en'],
  ['/', 'login.heading', 'pt'],
  ['/registration', 'registration.heading', 'pt'],
] as const) {
  const address = `${path}?lang=${lang}`;
  const heading = catalog(lang).t(headingKey);
  test(`${address} is drawn by the server, and the app takes it over without moving anything`, async ({ page }) => {
    const drawn = await drawnLayout(page, address);
    expect(drawn.layout.find((line) => line.startsWith('H1 '))).toContain(heading);

    await page.goto(address);
    await expect(page.locator('#root:not([data-prerendered])')).toBeAttached();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    expect(await page.title()).toBe(drawn.title);
    expect(await layout(page)).toEqual(drawn.layout);
    await expectAccessible(page);
  });
}

test('a person who types as soon as the login page shows is logged in', async ({ page }) => {
  await page.goto('/?lang=en');
  // Playwright waits for the field to take typing: the drawing's fields do not, the app's do.
  await page.getByRole('textbox', { name: 'Email' }).fill(DEMO.customer.email);
  await page.locator('input[autocomplete="current-password"]').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/customer$/);
});

test('a keyboard user who moves through the drawn page keeps their place when the app takes over', async ({ page }) => {
  // The app's start is held back until the person has reached the email field of the drawing.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/?lang=en');
  const drawnEmail = page.locator('#root[data-prerendered] input[autocomplete="username"]');
  await expect(drawnEmail).toBeAttached();
  for (let presses = 0; presses < 10; presses += 1) {
    if (await drawnEmail.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(drawnEmail).toBeFocused();

  release();
  await expect(page.locator('#root:not([data-prerendered])')).toBeAttached();
  const email = page.getByRole('textbox', { name: 'Email' });
  await expect(email).toBeFocused();
  expect(await email.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
  await page.keyboard.type(DEMO.customer.email);
  await expect(email).toHaveValue(DEMO.customer.email);
});
