import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

// The demo vet works in Lisbon; the browser is there too, so the slots read as the editor's hours.
test.use({ timezoneId: 'Europe/Lisbon' });

test('the demo vet opens next Saturday in the weekly editor and finds its slots in the month view', async ({
  page,
}) => {
  await logIn(page, DEMO.vet.email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Availability');
  const week = page.getByRole('combobox', { name: 'Week' });
  const nextWeek = await week.locator('option').nth(1).getAttribute('value');
  await week.selectOption(nextWeek!);
  const saturdayButton = page.getByRole('button', { name: /^Add interval on Saturday/ });
  const saturdayLabel = (await saturdayButton.getAttribute('aria-label'))!.replace('Add interval on ', '');
  await saturdayButton.click();
  await expect(page.getByRole('combobox', { name: `End of interval 1, ${saturdayLabel}` })).toHaveValue('17:00');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Availability updated.')).toBeVisible();

  await page.getByRole('navigation').getByRole('link', { name: 'Available slots' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Available slots');
  await expect(page.getByText('Times shown in your time zone (Europe/Lisbon).')).toBeVisible();
  // "Saturday, Nov 28, 2026" → the date's cell is named "Nov 28, 2026: …"; it may be next month's.
  const dateText = saturdayLabel.replace(/^Saturday, /, '');
  const cell = page.getByRole('button', { name: new RegExp(`^${dateText}: `) });
  if ((await cell.count()) === 0) await page.getByRole('button', { name: 'Next month' }).click();
  // 09:00–17:00 in 30-minute consultations: 16 slots, none taken.
  await expect(cell).toHaveAccessibleName(`${dateText}: 16 free, 0 booked`);
  await cell.click();
  const free = page.getByLabel('Free times');
  await expect(free.getByText('09:00', { exact: true })).toBeVisible();
  await expect(free.getByText('16:30', { exact: true })).toBeVisible();
  await expect(free.getByText('17:00', { exact: true })).toHaveCount(0);
  await expectAccessible(page);
});

test('the demo manager reads every vet’s hours, edits a vet’s week and exports the table', async ({ page }) => {
  await logIn(page, DEMO.manager.email);
  await page.getByRole('navigation').getByRole('link', { name: 'Vets availability' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vets availability');
  const table = page.getByRole('table', { name: 'Vets availability' });
  await expect(table.getByRole('row').filter({ hasText: DEMO.vet.name }).first()).toContainText(
    '09:00\u201313:00, 14:00\u201318:00',
  );
  await expect(table.getByRole('row').filter({ hasText: DEMO.vet2.name }).first()).toContainText('America/Sao_Paulo');
  await expectAccessible(page);

  // One vet: their rows only, and their weekly editor.
  await page.getByRole('combobox', { name: 'Vet' }).selectOption({ label: DEMO.vet2.name });
  await expect(table.getByRole('row').filter({ hasText: DEMO.vet.name })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit availability' }).click();
  const dialog = page.getByRole('dialog', { name: `Availability of ${DEMO.vet2.name}` });
  await expect(dialog.getByRole('table', { name: 'Working intervals of the selected week' })).toBeVisible();
  await expect(dialog.getByText('Times in America/Sao_Paulo')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^\d{14}-vets-availability\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await file.path())!)) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, 'Date', 'Name', 'Hours', 'Time zone']);
  expect(sheet.rowCount).toBeGreaterThan(1);
  const names = new Set<unknown>();
  sheet.eachRow((row, index) => index > 1 && names.add(row.getCell(2).value));
  // The export holds every vet, whatever the table shows.
  expect([...names].sort()).toEqual(expect.arrayContaining([DEMO.vet.name, DEMO.vet2.name]));
});
