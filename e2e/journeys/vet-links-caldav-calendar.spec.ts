import type { Page } from '@playwright/test';
import { type Radicale, startRadicale } from '../../apps/server/test/radicale';
import { bookUntilPayment, lisbonInstant, lisbonWeekdayAhead, shownInstant } from '../support/booking';
import { catalog, type Lang } from '../support/catalog';
import { DEMO, expect, expectAccessible, logIn, test, typeDate } from '../support/fixtures';
import { firstLink, waitForMail } from '../support/outbox';

test.use({ timezoneId: 'Europe/Lisbon' });
test.setTimeout(150_000);

const JOAO_PASSWORD = 'joao-app-password';

let radicale: Radicale;
let workUrl: string;
test.beforeAll(async () => {
  // Debian's Radicale on loopback, as the vet's own CalDAV server (apps/server/test/radicale.ts).
  radicale = await startRadicale({ joao: JOAO_PASSWORD });
  workUrl = await radicale.makeCalendar('joao', 'work');
  await radicale.makeCalendar('joao', 'personal');
});
test.afterAll(async () => {
  await radicale.close();
});

/** Dr. João's /vetdata in `lang`, with the CalDAV region. */
async function vetData(page: Page, lang: Lang) {
  const { t } = catalog(lang);
  await logIn(page, DEMO.vet.email, undefined, lang);
  await page.getByRole('link', { name: t('nav.my_data') }).click();
  return page.getByRole('region', { name: t('caldav.heading') });
}

