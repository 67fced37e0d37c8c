import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { AccessibilityAudit, blocks, RUN_OPTIONS, withScreenChecksPaused } from './accessibility';
import { catalog, type Lang } from './catalog';

export { expect };

/**
 * The journeys' `test`: every screen of every page a journey opens (its own and the other people's it
 * opens with `browser.newContext`) is checked with axe as it appears, and the journey fails on what
 * blocks (support/accessibility.ts). A11Y_AUDIT_LOG=<file> keeps every screen's report.
 */
export const test = base.extend<{ accessibilityAudit: AccessibilityAudit }>({
  accessibilityAudit: [
    async ({ context, browser }, use, testInfo) => {
      const audit = new AccessibilityAudit();
      await audit.watch(context);
      const restore = audit.watchNewContexts(browser);
      try {
        await use(audit);
      } finally {
        restore();
      }
      const failures = await audit.finish();
      if (process.env.A11Y_AUDIT_LOG) audit.log(process.env.A11Y_AUDIT_LOG, testInfo.titlePath.join(' › '));
      expect(failures, 'accessibility violations on the screens this journey showed').toEqual([]);
    },
    { auto: true },
  ],
});

export const DEMO_PASSWORD = 'vetcall-demo';

export const DEMO = {
  manager: { email: 'manager@vetcall.test', home: '/manager', title: 'Manager Mode', name: 'Marta Ferreira' },
  vet: { email: 'vet@vetcall.test', home: '/vet', title: 'Vet Mode', name: 'Dr. João Silva' },
  vet2: { email: 'vet2@vetcall.test', home: '/vet', title: 'Vet Mode', name: 'Dra. Ana Souza' },
  customer: {
    email: 'customer@vetcall.test',
    home: '/customer',
    title: 'Customer Mode - Schedule Appointment',
    name: 'Rita Carvalho',
  },
} as const;

/** Logs in through the login screen of `lang` (English by default): the app then speaks that language. */
export async function logIn(page: Page, email: string, password = DEMO_PASSWORD, lang: Lang = 'en') {
  const { t, startOf } = catalog(lang);
  await page.goto(`/?lang=${lang}`);
  await page.getByLabel(startOf('login.email')).fill(email);
  await page.getByLabel(startOf('login.password')).fill(password);
  await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
}

/**
 * Checks the screen as it is now with the journeys' axe rules (support/accessibility.ts), for states the
 * automatic check of each new screen does not see (a form's errors, a row being edited). Soft: the journey
 * goes on, and fails at its end with every screen's violations.
 */
export async function expectAccessible(page: Page) {
  // Let enter/leave transitions finish, so colours are measured as a person sees them.
  await page.waitForTimeout(300);
  const results = await withScreenChecksPaused(page, () => new AxeBuilder({ page }).options(RUN_OPTIONS).analyze());
  expect
    .soft(
      results.violations
        .filter(blocks)
        .map(
          (v) =>
            `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`,
        ),
      `accessibility violations on ${new URL(page.url()).pathname}`,
    )
    .toEqual([]);
}

/** A 'YYYY-MM-DD' date as a date field shows it to a reader of `lang` (en MM/DD/YYYY, pt DD/MM/YYYY). */
export function shownDate(dateKey: string, lang: Lang = 'en'): string {
  const [year, month, day] = dateKey.split('-');
  return lang === 'en' ? `${month}/${day}/${year}` : `${day}/${month}/${year}`;
}

/** Types a date into a date field as a person would: in the shown format, then Tab to the next field. */
export async function typeDate(field: Locator, dateKey: string, lang: Lang = 'en') {
  await field.click();
  await field.press('ControlOrMeta+A');
  await field.pressSequentially(shownDate(dateKey, lang));
  await expect(field).toHaveValue(shownDate(dateKey, lang));
  await field.press('Tab');
}
