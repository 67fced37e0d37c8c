import { DEMO, DEMO_PASSWORD, expect, expectAccessible, logIn, test } from '../support/fixtures';
import { firstLink, waitForMail } from '../support/outbox';

test('a user resets a forgotten password from the emailed link and logs in with the new one', async ({ page }) => {
  const email = DEMO.vet2.email;
  await page.goto('/?lang=en');
  await page.getByRole('link', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/resetpassword$/);
  await expect(page).toHaveTitle('Reset Password');
  await expectAccessible(page);

  const since = new Date();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset link sent. Check your email.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const mail = await waitForMail(email, since);
  expect(mail.subject).toBe('Reset your VetCall password');
  const link = firstLink(mail, '/newpassword');
  expect(link).toContain('lang=en');

  await page.goto(link);
  await expect(page).toHaveTitle('Set New Password');
  await expectAccessible(page);
  // A mismatch is refused on the page and nothing is sent.
  await page.getByLabel(/^New password/).fill('brand-new-secret');
  await page.getByLabel(/^Confirm new password/).fill('something-else');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Passwords mismatch').first()).toBeVisible();
  await expect(page).toHaveURL(/\/newpassword\?/);

  await page.getByLabel(/^Confirm new password/).fill('brand-new-secret');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password was changed. You can log in now.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await logIn(page, email, DEMO_PASSWORD);
  await expect(page.getByText('Invalid login: check your email and password.')).toBeVisible();
  await logIn(page, email, 'brand-new-secret');
  await expect(page).toHaveURL(/\/vet$/);

  // The link works once.
  await page.goto(link);
  await page.getByLabel(/^New password/).fill('another-secret');
  await page.getByLabel(/^Confirm new password/).fill('another-secret');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText(/Error resetting password/)).toBeVisible();

  // Put the demo password back for the other journeys.
  const restoreSince = new Date();
  await page.request.post('/api/login/sendpasswordresetemail/en', { data: { email } });
  const restoreLink = firstLink(await waitForMail(email, restoreSince), '/newpassword');
  const token = new URL(restoreLink).searchParams.get('token');
  const restored = await page.request.post('/api/login/updatepassword', { data: { password: DEMO_PASSWORD, token } });
  expect(restored.status()).toBe(200);
});
