import { bookUntilPayment, lisbonWeekdayAhead } from '../support/booking';
import { catalog } from '../support/catalog';
import { DEMO, expect, expectAccessible, shownDate, test } from '../support/fixtures';

test.use({ timezoneId: 'Europe/Lisbon' });

test('cancelling at the checkout goes back to the booking form as it was, with the time selected again', async ({
  page,
}) => {
  const { t, startOf, stemOf } = catalog('en');
  const date = lisbonWeekdayAhead(4);
  const complaint = 'Limping on the left hind paw since the walk.';
  await bookUntilPayment(page, { code: 'DEMO-NORMAL', date, time: '16:30', complaint });
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+/);

  await page.getByRole('button', { name: t('checkout.cancel') }).click();

  // The booking form, not My Data, still logged in, with what was filled in.
  await expect(page).toHaveURL(/\/customer$/);
  await expect(page).toHaveTitle(DEMO.customer.title);
  await expect(page.getByText(t('booking.payment_canceled'))).toBeVisible();
  // Every check of the code counts against the demo customer's budget of code checks (20 in 15 minutes), which the
  // other booking journeys of a run share: this journey checks it twice (booking, then the form shown again).
  await expect(page.getByLabel(startOf('booking.access_code'))).toHaveValue('DEMO-NORMAL');
  await expect(page.getByText(stemOf('booking.ValidAccessCode'))).toBeVisible();
  await expect(page.getByLabel(startOf('booking.pet')).locator('option:checked')).toHaveText('Bolinha');
  await expect(page.getByLabel(startOf('booking.description'))).toHaveValue(complaint);
  await expect(page.getByLabel(startOf('booking.date'))).toHaveValue(shownDate(date));
  await expect(page.getByLabel(startOf('booking.vet')).locator('option:checked')).toHaveText(
    new RegExp(`^${DEMO.vet.name}`),
  );
  await expect(page.getByLabel(startOf('booking.consent_privacy'))).toBeChecked();
  await expect(page.getByLabel(startOf('booking.consent_terms'))).toBeChecked();
  // The file's bytes were not kept: the form names it to be attached again.
  await expect(page.getByText(t('booking.draft_files', { files: 'ear.png' }))).toBeVisible();
  await expectAccessible(page);

  // The time was given back, and the scheduler selects it again.
  await page.getByRole('button', { name: t('booking.schedule'), exact: true }).click();
  const scheduler = page.frameLocator(`iframe[title="${t('booking.scheduler_title')}"]`);
  const time = scheduler.getByRole('group', { name: t('slots.free_times') }).getByRole('button', { name: '16:30' });
  await expect(time).toHaveAttribute('aria-pressed', 'true');
  await expect(scheduler.getByRole('button', { name: t('scheduler.confirm') })).toBeVisible();
});
