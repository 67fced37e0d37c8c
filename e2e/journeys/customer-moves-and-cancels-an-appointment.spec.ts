import type { Browser } from '@playwright/test';
import type { Email } from 'postal-mime';
import { bookUntilPayment, lisbonInstant, lisbonWeekdayAhead, shownInstant } from '../support/booking';
import { catalog } from '../support/catalog';
import { DEMO, expect, expectAccessible, logIn, test, typeDate } from '../support/fixtures';
import { firstLink, waitForMail } from '../support/outbox';

test.use({ timezoneId: 'Europe/Lisbon' });
// Booking, paying, confirming, moving and cancelling, with the mail and the feed checked after each step.
test.setTimeout(150_000);

/** The events of an iCalendar text, each as its properties (parameters dropped, folded lines joined). */
function eventsOf(ics: string): Record<string, string>[] {
  // Mail parsers may hand CRLF back as LF: both end a line.
  const unfolded = ics.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '');
  return unfolded
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((block) =>
      Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line.includes(':'))
          .map((line) => [line.slice(0, line.indexOf(':')).split(';')[0]!, line.slice(line.indexOf(':') + 1)]),
      ),
    );
}

const icsStamp = (instant: Date) =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function invitationOf(mail: Email) {
  const attachment = mail.attachments.find((file) => file.filename === 'appointment.ics');
  if (!attachment) throw new Error(`no appointment.ics in "${mail.subject}"`);
  const text =
    typeof attachment.content === 'string' ? attachment.content : new TextDecoder().decode(attachment.content);
  return { method: /^METHOD:(.+)$/m.exec(text)?.[1]?.trim(), event: eventsOf(text)[0]! };
}

/** The vet's private calendar feed, made (or made again) from their data screen in a context of its own. */
async function vetFeedUrl(browser: Browser): Promise<string> {
  const context = await browser.newContext({ timezoneId: 'Europe/Lisbon' });
  const page = await context.newPage();
  await logIn(page, DEMO.vet.email);
  await page.getByRole('link', { name: 'My Data' }).click();
  const feed = page.getByRole('region', { name: 'Calendar subscription' });
  const create = feed.getByRole('button', { name: 'Create subscription link' });
  const remake = feed.getByRole('button', { name: 'Create a new link' });
  await expect(create.or(remake)).toBeVisible();
  if (await create.isVisible()) {
    await create.click();
  } else {
    await remake.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm', exact: true }).click();
  }
  await expect(feed.getByLabel('Subscription link')).toBeVisible();
  const url = await feed.getByLabel('Subscription link').inputValue();
  await context.close();
  return url;
}