/** Back to the built-in calendar, as the demo had it, so the journeys after this one find João as before. */
async function relinkBuiltin(page: Page) {
  const calendar = page.getByRole('region', { name: 'Calendar', exact: true });
  await calendar.getByRole('button', { name: 'Unlink calendar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unlink calendar' }).click();
  await expect(calendar.getByText('Not linked', { exact: true })).toBeVisible();
  await calendar.getByRole('button', { name: 'Link calendar' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(calendar.getByText('Linked', { exact: true })).toBeVisible();
}

for (const lang of ['en', 'pt'] as const) {
  test(`${lang}: the vet links a Radicale calendar; its busy time leaves the customer's slots; the confirmed appointment lands in it, moves and goes with it`, async ({
    page,
    browser,
  }) => {
    const { t, startOf, prefix } = catalog(lang);
    // Days no other journey books at these times (Thursday 15:00 is the booking journey's; Monday is free).
    const day = lisbonWeekdayAhead(lang === 'en' ? 3 : 1);
    const busyTime = '11:00';
    const bookedTime = '10:00';
    const movedTime = '15:00';

    // The vet links the CalDAV calendar: URL, username, app password; appointments go to "work".
    const vetContext = await browser.newContext({ timezoneId: 'Europe/Lisbon' });
    const vetPage = await vetContext.newPage();
    const caldav = await vetData(vetPage, lang);
    await caldav.getByLabel(startOf('caldav.url')).fill(`${radicale.baseUrl}/`);
    await caldav.getByLabel(startOf('caldav.username')).fill('joao');
    await caldav.getByLabel(startOf('caldav.password')).fill(JOAO_PASSWORD);
    await expectAccessible(vetPage);
    await caldav.getByRole('button', { name: t('caldav.link') }).click();
    await expect(vetPage.getByText(t('caldav.linked'))).toBeVisible();
    await caldav.getByRole('combobox', { name: t('caldav.target_calendar') }).click();
    await vetPage.getByRole('option', { name: 'work' }).click();
    await caldav.getByRole('button', { name: t('caldav.save') }).click();
    await expect(vetPage.getByText(t('caldav.saved'))).toBeVisible();
    await expectAccessible(vetPage);
    // After a reload the saved choices are there to change, and the app password is not asked for again.
    await vetPage.reload();
    await expect(caldav.getByRole('combobox', { name: t('caldav.target_calendar') })).toHaveValue('work');
    await expect(caldav.getByLabel(startOf('caldav.password'))).toHaveCount(0);
    await expect(caldav.getByRole('checkbox', { name: 'personal' })).toBeChecked();

    // An event the vet makes in their calendar app (here straight into Radicale), then Refresh.
    const busyStart = lisbonInstant(day, busyTime);
    const stamp = (instant: Date) =>
      instant
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    await radicale.putEvent(
      'joao',
      `${radicale.baseUrl}/joao/personal/`,
      `dentist-${lang}`,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Journey//EN',
        'BEGIN:VEVENT',
        `UID:dentist-${lang}`,
        `DTSTAMP:${stamp(new Date())}`,
        `DTSTART:${stamp(busyStart)}`,
        `DTEND:${stamp(new Date(busyStart.getTime() + 60 * 60_000))}`,
        'SUMMARY:Dentist',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    await caldav.getByRole('button', { name: t('caldav.refresh') }).click();
    await expect(vetPage.getByText(t('caldav.refreshed'))).toBeVisible();

    // The customer does not see 11:00 or 11:30 (the dentist), books 10:00 with a free code.
    const started = new Date();
    await bookUntilPayment(page, {
      code: 'DEMO-FREE',
      date: day,
      time: bookedTime,
      complaint: `Limping (${lang}).`,
      lang,
      notOffered: ['11:00', '11:30'],
    });
    await expect(page).toHaveURL(/\/requestconfirmed\/?\?/, { timeout: 20_000 });

    // The vet confirms from the request mail: the appointment shows in Radicale's "work" calendar.
    const request = await waitForMail(DEMO.vet.email, started, 15_000, (mail) =>
      (mail.text ?? '').includes(`Limping (${lang}).`),
    );
    await vetPage.goto(new URL(firstLink(request, '/confirmappointment/')).pathname + '?lang=en');
    await vetPage.getByLabel(/^Registered email/).fill(DEMO.vet.email);
    await vetPage.getByRole('button', { name: /^Confirm/ }).click();
    await expect(vetPage.getByText('Appointment confirmed')).toBeVisible();
    const booked = lisbonInstant(day, bookedTime);
    await expect
      .poll(async () => (await radicale.events('joao', workUrl)).map((event) => event.start))
      .toEqual([booked.toISOString()]);
    const [written] = await radicale.events('joao', workUrl);
    expect(written!.summary).toContain('Bolinha');

    // The customer moves it to the afternoon: the event moves.
    await page.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await page.getByRole('link', { name: t('modes.customer.appointments') }).click();
    const row = page.getByRole('row').filter({ hasText: await shownInstant(page, booked, lang) });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: new RegExp(`^${prefix('my_appointments.reschedule_named')}`) }).click();
    const dialog = page.getByRole('dialog', { name: t('reschedule.title') });
    await typeDate(dialog.getByLabel(startOf('scheduler.date')), day, lang);
    await dialog
      .getByRole('group', { name: t('slots.free_times') })
      .getByRole('button', { name: movedTime })
      .click();
    await dialog.getByRole('button', { name: t('reschedule.confirm') }).click();
    const moved = lisbonInstant(day, movedTime);
    await expect
      .poll(async () => (await radicale.events('joao', workUrl)).map((event) => [event.uid, event.start]))
      .toEqual([[written!.uid, moved.toISOString()]]);

    // The customer cancels it: the event goes.
    const movedRow = page.getByRole('row').filter({ hasText: await shownInstant(page, moved, lang) });
    await movedRow.getByRole('button', { name: new RegExp(`^${prefix('my_appointments.cancel_named')}`) }).click();
    const cancel = page.getByRole('dialog', { name: t('my_appointments.cancel_title') });
    await cancel.getByRole('button', { name: t('my_appointments.confirm_cancel') }).click();
    await expect(page.getByText(t('my_appointments.canceled'))).toBeVisible();
    await expect.poll(async () => radicale.events('joao', workUrl)).toEqual([]);

    // Back to the built-in calendar for the journeys that follow (English screen).
    await vetPage.goto('/vetdata?lang=en&access=vet');
    await relinkBuiltin(vetPage);
    await vetContext.close();
  });
}
