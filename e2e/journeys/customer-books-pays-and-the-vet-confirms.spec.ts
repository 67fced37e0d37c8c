import { DEMO, expect, expectAccessible, test } from '../support/fixtures';
import { bookUntilPayment, lisbonWeekdayAhead } from '../support/booking';
import { firstLink, waitForMail } from '../support/outbox';

test.use({ timezoneId: 'Europe/Lisbon' });

test('the demo customer books with a file, pays on the built-in checkout, and the vet confirms from the email', async ({
  page,
  browser,
}) => {
  const started = new Date();
  const date = lisbonWeekdayAhead(3);
  await bookUntilPayment(page, {
    code: 'DEMO-NORMAL',
    date,
    time: '10:30',
    complaint: 'Scratching her ears for a week.',
  });

  // The built-in checkout: what is bought and the amount, a test card.
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+/);
  await expect(page.getByText('€25.00').first()).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel(/^Card number/).fill('4000 0000 0000 0002');
  await page.getByLabel(/^Expiry/).fill('12/30');
  await page.getByLabel(/^CVC/).fill('123');
  await page.getByLabel(/^Name on card/).fill('Rita Carvalho');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByText('The card was declined. Please use another card.')).toBeVisible();
  await page.getByLabel(/^Card number/).fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay/ }).click();

  // Request Sent looks the payment up and confirms it, then Request Confirmed.
  await expect(page).toHaveURL(/\/requestconfirmed\/?\?/, { timeout: 20_000 });
  await expect(page).toHaveTitle('Appointment Request Confirmed');
  const confirmed = new URL(page.url());
  expect(confirmed.searchParams.get('value')).toBe('2500');
  await expectAccessible(page);

  // The vet's request mail links to the confirmation page and carries the chief complaint.
  const request = await waitForMail(DEMO.vet.email, started, 15_000, (mail) =>
    (mail.text ?? '').includes('/confirmappointment/'),
  );
  expect(request.text).toContain('Scratching her ears for a week.');
  const customerMail = await waitForMail(DEMO.customer.email, started, 15_000);
  expect(customerMail.subject).toBeTruthy();
  const link = firstLink(request, '/confirmappointment/');

  // The vet confirms (no login needed: the link and the vet's email).
  const vetContext = await browser.newContext({ timezoneId: 'Europe/Lisbon' });
  const vetPage = await vetContext.newPage();
  const confirmingAt = new Date();
  await vetPage.goto(new URL(link).pathname + '?lang=en');
  await expect(vetPage).toHaveTitle('Appointment Confirmation');
  await expectAccessible(vetPage);
  await vetPage.getByLabel(/^Registered email/).fill(DEMO.vet.email);
  await vetPage.getByRole('button', { name: /^Confirm/ }).click();
  await expect(vetPage.getByText('Appointment confirmed')).toBeVisible();
  const access = vetPage.getByRole('link', { name: 'Access appointment' });
  const vetPin = (await access.getAttribute('href'))!.match(/\/appointment\/(\d{6})/)![1]!;

  // Both parties get their own PIN, never the other's.
  const vetMail = await waitForMail(DEMO.vet.email, confirmingAt, 15_000, (mail) =>
    (mail.text ?? '').includes('/appointment/'),
  );
  const customerPinMail = await waitForMail(DEMO.customer.email, confirmingAt, 15_000, (mail) =>
    (mail.text ?? '').includes('/appointment/'),
  );
  expect(firstLink(vetMail, '/appointment/')).toContain(`/appointment/${vetPin}`);
  const customerPin = firstLink(customerPinMail, '/appointment/').match(/\/appointment\/(\d{6})/)![1]!;
  expect(customerPin).not.toBe(vetPin);
  expect(customerPinMail.text).not.toContain(vetPin);
  expect(vetMail.text).not.toContain(customerPin);
  expect(vetMail.attachments.some((file) => file.filename?.endsWith('.ics'))).toBe(true);
  await vetContext.close();
});

test('a free access code skips the payment page', async ({ page }) => {
  await bookUntilPayment(page, {
    code: 'DEMO-FREE',
    date: lisbonWeekdayAhead(4),
    time: '15:00',
    complaint: 'Annual check of the vaccination plan.',
  });
  await expect(page).toHaveURL(/\/requestconfirmed\/?\?/, { timeout: 20_000 });
  expect(new URL(page.url()).searchParams.get('value')).toBe('0');
  await expectAccessible(page);
});