for (const lang of ['en', 'pt'] as const) {
  test(`${lang}: the customer books, finds it under My appointments, moves it and cancels it with a refund; the vet's mail and feed follow`, async ({
    page,
    browser,
  }) => {
    const { t, startOf, prefix } = catalog(lang);
    const vetT = catalog('pt'); // Dr. João reads Portuguese.
    const day = lisbonWeekdayAhead(lang === 'en' ? 2 : 5);
    const firstTime = lang === 'en' ? '11:00' : '11:30';
    const movedTime = lang === 'en' ? '16:00' : '16:30';
    const first = lisbonInstant(day, firstTime);
    const moved = lisbonInstant(day, movedTime);

    // Book and pay on the built-in checkout, in the customer's language.
    const started = new Date();
    await bookUntilPayment(page, { code: 'DEMO-NORMAL', date: day, time: firstTime, complaint: 'Sneezing.', lang });
    await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+/);
    await page.getByLabel(startOf('checkout.card_number')).fill('4242 4242 4242 4242');
    await page.getByLabel(startOf('checkout.expiry')).fill('12/30');
    await page.getByLabel(startOf('checkout.cvc')).fill('123');
    await page.getByLabel(startOf('checkout.name')).fill('Rita Carvalho');
    await page.getByRole('button', { name: new RegExp(`^${prefix('checkout.pay')}`) }).click();
    await expect(page).toHaveURL(/\/requestconfirmed\/?\?/, { timeout: 20_000 });

    // The vet confirms from the request mail; the invitation and the feed carry the time.
    const request = await waitForMail(DEMO.vet.email, started, 15_000, (mail) =>
      (mail.text ?? '').includes('Sneezing.'),
    );
    const vetContext = await browser.newContext({ timezoneId: 'Europe/Lisbon' });
    const vetPage = await vetContext.newPage();
    await vetPage.goto(new URL(firstLink(request, '/confirmappointment/')).pathname + '?lang=en');
    await vetPage.getByLabel(/^Registered email/).fill(DEMO.vet.email);
    await vetPage.getByRole('button', { name: /^Confirm/ }).click();
    await expect(vetPage.getByText('Appointment confirmed')).toBeVisible();
    await vetContext.close();
    const feedUrl = await vetFeedUrl(browser);
    const feedEvent = async (start: Date) =>
      eventsOf(await (await page.request.get(feedUrl)).text()).find((event) => event.DTSTART === icsStamp(start));
    const booked = await feedEvent(first);
    expect(booked).toBeDefined();
    const uid = booked!.UID!;

    // My appointments: the new appointment is listed, in the browser's zone.
    await page.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('modes.customer.appointment_req'));
    await page.getByRole('link', { name: t('modes.customer.appointments') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('modes.customer.appointments'));
    const firstShown = await shownInstant(page, first, lang);
    const row = page.getByRole('row').filter({ hasText: firstShown });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(t('appointment_status.TK_Confirmed'));
    await expectAccessible(page);

    // Move it to the afternoon of the same day.
    const movingAt = new Date();
    await row.getByRole('button', { name: new RegExp(`^${prefix('my_appointments.reschedule_named')}`) }).click();
    const dialog = page.getByRole('dialog', { name: t('reschedule.title') });
    await expect(dialog.getByText(t('reschedule.price_note'), { exact: false })).toBeVisible();
    await typeDate(dialog.getByLabel(startOf('scheduler.date')), day, lang);
    await dialog
      .getByRole('group', { name: t('slots.free_times') })
      .getByRole('button', { name: movedTime })
      .click();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: t('reschedule.confirm') }).click();
    const movedShown = await shownInstant(page, moved, lang);
    await expect(page.getByText(t('reschedule.done', { when: movedShown }))).toBeVisible();
    const movedRow = page.getByRole('row').filter({ hasText: movedShown });
    await expect(movedRow).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: firstShown })).toHaveCount(0);

    // The vet is told, with the invitation moved (same UID, a higher SEQUENCE); the feed follows.
    const movedMail = await waitForMail(DEMO.vet.email, movingAt, 15_000, (mail) =>
      (mail.subject ?? '').startsWith(vetT.prefix('mail_reschedule.subject')),
    );
    const reinvite = invitationOf(movedMail);
    expect(reinvite.method).toBe('REQUEST');
    expect(reinvite.event).toMatchObject({ UID: uid, DTSTART: icsStamp(moved) });
    expect(Number(reinvite.event.SEQUENCE)).toBeGreaterThan(Number(booked!.SEQUENCE));
    expect(await feedEvent(first)).toBeUndefined();
    expect(await feedEvent(moved)).toMatchObject({ UID: uid, SEQUENCE: reinvite.event.SEQUENCE });

    // Cancel it: more than 24 hours ahead, so the dialog promises the full refund.
    const cancelingAt = new Date();
    await movedRow.getByRole('button', { name: new RegExp(`^${prefix('my_appointments.cancel_named')}`) }).click();
    const cancel = page.getByRole('dialog', { name: t('my_appointments.cancel_title') });
    const price = await page.evaluate(
      (locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(25),
      lang,
    );
    await expect(cancel.getByText(t('my_appointments.refund_yes', { price }))).toBeVisible();
    await cancel.getByLabel(startOf('my_appointments.reason_label')).fill('Bolinha is well again.');
    await expectAccessible(page);
    await cancel.getByRole('button', { name: t('my_appointments.confirm_cancel') }).click();
    await expect(page.getByText(t('my_appointments.canceled'))).toBeVisible();
    await expect(movedRow).toContainText(t('appointment_status.TK_Canceled'));

    // Its detail tells who cancelled and that the payment was refunded.
    await movedRow.getByRole('button', { name: new RegExp(`^${prefix('my_appointments.details_named')}`) }).click();
    const detail = page.getByRole('dialog', { name: new RegExp(`^${prefix('appointment.title')}`) });
    await expect(
      detail.getByText(new RegExp(`^${prefix('appointment_lifecycle.canceled_by')}Rita Carvalho`)),
    ).toBeVisible();
    await expect(detail.getByText(new RegExp(`^${prefix('appointment_lifecycle.refund_refunded')}`))).toBeVisible();
    await expectAccessible(page);

    // The vet's calendar drops it: a CANCEL of the same event, and the feed no longer lists it.
    const cancelMail = await waitForMail(DEMO.vet.email, cancelingAt, 15_000, (mail) =>
      (mail.subject ?? '').startsWith(vetT.prefix('mail_cancellation.subject')),
    );
    const withdrawal = invitationOf(cancelMail);
    expect(withdrawal.method).toBe('CANCEL');
    expect(withdrawal.event).toMatchObject({ UID: uid, STATUS: 'CANCELLED' });
    expect(Number(withdrawal.event.SEQUENCE)).toBeGreaterThan(Number(reinvite.event.SEQUENCE));
    expect(cancelMail.text).toContain('Bolinha is well again.');
    expect(await feedEvent(moved)).toBeUndefined();
  });
}
