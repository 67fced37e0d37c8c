import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

test.describe('each demo role logs in and lands on its page', () => {
  for (const role of Object.keys(DEMO) as (keyof typeof DEMO)[]) {
    const account = DEMO[role];
    test(role, async ({ page }) => {
      await logIn(page, account.email);
      await expect(page).toHaveURL(new RegExp(`${account.home}$`));
      await expect(page).toHaveTitle(account.title);
      await expect(page.getByTestId('session-user-name')).toHaveText(account.name);
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Start' })).toBeVisible();
      await expect(page.getByRole('navigation').getByRole('link', { name: 'My Data' })).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('a wrong password shows the invalid login message and stays on login', async ({ page }) => {
    await logIn(page, DEMO.customer.email, 'not-the-password');
    await expect(page.getByText('Invalid login: check your email and password.')).toBeVisible();
    await expect(page).toHaveURL(/\/\?lang=en$/);
    await expectAccessible(page);
  });

  test('logout revokes the session and returns to login', async ({ page }) => {
    await logIn(page, DEMO.vet.email);
    await expect(page).toHaveURL(/\/vet$/);
    const token = await page.evaluate(() => localStorage.getItem('vetcall.token'));
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBeNull();
    const me = await page.request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);
  });

  test('a vet switches modes from the navbar', async ({ page }) => {
    await logIn(page, DEMO.vet.email);
    await page.getByRole('link', { name: 'Appointments' }).click();
    await expect(page).toHaveURL(/\/vet\?mode=appointments$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Appointments');
    // Changing mode is not entering the page anew: the session stays.
    expect(await page.evaluate(() => localStorage.getItem('vetcall.token'))).toBeTruthy();
  });
});
