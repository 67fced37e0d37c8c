import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

test('the demo vet adds Saturday hours, is stopped by an overlap, saves, and finds the hours again', async ({
  page,
}) => {
  await logIn(page, DEMO.vet.email);
  await expect(page).toHaveURL(/\/vet$/);
  // Availability is the default vet mode (docs/product-rules.md#vet-screens); the demo vet's calendar is linked.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Availability');
  const editor = page.getByRole('table', { name: 'Working intervals of the selected week' });
  await expect(editor).toBeVisible();
  await expect(page.getByText('Times in Europe/Lisbon')).toBeVisible();
  const time = (name: RegExp) => page.getByRole('combobox', { name });

  // The current week follows the demo pattern: weekdays 09:00–13:00 and 14:00–18:00, no weekend hours.
  await expect(time(/^Start of interval 1, Monday/)).toHaveValue('09:00');
  await expect(time(/^End of interval 2, Monday/)).toHaveValue('18:00');
  await expect(time(/^Start of interval 1, Saturday/)).toHaveCount(0);

  // A new interval on an empty day is 09:00–17:00 (docs/product-rules.md#validation).
  await page.getByRole('button', { name: /^Add interval on Saturday/ }).click();
  await expect(time(/^Start of interval 1, Saturday/)).toHaveValue('09:00');
  await expect(time(/^End of interval 1, Saturday/)).toHaveValue('17:00');

  // An overlap is shown on its day and blocks Save.
  await time(/^Start of interval 2, Monday/).selectOption('12:00');
  await expect(page.getByText('Working intervals of one day must not overlap.')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Overlapping working intervals: fix them before saving.')).toBeVisible();
  await expectAccessible(page);

  // Fixed, it saves.
  await time(/^Start of interval 2, Monday/).selectOption('14:00');
  await expect(page.getByText('Working intervals of one day must not overlap.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Availability updated.')).toBeVisible();

  // Away and back through the navbar (a reload of /vet would be a direct entry: docs/product-rules.md#navigation-guard
  // sends it to login).
  const navbar = page.getByRole('navigation');
  await navbar.getByRole('link', { name: 'My Data' }).click();
  await expect(page).toHaveURL(/\/vetdata\?/);
  await navbar.getByRole('link', { name: 'Start' }).click();
  await expect(page).toHaveURL(/\/vet$/);
  await expect(time(/^Start of interval 1, Saturday/)).toHaveValue('09:00');
  await expect(time(/^End of interval 1, Saturday/)).toHaveValue('17:00');
  await expect(time(/^Start of interval 2, Monday/)).toHaveValue('14:00');
  await expectAccessible(page);
});
