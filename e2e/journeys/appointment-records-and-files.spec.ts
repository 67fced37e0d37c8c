import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { TINY_PNG } from '../support/booking';
import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

test.use({ timezoneId: 'Europe/Lisbon' });

const COMPLAINT = 'Scratches the left ear; worse at night since Friday.';
const OBSERVATIONS = 'Otitis externa, left ear. Drops twice a day for 7 days; review next week.';

/** The demo's confirmed appointment (Bolinha with the demo vet), opened from the pet's record. */
async function openDemoAppointmentAsCustomer(page: Page) {
  await logIn(page, DEMO.customer.email);
  await page.getByRole('navigation').getByRole('link', { name: 'My Data' }).click();
  await page
    .getByRole('row', { name: /Bolinha/ })
    .getByRole('button', { name: 'Record' })
    .click();
  const record = page.getByRole('dialog', { name: 'Record of Bolinha' });
  const row = record.getByRole('row').filter({ hasText: 'Confirmed' }).filter({ hasText: '11:00' }).first();
  await expect(row.getByRole('link', { name: 'Join' })).toHaveAttribute('href', /\/appointment\/\d{6}\?lang=en$/);
  await row.getByRole('button', { name: /^Details/ }).click();
  return page.getByRole('dialog', { name: /^Appointment \d+/ });
}

test('customer, vet and manager each work on the demo appointment within their rights', async ({ browser }) => {
  // The customer edits the complaint and adds a described photo.
  const customer = await (await browser.newContext({ timezoneId: 'Europe/Lisbon' })).newPage();
  let detail = await openDemoAppointmentAsCustomer(customer);
  await expect(detail.getByText('Vet observations')).toHaveCount(0);
  await detail.getByRole('button', { name: 'Modify data' }).click();
  await detail.getByLabel(/^Chief complaint/).fill(COMPLAINT);
  await detail.getByRole('button', { name: 'New file' }).click();
  const newFile = detail.getByRole('group', { name: 'New file' });
  await newFile.getByLabel(/^File description/).fill('Photo of the left ear');
  await newFile
    .locator('input[type="file"]')
    .setInputFiles({ name: 'left-ear.png', mimeType: 'image/png', buffer: TINY_PNG });
  await newFile.getByRole('button', { name: 'Add' }).click();
  await expectAccessible(customer);
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect(customer.getByText('Appointment updated.')).toBeVisible();
  await expect(detail.getByRole('table', { name: 'Files of the appointment' })).toContainText('left-ear.png');

  // The vet finds it in their appointments, downloads the photo and writes observations.
  const vet = await (await browser.newContext({ timezoneId: 'Europe/Lisbon' })).newPage();
  await logIn(vet, DEMO.vet.email);
  await vet.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
  const vetRow = vet
    .getByRole('row')
    .filter({ hasText: 'Bolinha' })
    .filter({ hasText: 'Confirmed' })
    .filter({ hasText: '11:00' });
  await vetRow.getByRole('button', { name: /^Details/ }).click();
  const vetDetail = vet.getByRole('dialog', { name: /^Appointment \d+/ });
  await expect(vetDetail.getByText(COMPLAINT)).toBeVisible();
  const files = vetDetail.getByRole('table', { name: 'Files of the appointment' });
  await expect(files).toContainText('Photo of the left ear');
  const download = vet.waitForEvent('download');
  await files.getByRole('button', { name: 'Download left-ear.png' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('left-ear.png');
  expect(await readFile((await file.path())!)).toEqual(TINY_PNG);
  await vetDetail.getByRole('button', { name: 'Modify data' }).click();
  await vetDetail.getByLabel(/^Vet observations/).fill(OBSERVATIONS);
  await vetDetail.getByRole('button', { name: 'Save' }).click();
  await expect(vet.getByText('Appointment updated.')).toBeVisible();
  await expectAccessible(vet);

  // The customer, back again, still never sees the observations.
  await customer.context().close();
  const again = await (await browser.newContext({ timezoneId: 'Europe/Lisbon' })).newPage();
  detail = await openDemoAppointmentAsCustomer(again);
  await expect(detail.getByText(COMPLAINT)).toBeVisible();
  await expect(detail.getByText(OBSERVATIONS)).toHaveCount(0);
  await expect(detail.getByText('Vet observations')).toHaveCount(0);

  // The manager filters by the vet, exports, and opens the appointment read-only.
  const manager = await (await browser.newContext({ timezoneId: 'Europe/Lisbon' })).newPage();
  await logIn(manager, DEMO.manager.email);
  await manager.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
  await manager.getByLabel('Vet', { exact: true }).selectOption({ label: DEMO.vet2.name });
  await expect(manager.getByText('No appointments in this period.')).toBeVisible();
  await manager.getByLabel('Vet', { exact: true }).selectOption({ label: DEMO.vet.name });
  const managerRow = manager
    .getByRole('row')
    .filter({ hasText: 'Bolinha' })
    .filter({ hasText: 'Confirmed' })
    .filter({ hasText: '11:00' });
  await expect(managerRow).toHaveCount(1);
  const exported = manager.waitForEvent('download');
  await manager.getByRole('button', { name: 'Export to Excel' }).click();
  const workbookFile = await exported;
  expect(workbookFile.suggestedFilename()).toMatch(/^\d{14}-appointments\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await workbookFile.path())!)) as unknown as ArrayBuffer);
  expect(JSON.stringify(workbook.worksheets[0]!.getSheetValues())).toContain('Bolinha');
  await managerRow.getByRole('button', { name: /^Details/ }).click();
  const managerDetail = manager.getByRole('dialog', { name: /^Appointment \d+/ });
  await expect(managerDetail.getByText(OBSERVATIONS)).toBeVisible();
  await expect(managerDetail.getByRole('button', { name: 'Modify data' })).toHaveCount(0);
  await expect(managerDetail.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expectAccessible(manager);
});
