import { expect, test } from '@playwright/test';
import { DEMO, logIn } from '../support/fixtures';

test('a direct visit of /manager clears local storage and goes to / with redirect=/manager', async ({ page }) => {
  await page.goto('/?lang=en');
  await page.evaluate(() => {
    localStorage.setItem('vetcall.token', 'stale');
    localStorage.setItem('vetcall.user', '{"user_id":1,"type":"manager","name":"x","email":"x","locale":"en"}');
  });
  await page.goto('/manager');
  await expect(page).toHaveURL(/\/\?redirect=%2Fmanager$/);
  await expect(page).toHaveTitle('Login');
  expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('vetcall.user'))).toBeNull();
});

test('a logged-in user who reloads their page is sent to login (entry not from an allowed screen)', async ({
  page,
}) => {
  await logIn(page, DEMO.customer.email);
  await expect(page).toHaveURL(/\/customer$/);
  await page.reload();
  await expect(page).toHaveURL(/\/\?redirect=%2Fcustomer$/);
});

test('entry from CustomerData is allowed: Start from My Data keeps the session', async ({ page }) => {
  await logIn(page, DEMO.customer.email);
  await page.getByRole('link', { name: 'My Data' }).click();
  await expect(page).toHaveURL(/\/customerdata\?lang=en&access=customer$/);
  await expect(page).toHaveTitle('Customer Data');
  await page.getByRole('navigation').getByRole('link', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/customer$/);
  await expect(page).toHaveTitle('Customer Mode - Schedule Appointment');
  expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBeTruthy();
});

test('one access type cannot enter the page of another', async ({ page }) => {
  await logIn(page, DEMO.customer.email);
  await expect(page).toHaveURL(/\/customer$/);
  await page.getByRole('link', { name: 'My Data' }).click();
  await page.evaluate(() => {
    window.history.pushState({}, '', '/manager');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/\?redirect=%2Fmanager$/);
});
