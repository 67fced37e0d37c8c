import type { Page } from '@playwright/test';
import { DEMO, expect, expectAccessible, test, typeDate } from '../support/fixtures';
import { bookUntilPayment, lisbonWallClock, lisbonWeekdayAhead } from '../support/booking';
import { expectLoopbackOnly } from '../support/loopback';
import { firstLink, waitForMail } from '../support/outbox';

test.use({ timezoneId: 'Europe/Lisbon' });

/** Each attempt needs its own vet: a retry's appointment would overlap the first attempt's. */
const VETS = [DEMO.vet, DEMO.vet2] as const;

/** The next five-minute mark at least two minutes away: an appointment whose room is open right now. */
function startingSoon(): Date {
  const grid = 5 * 60_000;
  return new Date(Math.ceil((Date.now() + 2 * 60_000) / grid) * grid);
}

const pinIn = (link: string) => link.match(/\/appointment\/(\d{6})/)![1]!;

/** The other party's picture is really playing: frames have a size and time moves on. */
async function expectRemoteVideoPlaying(page: Page) {
  const remote = page.getByTestId('remote-video');
  await expect
    .poll(() => remote.evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const before = await remote.evaluate((video: HTMLVideoElement) => video.currentTime);
  await expect
    .poll(() => remote.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 5_000 })
    .toBeGreaterThan(before);
}

test('the customer and the vet hold a video consultation with their emailed PINs, on loopback only', async ({
  page,
  browser,
}, testInfo) => {
  // Booking, confirming, two rooms, a hang-up and a rejoin: about 25 s on a quiet machine, over a minute on a
  // busy one (two Chromium pages encoding and decoding video on two cores).
  test.setTimeout(180_000);
  // The server, Chromium and this process share a network namespace that has nothing but loopback.
  expectLoopbackOnly();
  const vet = VETS[Math.min(testInfo.retry, VETS.length - 1)]!;

  // A booking with the free code, then the vet confirms it for a few minutes from now.
  const started = new Date();
  await bookUntilPayment(page, {
    code: 'DEMO-FREE',
    date: lisbonWeekdayAhead(5),
    time: '11:30',
    complaint: 'Limping on the front left leg since yesterday.',
    vetName: vet.name,
  });
  await expect(page).toHaveURL(/\/requestconfirmed\/?\?/, { timeout: 20_000 });
  const request = await waitForMail(vet.email, started, 15_000, (mail) =>
    (mail.text ?? '').includes('Limping on the front'),
  );

  const vetContext = await browser.newContext({ timezoneId: 'Europe/Lisbon' });
  const vetPage = await vetContext.newPage();
  await vetPage.goto(new URL(firstLink(request, '/confirmappointment/')).pathname + '?lang=en');
  const start = lisbonWallClock(startingSoon());
  await typeDate(vetPage.getByLabel('Date', { exact: true }), start.date);
  await vetPage.getByLabel('Time (24-hour)').selectOption(start.time);
  await vetPage.getByLabel(/^Registered email/).fill(vet.email);
  const confirmingAt = new Date();
  await vetPage.getByRole('button', { name: /^Confirm/ }).click();
  await expect(vetPage.getByText('Appointment confirmed')).toBeVisible();

  const hasJoinLink = (mail: { text?: string }) => (mail.text ?? '').includes('/appointment/');
  const vetLink = firstLink(await waitForMail(vet.email, confirmingAt, 15_000, hasJoinLink), '/appointment/');
  const customerLink = firstLink(
    await waitForMail(DEMO.customer.email, confirmingAt, 15_000, hasJoinLink),
    '/appointment/',
  );

  // Each opens the emailed link: the PIN screen, prefilled.
  await page.goto(new URL(customerLink).pathname + '?lang=en');
  await vetPage.goto(new URL(vetLink).pathname + '?lang=en');
  await expect(page).toHaveTitle('Appointment');
  await expect(page.getByLabel('PIN')).toHaveValue(pinIn(customerLink));
  await expect(vetPage.getByLabel('PIN')).toHaveValue(pinIn(vetLink));
  await expectAccessible(page);

  // A wrong PIN first: the 'unavailable' warning with its explanation.
  const wrong = pinIn(customerLink) === '000000' ? '000001' : '000000';
  await page.getByLabel('PIN').fill(wrong);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('Unavailable');
  await expect(page.getByRole('alert')).toContainText('No appointment is waiting for this PIN');
  await page.getByLabel('PIN').fill(pinIn(customerLink));

  // Both connect: 'Connecting…', then the room, with each other's name and playing video both ways.
  await Promise.all([
    page.getByRole('button', { name: 'Connect' }).click(),
    vetPage.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await expect(page.getByText('Connecting…')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Consultation with ${vet.name}` })).toBeVisible({ timeout: 15_000 });
  await expect(vetPage.getByRole('heading', { name: `Consultation with ${DEMO.customer.name}` })).toBeVisible({
    timeout: 15_000,
  });
  await expectRemoteVideoPlaying(page);
  await expectRemoteVideoPlaying(vetPage);
  await expectAccessible(vetPage);

  // Chat crosses, both ways.
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Good morning, doctor. She still limps.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(vetPage.getByRole('button', { name: 'Chat (1 new message)' })).toBeVisible();
  await vetPage.getByRole('button', { name: 'Chat (1 new message)' }).click();
  await expect(vetPage.getByRole('log', { name: 'Messages' })).toContainText('Good morning, doctor. She still limps.');
  await vetPage.getByRole('textbox', { name: 'Message' }).fill('Let me see the leg, please.');
  await vetPage.keyboard.press('Enter');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Let me see the leg, please.');
  await expectAccessible(page);

  // The vet mutes: the customer sees it; the customer's camera off: the vet sees it.
  const mute = vetPage.getByRole('button', { name: 'Mute the microphone' });
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('img', { name: `${vet.name}'s microphone is off` })).toBeVisible();
  await mute.click();
  await expect(page.getByRole('img', { name: `${vet.name}'s microphone is off` })).toHaveCount(0);
  await page.getByRole('button', { name: 'Turn the camera off' }).click();
  await expect(vetPage.getByText(`${DEMO.customer.name} has the camera off`)).toBeVisible();
  await page.getByRole('button', { name: 'Turn the camera off' }).click();
  await expect(vetPage.getByText(`${DEMO.customer.name} has the camera off`)).toHaveCount(0);

  // The customer hangs up: the room is gone for them, and the vet is told.
  await page.getByRole('button', { name: 'Leave the call' }).click();
  await expect(page.getByText('You left the consultation.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await expect(page.getByTestId('remote-video')).toHaveCount(0);
  expect(await page.evaluate(() => window.sessionStorage.getItem('vetcall.room'))).toBeNull();
  await expect(vetPage.getByText('The other party left the consultation.')).toBeVisible();

  // … and can come back with the same PIN.
  await page.getByRole('button', { name: 'Connect' }).click();
  await expectRemoteVideoPlaying(vetPage);
  await expectRemoteVideoPlaying(page);
  await vetPage.getByRole('button', { name: 'Leave the call' }).click();
  await expect(page.getByText('The other party left the consultation.')).toBeVisible();
  await vetContext.close();
});
