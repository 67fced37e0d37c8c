import { DEMO, expect, logIn, test } from '../support/fixtures';

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

for (const account of [DEMO.customer, DEMO.vet, DEMO.manager]) {
  test(`a reload of ${account.home} keeps the person there, logged in`, async ({ page }) => {
    await logIn(page, account.email);
    await expect(page).toHaveURL(new RegExp(`${account.home}$`));
    const token = await page.evaluate(() => localStorage.getItem('vetcall.token'));
    expect(token).toBeTruthy();

    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${account.home}$`));
    await expect(page).toHaveTitle(account.title);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Start' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBe(token);
    // The session still works on the server: a second reload is the same.
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${account.home}$`));
    await expect(page).toHaveTitle(account.title);
  });
}

test('after a reload, typing another guarded address still goes through /', async ({ page }) => {
  await logIn(page, DEMO.customer.email);
  await expect(page).toHaveURL(/\/customer$/);
  await page.reload();
  await expect(page).toHaveURL(/\/customer$/);

  await page.goto('/manager');
  await expect(page).toHaveURL(/\/\?redirect=%2Fmanager$/);
  await expect(page).toHaveTitle('Login');
  expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBeNull();
});

test('typing the guarded address in a new tab goes through / (a reload is of this tab only)', async ({ context }) => {
  const first = await context.newPage();
  await logIn(first, DEMO.vet.email);
  await expect(first).toHaveURL(/\/vet$/);
  const second = await context.newPage();
  await second.goto('/vet');
  await expect(second).toHaveURL(/\/\?redirect=%2Fvet$/);
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
