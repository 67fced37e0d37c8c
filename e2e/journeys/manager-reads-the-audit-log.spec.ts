import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { catalog, type Lang } from '../support/catalog';
import { DEMO, expect, expectAccessible, logIn, test } from '../support/fixtures';

/**
 * Issue 18: the manager's audit log (docs/audit-log.md), in English and in Portuguese. A failed login and a
 * price change appear in it, an action filter narrows it, and the export downloads the same selection.
 */

test.use({ timezoneId: 'Europe/Lisbon' });

/** The bearer header of the session the page holds. */
async function bearer(page: Page) {
  return { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('vetcall.token'))}` };
}

for (const lang of ['en', 'pt'] as const satisfies Lang[]) {
  const { t } = catalog(lang);

  test(`a manager finds a failed login and a price change in the audit log (${lang})`, async ({ page }) => {
    // A failed login through the login screen: the email typed is what the log keeps of who tried.
    const intruder = `intruder-${lang}-${Date.now()}@vetcall.test`;
    await logIn(page, intruder, 'not-the-password-1', lang);
    await expect(page.getByText(t('errors.invalid_login_attempt'))).toBeVisible();

    await logIn(page, DEMO.manager.email, undefined, lang);
    await expect(page).toHaveURL(/\/manager$/);
    // A price change, and back (other journeys book at the demo price): both are in the log.
    const headers = await bearer(page);
    const [product] = (await (await page.request.get(`/api/products/${lang}`, { headers })).json()) as {
      product_id: number;
      price_cents: number;
    }[];
    // A change of its own per language: both runs share the journeys' server.
    const changedCents = product!.price_cents + (lang === 'en' ? 7 : 11);
    for (const cents of [changedCents, product!.price_cents]) {
      const response = await page.request.put(`/api/products/price/${product!.product_id}`, {
        headers,
        data: { price: cents / 100 },
      });
      expect(response.status()).toBe(200);
    }

    await page
      .getByRole('navigation')
      .getByRole('link', { name: t('modes.manager.audit'), exact: true })
      .click();
    await expect(page).toHaveURL(/\/manager\?mode=audit$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('modes.manager.audit'));
    const table = page.getByRole('table', { name: t('audit.table_label') });
    const failedLogin = table.getByRole('row').filter({ hasText: intruder });
    await expect(failedLogin).toContainText(t('audit.actions.auth_login_failed'));
    await expect(failedLogin).toContainText('unknown_email');
    // Details as the database keeps them (jsonb orders keys by length, then alphabetically).
    const priceChange = table
      .getByRole('row')
      .filter({ hasText: `"new_price_cents":${changedCents},"old_price_cents":${product!.price_cents}` });
    await expect(priceChange).toContainText(t('audit.actions.product_price_changed'));
    await expect(priceChange).toContainText(DEMO.manager.email);
    await expectAccessible(page);

    // Only failed logins: the price change leaves the list, the failed login stays.
    await page
      .getByRole('combobox', { name: t('audit.action'), exact: true })
      .selectOption({ label: t('audit.actions.auth_login_failed') });
    await expect(priceChange).toHaveCount(0);
    await expect(failedLogin).toHaveCount(1);
    await page.getByLabel(t('audit.actor')).fill(intruder);
    await expect(table.getByRole('row')).toHaveCount(2);
    await expectAccessible(page);

    // The export: the same selection, translated, as a timestamped workbook.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: t('audit.export_excel') }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^\\d{14}-${t('exports.files.audit')}\\.xlsx$`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile((await file.path())!)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe(t('exports.sheets.audit'));
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.[0]).toBe(t('exports.columns.occurred_at'));
    expect(rows.slice(1).map((row) => row.slice(1, 4))).toEqual([
      [intruder, t('audit.system'), t('audit.actions.auth_login_failed')],
    ]);
  });
}
