import { lisbonWallClock, lisbonWeekdayAhead } from '../support/booking';
import { DEMO, expect, expectAccessible, logIn, shownDate, test } from '../support/fixtures';

test.use({ timezoneId: 'Europe/Lisbon' });

test('a customer page embeds the scheduler, the customer reserves a slot by keyboard, and the page is told', async ({
  page,
}) => {
  await logIn(page, DEMO.customer.email);
  await expect(page).toHaveURL(/\/customer$/);
  await expect(page.getByRole('button', { name: 'Schedule' })).toBeVisible();
  const date = lisbonWeekdayAhead(2);
  // What the booking screen does (docs/product-rules.md#booking): the scheduler in an iframe, messages heard from our
  // origin.
  await page.evaluate(
    (src) => {
      const received: unknown[] = [];
      (window as unknown as { received: unknown[] }).received = received;
      window.addEventListener('message', (event) => {
        if (event.origin === window.location.origin) received.push(event.data);
      });
      const frame = document.createElement('iframe');
      frame.title = 'Scheduling calendar';
      frame.src = src;
      frame.style.cssText = 'width: 720px; height: 640px; border: 0';
      // Outside React's tree, so no re-render of the page can take it away.
      document.body.append(frame);
    },
    `/embed/scheduler?vet_id=1&email=${encodeURIComponent(DEMO.customer.email)}&name=Rita&date=${date}&prefix=Appointment:&lang=en`,
  );

  const scheduler = page.frameLocator('iframe[title="Scheduling calendar"]');
  // The frame boots a second copy of the app (translations, settings): slow on a busy machine.
  await expect(scheduler.getByRole('heading', { name: 'Choose a time' })).toBeVisible({ timeout: 30_000 });
  await expect(scheduler.getByText('Hello, Rita. Pick a time that suits you.')).toBeVisible();
  await expect(scheduler.getByLabel('Date')).toHaveValue(shownDate(date));
  const slots = scheduler.getByRole('group', { name: 'Free times' });
  // The demo vet works 09:00–13:00 and 14:00–18:00 in Lisbon: 16 half-hour slots, 13:00 not among them.
  await expect(slots.getByRole('button')).toHaveCount(16);
  await expect(slots.getByRole('button', { name: '13:00' })).toHaveCount(0);

  await slots.getByRole('button', { name: '14:30' }).focus();
  await page.keyboard.press('Enter');
  await expect(slots.getByRole('button', { name: '14:30' })).toHaveAttribute('aria-pressed', 'true');
  await scheduler.getByRole('button', { name: 'Reserve this time' }).focus();
  await page.keyboard.press('Enter');
  await expect(scheduler.getByRole('status')).toContainText('This time is reserved for you until');

  const received = await page.waitForFunction(() => {
    const list = (window as unknown as { received: unknown[] }).received;
    return list.length > 0 ? list : null;
  });
  const [message] = (await received.jsonValue()) as [{ status: string; eventId: string; startTime: string }];
  expect(message).toEqual({
    status: 'success',
    eventId: expect.stringMatching(/^[A-Za-z0-9_-]{22,64}$/),
    startTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/),
  });
  // The instant is 14:30 of that date in Lisbon, whatever the season's offset.
  expect(lisbonWallClock(new Date(message.startTime))).toEqual({ date, time: '14:30' });
  await expectAccessible(page);
});
