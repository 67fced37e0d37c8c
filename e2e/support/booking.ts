import { expect, type Page } from '@playwright/test';
import { catalog, type Lang } from './catalog';
import { DEMO, expectAccessible, logIn, typeDate } from './fixtures';

/**
 * Dates and files the booking journeys share. The demo vet works weekdays in Lisbon, and the demo's
 * confirmed appointment sits on the next working day, so journeys book at least two days ahead.
 */

/** The date of the next `weekday` (0 Sunday … 6 Saturday) two to eight days ahead in Lisbon, 'YYYY-MM-DD'. */
export function lisbonWeekdayAhead(weekday: number): string {
  const today = new Date(new Date().toLocaleString('en-US', { timeZone: 'Europe/Lisbon' }));
  let days = (weekday - today.getDay() + 7) % 7;
  if (days < 2) days += 7;
  return new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate() + days)).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' and 'HH:MM' of an instant on Lisbon's wall clock (the journeys' browser zone). */
export function lisbonWallClock(instant: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Lisbon',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** A 1×1 PNG: a customer's photo of the pet. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Fills the booking form, opens the scheduler and reserves `time` on `date` with a demo vet (João by
 * default), in `lang` (English by default): the labels are the catalog's.
 */
export async function bookUntilPayment(
  page: Page,
  options: {
    code: string;
    date: string;
    time: string;
    complaint: string;
    vetName?: string;
    lang?: Lang;
    /** Times the scheduler must not offer (busy in the vet's own calendar, say). */
    notOffered?: string[];
  },
) {
  const lang = options.lang ?? 'en';
  const { t, startOf, stemOf } = catalog(lang);
  await logIn(page, DEMO.customer.email, undefined, lang);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('modes.customer.appointment_req'));
  await page.getByLabel(startOf('booking.access_code')).fill(options.code);
  await expect(page.getByText(stemOf('booking.ValidAccessCode'))).toBeVisible();
  await page.getByLabel(startOf('booking.pet')).selectOption({ label: 'Bolinha' });
  await page.getByLabel(startOf('booking.description')).fill(options.complaint);
  await page.locator('input[type="file"]').setInputFiles({ name: 'ear.png', mimeType: 'image/png', buffer: TINY_PNG });
  await typeDate(page.getByLabel(startOf('booking.date')), options.date, lang);
  const vet = page.getByLabel(startOf('booking.vet'));
  await expect(vet).toBeEnabled();
  const vetName = options.vetName ?? DEMO.vet.name;
  const label = (await vet.locator('option', { hasText: vetName }).first().textContent())!.trim();
  await vet.selectOption({ label });
  await page.getByLabel(startOf('booking.consent_privacy')).check();
  await page.getByLabel(startOf('booking.consent_terms')).check();
  await expectAccessible(page);
  await page.getByRole('button', { name: t('booking.schedule'), exact: true }).click();
  const scheduler = page.frameLocator(`iframe[title="${t('booking.scheduler_title')}"]`);
  const freeTimes = scheduler.getByRole('group', { name: t('slots.free_times') });
  await expect(freeTimes.getByRole('button', { name: options.time })).toBeVisible();
  for (const time of options.notOffered ?? []) {
    await expect(freeTimes.getByRole('button', { name: time, exact: true })).toHaveCount(0);
  }
  await freeTimes.getByRole('button', { name: options.time }).click();
  await scheduler.getByRole('button', { name: t('scheduler.confirm') }).click();
}

/** The instant a Lisbon wall-clock date and time names (Lisbon is UTC or UTC+1). */
export function lisbonInstant(date: string, time: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  for (const offsetHours of [0, 1]) {
    const candidate = new Date(Date.UTC(year, month - 1, day, hour - offsetHours, minute));
    const wall = lisbonWallClock(candidate);
    if (wall.date === date && wall.time === time) return candidate;
  }
  throw new Error(`${date} ${time} does not exist in Lisbon`);
}

/** An instant as the web app shows it to a reader of `lang` (lib/format.ts formatDateTime), in the browser. */
export const shownInstant = (page: Page, instant: Date, lang: Lang) =>
  page.evaluate(
    ([iso, locale]) =>
      new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      }).format(new Date(iso)),
    [instant.toISOString(), lang] as const,
  );
