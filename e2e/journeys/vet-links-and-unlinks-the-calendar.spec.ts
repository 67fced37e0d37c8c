import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

test('the second demo vet unlinks the calendar, is kept out of availability, links it again and subscribes to the feed', async ({
  page,
}) => {
  await logIn(page, DEMO.vet2.email);
  const navbar = page.getByRole('navigation');
  await navbar.getByRole('link', { name: 'My Data' }).click();
  const calendar = page.getByRole('region', { name: 'Calendar', exact: true });
  await expect(calendar.getByText('Linked', { exact: true })).toBeVisible();

  // Unlink (docs/product-rules.md#states Calendar linking): confirmed, then 'calendar association removed'.
  await calendar.getByRole('button', { name: 'Unlink calendar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unlink calendar' }).click();
  await expect(page.getByText('Calendar association removed.')).toBeVisible();
  await expect(calendar.getByText('Not linked', { exact: true })).toBeVisible();

  // Without a calendar the availability modes send the vet back to /vetdata (docs/product-rules.md#vet-screens).
  await navbar.getByRole('link', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/vetdata\?lang=en&access=vet$/);
  await expect(page.getByText('Link a calendar to your account before setting your availability.')).toBeVisible();

  // Link: the built-in provider's consent screen, then /auth/callback, then OK back to /vetdata.
  await calendar.getByRole('button', { name: 'Link calendar' }).click();
  await expect(page).toHaveURL(/\/calendar\/authorize\?/);
  const authorize = new URL(page.url());
  expect(authorize.searchParams.get('scopes')).toBe('Calendar.ReadWrite');
  expect(authorize.searchParams.get('responseType')).toBe('token');
  expect(authorize.searchParams.get('returnUrl')).toMatch(/\/auth\/callback$/);
  expect(authorize.searchParams.get('state')).toMatch(/^vet_id:\d+ lang:en access:vet$/);
  expect(authorize.searchParams.get('loginHint')).toBe(DEMO.vet2.email);
  await expect(page.getByRole('heading', { name: 'Link the VetCall calendar' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(/\/auth\/callback$/);
  await expect(page).toHaveTitle('Auth CallBack');
  await expect(page.getByText('Your calendar is now linked. You can set your availability.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/vetdata\?lang=en&access=vet$/);
  await expect(calendar.getByText('Linked', { exact: true })).toBeVisible();

  // The availability modes are open again.
  await navbar.getByRole('link', { name: 'Available slots' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Available slots');

  // The private ICS subscription: shown once, served as an iCalendar document.
  await navbar.getByRole('link', { name: 'My Data' }).click();
  const feed = page.getByRole('region', { name: 'Calendar subscription' });
  await feed.getByRole('button', { name: 'Create subscription link' }).click();
  await expect(page.getByText('Subscription link created.')).toBeVisible();
  const url = await feed.getByLabel('Subscription link').inputValue();
  expect(url).toMatch(/\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
  const response = await page.request.get(url);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/calendar');
  expect(await response.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
  await expectAccessible(page);
});

test('a callback without a token shows the calendar association problem and a way to support', async ({ page }) => {
  await logIn(page, DEMO.vet.email);
  await page.goto('/auth/callback?state=vet_id:1%20lang:pt%20access:vet');
  await expect(page.getByText('Problema na associação do calendário')).toBeVisible();
  await expect(page.getByText(/contacte o apoio através de/)).toBeVisible();
  await expectAccessible(page);
});
