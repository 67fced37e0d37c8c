import { describe, expect, it } from 'vitest';
import {
  formatPrice,
  type RequestDetails,
  renderCustomerRequestEmail,
  renderVetRequestEmail,
} from './request-emails.ts';

const details: RequestDetails = {
  hash: 'appointment-hash-0001',
  schedule: new Date('2026-07-01T09:30:00Z'),
  description: 'Not eating since yesterday.',
  priceCents: 3990,
  itemName: 'Videoconsulta',
  customerZone: { timeZone: 'America/Sao_Paulo' },
  customer: { name: 'Ana', email: 'ana@example.test', locale: 'pt-BR' },
  vet: { name: 'Rui', email: 'rui@clinic.test', locale: 'pt', timezone: 'Europe/Lisbon' },
  pet: { name: 'Tareco', species: 'Dog' },
};

describe('request emails', () => {
  it('show the customer’s time in the zone their browser’s offset matched, else at that offset', () => {
    const atOffset = renderCustomerRequestEmail(
      { ...details, customerZone: { offsetSeconds: 3600 } },
      'https://vetcall.example',
    );
    expect(atOffset.text).toContain('às 10:30 (UTC+01:00)');
  });

  it('show prices in euros in the reader’s language', () => {
    expect(formatPrice('en', 2500)).toBe('€25.00');
    expect(formatPrice('pt', 3990).replace(/\s/g, ' ')).toBe('39,90 €');
    expect(formatPrice('pt-BR', 3990).replace(/\s/g, ' ')).toBe('€ 39,90');
  });

  it('are written in each reader’s language', () => {
    const customer = renderCustomerRequestEmail(details, 'https://vetcall.example');
    expect(customer.subject).toBe('Recebemos sua solicitação de consulta');
    expect(customer.text).toContain('Olá Ana');
    expect(customer.text).toContain('quarta-feira, 1 de julho de 2026 às 06:30 (America/Sao_Paulo)');
    expect(customer.text).toMatch(/Pago: €\s39,90 \(Videoconsulta\)/);
    // Every email links to where its reader acts: the customer, to their appointments.
    expect(customer.text).toContain('https://vetcall.example/customer?mode=appointments&lang=pt-BR');
    const vet = renderVetRequestEmail(details, 'https://vetcall.example');
    expect(vet.subject).toContain('Novo pedido de consulta: Tareco');
    expect(vet.text).toContain('Ana pediu uma videoconsulta para Tareco (Cão).');
    expect(vet.text).toContain('quarta-feira, 1 de julho de 2026 às 10:30 (Europe/Lisbon)');
    expect(vet.text).toContain('https://vetcall.example/confirmappointment/appointment-hash-0001?lang=pt');
    expect(vet.text).toContain('Motivo da consulta: Not eating since yesterday.');
  });
});
