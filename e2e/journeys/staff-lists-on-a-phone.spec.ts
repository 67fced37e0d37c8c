import type { Locator, Page } from '@playwright/test';
import { catalog } from '../support/catalog';
import { DEMO, expect, logIn, test } from '../support/fixtures';

/**
 * Issue 15: on a phone (390 px) the staff's lists are cards, and each row's operations are on screen, not in a
 * column scrolled out of view.
 */

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, timezoneId: 'Europe/Lisbon' });

const { t } = catalog('en');

async function expectOnScreen(control: Locator) {
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.x, `${control} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${control} ends on screen`).toBeLessThanOrEqual(PHONE.width);
}

/** Nothing on the page is wider than the phone. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

async function openMode(page: Page, name: string) {
  await page.getByRole('button', { name: t('nav.open_menu') }).click();
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
}

test('the manager’s vets show Edit, Photo and Delete on a phone', async ({ page }) => {
  await logIn(page, DEMO.manager.email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('modes.manager.vets'));
  const card = page
    .getByRole('list', { name: t('modes.manager.vets') })
    .getByRole('listitem')
    .filter({
      hasText: DEMO.vet.email,
    });
  await expectOnScreen(page.getByRole('button', { name: t('staff.edit_named', { name: DEMO.vet.name }) }));
  await expectOnScreen(card.getByRole('button', { name: t('staff.upload_photo') }));
  await expectOnScreen(page.getByRole('button', { name: t('staff.remove_named', { name: DEMO.vet.name }) }));
  await expectNoSidewaysScroll(page);
});

test('the vet’s appointments show Details on a phone', async ({ page }) => {
  await logIn(page, DEMO.vet.email);
  await openMode(page, t('modes.vet.appointments'));
  const details = page.getByRole('button', { name: /^Details of appointment/ }).first();
  await expectOnScreen(details);
  await expectNoSidewaysScroll(page);
  // The card's button opens the appointment, as the table row's does.
  await details.click();
  await expect(page.getByRole('dialog')).toBeVisible();
});
