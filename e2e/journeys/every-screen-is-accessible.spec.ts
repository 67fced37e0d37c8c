import type { Page } from '@playwright/test';
import { catalog, type Lang } from '../support/catalog';
import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

/**
 * Issue 15: every screen, in English and in Portuguese, without serious or critical axe violations and with
 * all content in landmarks. The journeys' fixture checks each screen as it appears; this tour makes sure
 * each one is shown, and checks it at once (`expectAccessible`) so a failure names the screen.
 */

test.use({ timezoneId: 'Europe/Lisbon' });

/** Waits for the screen's heading, then checks it. */
async function screen(page: Page, heading: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expectAccessible(page);
}

for (const lang of ['en', 'pt'] as const satisfies Lang[]) {
  const { t } = catalog(lang);

  test.describe(`every screen in ${lang}`, () => {
    test('the screens before logging in', async ({ page }) => {
      await page.goto(`/?lang=${lang}`);
      await screen(page, t('login.heading'));
      await page.getByRole('link', { name: t('login.new_customer') }).click();
      await expect(page).toHaveURL(/\/registration/);
      await expectAccessible(page);
      await page.goto(`/?lang=${lang}`);
      await page.getByRole('link', { name: t('login.reset_password') }).click();
      await expect(page).toHaveURL(/\/resetpassword/);
      await expectAccessible(page);
      await page.goto(`/newpassword?token=not-a-token&lang=${lang}`);
      await expect(page.getByRole('button').first()).toBeVisible();
      await expectAccessible(page);
      for (const path of [
        '/no-such-screen',
        '/confirmappointment/not-a-hash',
        '/requestsent/not-a-hash',
        '/appointment',
      ]) {
        await page.goto(`${path}?lang=${lang}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page);
      }
    });

    test('the customer’s screens', async ({ page }) => {
      await logIn(page, DEMO.customer.email, undefined, lang);
      await screen(page, t('modes.customer.appointment_req'));
      await openMode(page, t('modes.customer.appointments'));
      // The demo's confirmed appointment: its detail.
      await page.getByRole('row').nth(1).getByRole('cell').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      await page
        .getByRole('navigation')
        .getByRole('link', { name: t('nav.my_data') })
        .click();
      await expect(page).toHaveURL(/\/customerdata/);
      await expectAccessible(page);
      await page.getByRole('button', { name: t('pets.record_named', { name: 'Bolinha' }) }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page);
    });

    for (const role of ['vet', 'manager'] as const) {
      test(`the ${role}’s screens`, async ({ page }) => {
        await logIn(page, DEMO[role].email, undefined, lang);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectAccessible(page);
        // Every mode the navbar offers, so a new one is checked too.
        const modes = page
          .getByRole('navigation')
          .getByRole('group', { name: t('nav.mode') })
          .getByRole('link');
        // allTextContents does not wait: read the modes once the navbar shows them, or none would be visited.
        await expect(modes.first()).toBeVisible();
        const names = await modes.allTextContents();
        expect(names.length).toBeGreaterThan(1);
        for (const mode of names) await openMode(page, mode);
        await page
          .getByRole('navigation')
          .getByRole('link', { name: t('nav.my_data') })
          .click();
        await expect(page).toHaveURL(new RegExp(`/${role}data`));
        await expectAccessible(page);
      });
    }
  });
}

async function openMode(page: Page, name: string) {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await screen(page, name);
}
