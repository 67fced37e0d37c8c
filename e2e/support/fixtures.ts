import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { catalog, type Lang } from './catalog';

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

/** Fails on serious or critical accessibility violations (axe-core, WCAG 2.1 A/AA). */
export async function expectAccessible(page: Page) {
  // Let enter/leave transitions finish, so colours are measured as a person sees them.
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`,
    ),
  ).toEqual([]);
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
