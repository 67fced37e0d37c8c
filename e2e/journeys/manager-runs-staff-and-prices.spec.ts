import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { DEMO, expect, expectAccessible, logIn, test, typeDate } from '../support/fixtures';

test('the demo manager creates a vet, edits the phone inline, uploads a photo and downloads the vets export', async ({
  page,
}) => {
  const email = `dr-new-${Date.now()}@vetcall.test`;
  await logIn(page, DEMO.manager.email);
  await expect(page).toHaveURL(/\/manager$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vets');

  // New Vet, with the rules of docs/product-rules.md#validation New user.
  await page.getByRole('button', { name: 'New Vet' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Name/).fill('Dr. Beatriz Nunes');
  await dialog.getByLabel(/^Email/).fill(email);
  await dialog.getByLabel(/^Phone/).fill('123');
  await dialog.getByLabel(/^Specialty/).fill('Exotic animals');
  await dialog.getByLabel(/^Password/).fill('vet-secret-1');
  await dialog.getByLabel(/^Confirm password/).fill('vet-secret-1');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Too short.')).toBeVisible();
  await dialog.getByLabel(/^Phone/).fill('+351 911 222 333');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('New user added.')).toBeVisible();
  const row = page.getByRole('row', { name: /Dr\. Beatriz Nunes/ });
  await expect(row).toContainText(email);

  // Edit the phone inline, then Save.
  await row.getByRole('button', { name: 'Edit Dr. Beatriz Nunes' }).click();
  await row.getByRole('textbox', { name: 'Phone' }).fill('+351 933 444 555');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Data edited.')).toBeVisible();
  await expect(row).toContainText('+351 933 444 555');

  // Upload a photo; the table shows it (a real image of the server's size, not the generated avatar).
  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#e8590c' } })
    .jpeg()
    .toBuffer();
  const chooser = page.waitForEvent('filechooser');
  await row.getByRole('button', { name: 'Photo' }).click();
  await (await chooser).setFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByText('Photo updated.')).toBeVisible();
  const avatar = row.getByRole('img', { name: 'Dr. Beatriz Nunes' });
  await expect(avatar).toHaveAttribute('src', /\?hash=\d+$/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);

  // Export to Excel: a timestamped workbook that lists the new vet.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^\d{14}-vets\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile((await file.path())!)) as unknown as ArrayBuffer);
  const values = JSON.stringify(workbook.worksheets[0]!.getSheetValues());
  expect(values).toContain('Dr. Beatriz Nunes');
  expect(values).toContain(email);
});

test('the demo manager changes the consultation price and creates an access code', async ({ page }) => {
  await logIn(page, DEMO.manager.email);
  await page.getByRole('link', { name: 'Products' }).click();
  const product = page.getByRole('row', { name: /Video consultation/ });
  await product.getByRole('button', { name: 'Edit price of Video consultation' }).click();
  await product.getByRole('textbox', { name: 'Price of Video consultation' }).fill('27.50');
  await product.getByRole('button', { name: 'Save the price of Video consultation' }).click();
  await expect(page.getByText('Price of Video consultation updated.')).toBeVisible();
  await expect(product).toContainText('€27.50');
  await expectAccessible(page);

  // What customers see before paying follows at once.
  const listed = await page.request.get('/api/products/en', {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('vetcall.token'))}` },
  });
  expect(await listed.json()).toEqual(expect.arrayContaining([expect.objectContaining({ price_cents: 2750 })]));

  await page.getByRole('link', { name: 'Access codes' }).click();
  const code = `SPRING-${Date.now() % 100000}`;
  await page.getByLabel(/^Code/).fill(code.toLowerCase());
  await typeDate(page.getByLabel(/^Valid from/), '2026-11-01');
  await typeDate(page.getByLabel(/^Valid to/), '2027-03-31');
  await page.getByLabel('Included appointment (free)').check();
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByText(`Access code ${code} created.`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(code) });
  await expect(row).toContainText('Free');
  await expectAccessible(page);

  // Put the demo price back for the journeys that book.
  await page.getByRole('link', { name: 'Products' }).click();
  await product.getByRole('button', { name: 'Edit price of Video consultation' }).click();
  await product.getByRole('textbox', { name: 'Price of Video consultation' }).fill('25');
  await product.getByRole('button', { name: 'Save the price of Video consultation' }).click();
  await expect(product).toContainText('€25.00');
});
