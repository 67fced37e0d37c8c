import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, calendarEvents, products } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  buildPaymentWorld,
  buildUnpaidAppointment,
  FORM_HEADERS,
  paymentForm,
  type PaymentWorld,
  readAppointment,
} from '../../../test/payment-world.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { notifyRequestReceived } from '../appointments/request-emails.ts';
import { retryDelayMs } from '../../jobs/job-queue.ts';

/** Friday 20 November 2026, 10:00 UTC. The appointments are on Tuesday 1 December, 10:00 UTC. */
const NOW = '2026-11-20T10:00:00Z';
const NOW_DATE = new Date(NOW);

describe('payments with the built-in provider', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let t: TestApp;
  let w: PaymentWorld;
  let clock: ReturnType<typeof fixedClock>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    w = await buildPaymentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(email));
  const postForm = (locale: string, body: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/payment/${locale}`,
      headers: { ...FORM_HEADERS, ...headers },
      payload: body,
    });
  const getCheckout = (headers: Record<string, string>, hash: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/payment/checkout/${hash}${query}`, headers });
  const pay = (headers: Record<string, string>, hash: string, card = '4242 4242 4242 4242', query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/api/payment/checkout/${hash}/pay${query}`,
      headers,
      payload: { card_number: card, expiry: '12/30', cvc: '123', name: 'Ana Test' },
    });
  const cancel = (headers: Record<string, string>, hash: string, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/payment/checkout/${hash}/cancel${query}`, headers });
  const lookup = (headers: Record<string, string>, hash: string) =>
    t.app.inject({ method: 'GET', url: `/api/appointments/paymenthash/${hash}`, headers });
  const confirm = (headers: Record<string, string>, hash: string, language = 'en') =>
    t.app.inject({ method: 'PUT', url: `/api/appointments/confirmpayment/${hash}/${language}`, headers });

  /** Both request emails of one appointment went out exactly once, in each reader's language. */
  function expectRequestEmailsOnce() {
    const toAna = mailsTo(w.ana.user.email);
    const toRui = mailsTo(w.rui.user.email);
    expect(toAna).toHaveLength(1);
    expect(toRui).toHaveLength(1);
    return { customerMail: toAna[0]!, vetMail: toRui[0]! };
  }

  describe('POST /api/payment/{locale}: the payment form', () => {
    it('sends a paid appointment to the built-in checkout page and changes nothing yet', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await postForm('en', paymentForm(w.ana, paymentHash));
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/checkout/${paymentHash}?lang=en`);
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_PendingPayment');
      expect(event.kind).toBe('hold');
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
    });

    it('marks a free appointment paid at 0, turns its hold into the booking and goes to Request Confirmed', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana, { priceCents: 0 });
      const response = await postForm('pt', paymentForm(w.ana, paymentHash, { appointment_included: '1' }));
      expect(response.statusCode).toBe(303);
      const location = new URL(response.headers.location as string, 'http://vetcall.test');
      expect(location.pathname).toBe('/requestconfirmed/');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        paymentHash,
        lang: 'pt',
        value: '0',
        item_name: 'Video consultation',
        is_first_purchase: 'true',
      });
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({
        status: 'TK_Requested',
        paymentProvider: 'free',
        paidAt: NOW_DATE,
        statusDate: NOW_DATE,
        requestNotifiedAt: NOW_DATE,
      });
      expect(event).toMatchObject({ kind: 'booking', expiresAt: null, releasedAt: null });

      const { customerMail } = expectRequestEmailsOnce();
      expect(customerMail.subject).toBe('We received your appointment request');
      expect(customerMail.text).toContain('Price: free (included with your access code)');
    });

    it('answers is_first_purchase=false once the customer has paid before', async () => {
      const first = await buildUnpaidAppointment(t, w, w.ana, { priceCents: 0 });
      expect((await postForm('en', paymentForm(w.ana, first.paymentHash))).statusCode).toBe(303);
      clock.advance(60_000);
      const second = await buildUnpaidAppointment(t, w, w.ana, {
        priceCents: 0,
        schedule: new Date('2026-12-02T10:00:00Z'),
      });
      const response = await postForm('en', paymentForm(w.ana, second.paymentHash, { appointment_included: '1' }));
      expect(new URL(response.headers.location as string, 'http://x').searchParams.get('is_first_purchase')).toBe(
        'false',
      );
    });

    it('lets the price decide, not appointment_included', async () => {
      const priced = await buildUnpaidAppointment(t, w, w.ana);
      const response = await postForm('en', paymentForm(w.ana, priced.paymentHash, { appointment_included: '1' }));
      expect(response.headers.location).toBe(`/checkout/${priced.paymentHash}?lang=en`);
      expect((await readAppointment(t, priced.appointment.id)).appointment.status).toBe('TK_PendingPayment');
    });

    it('refuses a session that is not the owner’s: invalid token 401, another customer’s token or appointment 403', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana, { priceCents: 0 });
      const attempts: { form: Record<string, string>; status: number }[] = [
        { form: { auth_token: 'not-a-session-token' }, status: 401 },
        // Another customer's token (stolen, or Bia's own) posted as Ana.
        { form: { auth_token: w.bia.token }, status: 403 },
        // Bia as herself, paying Ana's appointment.
        { form: { auth_token: w.bia.token, customer_user_id: String(w.bia.user.id) }, status: 403 },
        // A vet's session.
        { form: { auth_token: w.rui.token, customer_user_id: String(w.rui.user.id) }, status: 403 },
        // An unknown payment hash.
        { form: { payment_hash: 'x'.repeat(22) }, status: 403 },
      ];
      for (const attempt of attempts) {
        const response = await postForm('en', paymentForm(w.ana, paymentHash, attempt.form));
        expect(response.statusCode, JSON.stringify(attempt.form)).toBe(attempt.status);
      }
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_PendingPayment');
    });

    it('refuses a lapsed hold with 409 payment_closed and ends the appointment as payment failed', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana, {
        holdExpiresAt: new Date(NOW_DATE.getTime() - 1000),
      });
      const response = await postForm('en', paymentForm(w.ana, paymentHash));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'payment_closed' });
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_PaymentFailed');
      expect(event.releasedAt).toEqual(NOW_DATE);
    });

    it('refuses a released hold, a canceled or a failed appointment (409 payment_closed)', async () => {
      const released = await buildUnpaidAppointment(t, w, w.ana, { holdReleasedAt: NOW_DATE });
      const canceled = await buildUnpaidAppointment(t, w, w.ana, {
        status: 'TK_Canceled',
        schedule: new Date('2026-12-02T10:00:00Z'),
      });
      const failed = await buildUnpaidAppointment(t, w, w.ana, {
        status: 'TK_PaymentFailed',
        schedule: new Date('2026-12-03T10:00:00Z'),
      });
      for (const { paymentHash } of [released, canceled, failed]) {
        const response = await postForm('en', paymentForm(w.ana, paymentHash, { appointment_included: '0' }));
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toBe('payment_closed');
      }
    });

    it('sends a second submit of a paid appointment to Request Sent (nothing is paid twice)', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana, { priceCents: 0 });
      await postForm('en', paymentForm(w.ana, paymentHash));
      const again = await postForm('en', paymentForm(w.ana, paymentHash));
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(`/requestsent/${paymentHash}?lang=en`);
      expectRequestEmailsOnce();
    });

    it('has no Stripe webhook with the built-in provider', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/payment/webhook/stripe', payload: {} });
      expect(response.statusCode).toBe(404);
    });

    it('validates the form and the locale', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const missing = await postForm('en', paymentForm(w.ana, paymentHash, { auth_token: '' }));
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ error: 'validation_failed', fields: { auth_token: 'required' } });
      const badLocale = await postForm('fr', paymentForm(w.ana, paymentHash));
      expect(badLocale.statusCode).toBe(400);
    });

    it('shows a browser its error as a page in the form’s language, without echoing the form', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await postForm('pt-BR', paymentForm(w.bia, paymentHash), {
        accept: 'text/html,application/xhtml+xml',
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Você não tem permissão para fazer isso.');
      expect(response.body).toContain('<a href="/customer">Voltar</a>');
      expect(response.body).not.toContain(w.bia.token);
    });
  });

  describe('the built-in checkout API', () => {
    it('shows the owner what is bought', async () => {
      const { hold, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await getCheckout(w.ana.headers, paymentHash);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        payment_hash: paymentHash,
        amount_cents: 2500,
        currency: 'EUR',
        item_name: 'Video consultation',
        schedule: '2026-12-01T10:00:00.000Z',
        vet_name: 'Rui Vet',
        pet_name: "Ana's cat",
        status: 'TK_PendingPayment',
        expires_at: hold.expiresAt!.toISOString(),
      });
    });

    it('names the product in the language of the page, whatever language the booking stored it in', async () => {
      await t.db.insert(products).values({
        designation: { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Teleconsulta' },
        priceCents: 2500,
      });
      // Bia reads Portuguese: her booking stored the Portuguese name.
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.bia, { itemName: 'Consulta por vídeo' });
      const itemName = async (query: string) => (await getCheckout(w.bia.headers, paymentHash, query)).json().item_name;
      expect(await itemName('?lang=en')).toBe('Video consultation');
      expect(await itemName('?lang=pt-BR')).toBe('Teleconsulta');
      expect(await itemName('?lang=pt')).toBe('Consulta por vídeo');
      expect(await itemName('')).toBe('Consulta por vídeo');
      expect((await getCheckout(w.bia.headers, paymentHash, '?lang=xx')).statusCode).toBe(400);
    });

    it('keeps the stored name of a product that has since been renamed', async () => {
      await t.db.insert(products).values({
        designation: { en: 'Video call', pt: 'Videochamada', 'pt-BR': 'Videochamada' },
        priceCents: 2500,
      });
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.bia, { itemName: 'Consulta por vídeo' });
      const response = await getCheckout(w.bia.headers, paymentHash, '?lang=en');
      expect(response.json().item_name).toBe('Consulta por vídeo');
    });

    it('hides it from everyone else', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      expect((await getCheckout({}, paymentHash)).statusCode).toBe(401);
      expect((await getCheckout(w.rui.headers, paymentHash)).statusCode).toBe(403);
      expect((await getCheckout(w.manager.headers, paymentHash)).statusCode).toBe(403);
      const other = await getCheckout(w.bia.headers, paymentHash);
      expect(other.statusCode).toBe(404);
      expect(other.json().error).toBe('invalid_payment_hash');
      expect((await getCheckout(w.ana.headers, 'unknown-payment-hash-000')).json().error).toBe('invalid_payment_hash');
      expect((await pay(w.bia.headers, paymentHash)).statusCode).toBe(404);
      expect((await cancel(w.bia.headers, paymentHash)).statusCode).toBe(404);
      expect((await pay(w.rui.headers, paymentHash)).statusCode).toBe(403);
    });

    it('pays with 4242 4242 4242 4242: booked, Request Sent, both emails once in their languages', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await pay(w.ana.headers, paymentHash);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ redirect_url: `/requestsent/${paymentHash}?lang=en` });
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({ status: 'TK_Requested', paymentProvider: 'builtin', paidAt: NOW_DATE });
      expect(event).toMatchObject({ kind: 'booking', expiresAt: null, releasedAt: null });

      const { customerMail, vetMail } = expectRequestEmailsOnce();
      // Ana reads English at her browser's offset (UTC+01:00: no zone of her country had it) and sees what she paid.
      expect(customerMail.subject).toBe('We received your appointment request');
      expect(customerMail.text).toContain('Requested time: Tuesday, 1 December 2026 at 11:00 (UTC+01:00)');
      expect(customerMail.text).toContain('Paid: €25.00 (Video consultation)');
      expect(customerMail.text).toContain("with Rui Vet for Ana's cat");
      // Rui reads Brazilian Portuguese in his profile's zone, with the complaint and the confirmation link.
      const link = `http://vetcall.test/confirmappointment/${appointment.hash}?lang=pt-BR`;
      expect(vetMail.subject).toBe(
        "Nova solicitação de consulta: Ana's cat, terça-feira, 1 de dezembro de 2026 às 07:00 (America/Sao_Paulo)",
      );
      expect(vetMail.text).toContain(link);
      expect(vetMail.text).toContain('Queixa principal: Sneezing <a lot> since Monday.');
      expect(vetMail.text).toContain("Ana solicitou uma videoconsulta para Ana's cat (Gato).");
      expect(vetMail.html).toContain('Sneezing &lt;a lot&gt; since Monday.');
      expect(vetMail.html).toContain(`href="${link}"`);

      // Paying again (a double click) answers the same and sends nothing more.
      const again = await pay(w.ana.headers, paymentHash, '4242424242424242', '?lang=pt');
      expect(again.json()).toEqual({ redirect_url: `/requestsent/${paymentHash}?lang=pt` });
      expectRequestEmailsOnce();
    });

    it('declines 4000 0000 0000 0002 and any other number (402 card_declined); the appointment stays payable', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      for (const card of ['4000 0000 0000 0002', '5555 5555 5555 4444']) {
        const response = await pay(w.ana.headers, paymentHash, card);
        expect(response.statusCode).toBe(402);
        expect(response.json().error).toBe('card_declined');
      }
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_PendingPayment');
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
      expect((await pay(w.ana.headers, paymentHash)).statusCode).toBe(200);
    });

    it('validates the card form', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/payment/checkout/${paymentHash}/pay`,
        headers: w.ana.headers,
        payload: { card_number: '4242', expiry: '13/30', cvc: '1', name: '' },
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fields).sort()).toEqual(['card_number', 'cvc', 'expiry', 'name']);
    });

    it('limits card attempts per appointment', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await pay(w.ana.headers, paymentHash, '4000000000000002')).statusCode).toBe(402);
      }
      const limited = await pay(w.ana.headers, paymentHash);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      clock.advance(15 * 60_000);
      expect((await pay(w.ana.headers, paymentHash)).statusCode).toBe(200);
    });

    it('refuses to pay once the hold has lapsed (409 payment_closed, payment failed, slot released)', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      clock.advance(20 * 60_000);
      const response = await pay(w.ana.headers, paymentHash);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('payment_closed');
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_PaymentFailed');
      expect(event.releasedAt).toEqual(clock.now());
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
    });

    it('cancels: the appointment is canceled and its slot given back; paying afterwards is refused', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await cancel(w.ana.headers, paymentHash);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ redirect_url: '/customerdata?lang=en&access=customer&payment_canceled=1' });
      // Again, from a page read in Portuguese: the same answer, in the language being read.
      expect((await cancel(w.ana.headers, paymentHash, '?lang=pt')).json()).toEqual({
        redirect_url: '/customerdata?lang=pt&access=customer&payment_canceled=1',
      });
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_Canceled');
      expect(event).toMatchObject({ kind: 'hold', releasedAt: NOW_DATE });
      // The time is free again: another customer's hold on it is accepted by the no-overlap constraint.
      await t.db.insert(calendarEvents).values({
        eventId: 'bia-takes-the-slot-0001',
        vetUserId: w.rui.user.id,
        customerUserId: w.bia.user.id,
        kind: 'hold',
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        expiresAt: new Date(NOW_DATE.getTime() + 15 * 60_000),
      });
      expect((await cancel(w.ana.headers, paymentHash)).json()).toEqual({
        redirect_url: '/customerdata?lang=en&access=customer&payment_canceled=1',
      });
      expect((await pay(w.ana.headers, paymentHash)).json().error).toBe('payment_closed');
    });

    it('settles a race between paying and canceling: one wins, the slot is booked or given back, never both', async () => {
      for (let round = 0; round < 3; round += 1) {
        const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana, {
          schedule: new Date(Date.UTC(2026, 11, 1 + round, 10)),
        });
        const [paid, canceled] = await Promise.all([
          pay(w.ana.headers, paymentHash),
          cancel(w.ana.headers, paymentHash),
        ]);
        const { appointment: after, event } = await readAppointment(t, appointment.id);
        if (after.status === 'TK_Requested') {
          expect(paid.statusCode).toBe(200);
          expect(canceled.statusCode).toBe(409);
          expect(event).toMatchObject({ kind: 'booking', releasedAt: null });
        } else {
          expect(after.status).toBe('TK_Canceled');
          expect(canceled.statusCode).toBe(200);
          expect(paid.statusCode).toBe(409);
          expect(event).toMatchObject({ kind: 'hold', releasedAt: NOW_DATE });
        }
      }
    });

    it('does not cancel a paid appointment', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      await pay(w.ana.headers, paymentHash);
      const response = await cancel(w.ana.headers, paymentHash);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('payment_closed');
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_Requested');
    });
  });

  describe('GET /api/appointments/paymenthash and PUT /api/appointments/confirmpayment', () => {
    it('looks the payment up for its owner, before and after paying', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const before = await lookup(w.ana.headers, paymentHash);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({
        payment_hash: paymentHash,
        status: 'TK_PendingPayment',
        paid: false,
        value: 2500,
        item_name: 'Video consultation',
        is_first_purchase: true,
        schedule: '2026-12-01T10:00:00.000Z',
        vet_name: 'Rui Vet',
        pet_name: "Ana's cat",
      });
      await pay(w.ana.headers, paymentHash);
      expect((await lookup(w.ana.headers, paymentHash)).json()).toMatchObject({
        status: 'TK_Requested',
        paid: true,
        is_first_purchase: true,
      });
    });

    it('answers 404 invalid_payment_hash for an unknown hash and someone else’s; 403 for staff; 401 without a session', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      for (const response of [
        await lookup(w.bia.headers, paymentHash),
        await lookup(w.ana.headers, 'no-such-payment-hash-00'),
        await confirm(w.bia.headers, paymentHash),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toBe('invalid_payment_hash');
      }
      expect((await lookup(w.rui.headers, paymentHash)).statusCode).toBe(403);
      expect((await confirm(w.manager.headers, paymentHash)).statusCode).toBe(403);
      expect((await lookup({}, paymentHash)).statusCode).toBe(401);
      expect((await lookup(w.ana.headers, 'bad hash!')).statusCode).toBe(400);
    });

    it('confirms a paid appointment, as often as asked; refuses an unpaid one with 409 payment_not_completed', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const unpaid = await confirm(w.ana.headers, paymentHash);
      expect(unpaid.statusCode).toBe(409);
      expect(unpaid.json().error).toBe('payment_not_completed');
      await pay(w.ana.headers, paymentHash);
      for (const language of ['en', 'pt', 'pt-BR']) {
        const response = await confirm(w.ana.headers, paymentHash, language);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ success: true });
      }
      expect((await confirm(w.ana.headers, paymentHash, 'xx')).statusCode).toBe(400);
      expectRequestEmailsOnce();
    });

    it('counts a purchase as first only when no paid appointment came before it', async () => {
      const first = await buildUnpaidAppointment(t, w, w.ana);
      const second = await buildUnpaidAppointment(t, w, w.ana, { schedule: new Date('2026-12-02T10:00:00Z') });
      await pay(w.ana.headers, second.paymentHash);
      clock.advance(60_000);
      await pay(w.ana.headers, first.paymentHash);
      expect((await lookup(w.ana.headers, second.paymentHash)).json().is_first_purchase).toBe(true);
      expect((await lookup(w.ana.headers, first.paymentHash)).json().is_first_purchase).toBe(false);
      // Bia's purchases are hers alone.
      const bias = await buildUnpaidAppointment(t, w, w.bia, { schedule: new Date('2026-12-03T10:00:00Z') });
      expect((await lookup(w.bia.headers, bias.paymentHash)).json().is_first_purchase).toBe(true);
    });
  });

  describe('request emails', () => {
    it('go out once the mail server that failed at payment time is back, and never twice', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const realSend = t.context.mailer.send;
      t.context.mailer.send = async () => {
        throw new Error('mail server down');
      };
      // The payment stands, and the emails are queued, though they could not go yet.
      expect((await pay(w.ana.headers, paymentHash)).statusCode).toBe(200);
      t.context.mailer.send = realSend;
      const { appointment: after } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({ status: 'TK_Requested', requestNotifiedAt: NOW_DATE });
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);

      // The Request Sent page confirming queues nothing more.
      expect((await confirm(w.ana.headers, paymentHash)).statusCode).toBe(200);
      expect((await confirm(w.ana.headers, paymentHash)).statusCode).toBe(200);
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
      clock.advance(retryDelayMs(1));
      await t.context.jobs.drain();
      expectRequestEmailsOnce();
    });

    it('go once even when two callers race for them', async () => {
      const { appointment } = await buildUnpaidAppointment(t, w, w.ana, { status: 'TK_Requested' });
      const deps = { ...t.context, log: { error() {}, warn() {}, info() {} } };
      const sent = await Promise.all([
        notifyRequestReceived(deps, appointment.id),
        notifyRequestReceived(deps, appointment.id),
        notifyRequestReceived(deps, appointment.id),
      ]);
      expect(sent.filter(Boolean)).toHaveLength(1);
      await t.context.jobs.drain();
      expectRequestEmailsOnce();
    });

    it('are never sent for an unpaid appointment', async () => {
      const { appointment } = await buildUnpaidAppointment(t, w, w.ana);
      const deps = { ...t.context, log: { error() {}, warn() {}, info() {} } };
      expect(await notifyRequestReceived(deps, appointment.id)).toBe(false);
      const [row] = await t.db.select().from(appointments).where(eq(appointments.id, appointment.id));
      expect(row!.requestNotifiedAt).toBeNull();
    });
  });
});
