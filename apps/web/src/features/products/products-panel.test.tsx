import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { type Product, type ProductPriceInput, priceToCents, productSchema } from '@vetcall/shared/schemas/product';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { ProductsPanel } from './products-panel';

/** A stand-in for the server at the network boundary: products kept in memory, calls recorded. */
function fakeServer(options: { failPrice?: boolean } = {}) {
  const products: Product[] = [
    { product_id: 1, designation: 'Video consultation', price: 25, price_cents: 2500 },
    { product_id: 2, designation: 'Follow-up call', price: 19.99, price_cents: 1999 },
  ];
  const api = fakeApi()
    .answer('GET', '/api/products/en', z.array(productSchema), () => products)
    .answer('PUT', /^\/api\/products\/price\/(\d+)/, productSchema, ({ match, body }) => {
      if (options.failPrice) return refusal(500, { error: 'internal_error', message: 'x' });
      const product = products.find((p) => p.product_id === Number(match[1]))!;
      product.price = (body as ProductPriceInput).price;
      product.price_cents = priceToCents(product.price);
      return product;
    });
  return api.calls;
}

describe('ProductsPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists id, designation and the price in EUR', async () => {
    fakeServer();
    render(withProviders(<ProductsPanel />));
    const table = await screen.findByRole('table', { name: 'Products and prices' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'IDDesignationPriceOperations',
      expect.stringContaining('1Video consultation€25.00'),
      expect.stringContaining('2Follow-up call€19.99'),
    ]);
  });

  it('edits a price inline, saves it, reloads the list and says so', async () => {
    const calls = fakeServer();
    render(withProviders(<ProductsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the price of Video consultation' }));
    const input = screen.getByRole('textbox', { name: 'Price of Video consultation' });
    await userEvent.clear(input);
    await userEvent.type(input, '27.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save the price of Video consultation' }));
    expect(await screen.findByText('Price of Video consultation updated.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/api/products/price/1?lang=en', body: { price: 27.5 } },
    ]);
    await waitFor(() => expect(screen.getByText('€27.50')).toBeTruthy());
    expect(calls.filter((call) => call.method === 'GET').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('textbox', { name: 'Price of Video consultation' })).toBeNull();
  });

  it('shows an error toast when the server refuses the price', async () => {
    fakeServer({ failPrice: true });
    render(withProviders(<ProductsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the price of Follow-up call' }));
    const input = screen.getByRole('textbox', { name: 'Price of Follow-up call' });
    await userEvent.type(input, '{Enter}');
    expect(await screen.findByText('Error changing the price.')).toBeTruthy();
  });

  it('refuses an empty price without calling the server', async () => {
    const calls = fakeServer();
    render(withProviders(<ProductsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit the price of Follow-up call' }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Price of Follow-up call' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save the price of Follow-up call' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });
});
