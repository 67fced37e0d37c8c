import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { z } from 'zod';
import {
  type Product,
  type ProductInput,
  type ProductPriceInput,
  priceToCents,
  productSchema,
} from '@vetcall/shared/schemas/product';
import { fakeApi, refusal } from '../../test/fake-api';
import { addPortugueseCatalogs, initTestI18n, withProviders } from '../../test/render';
import { fill } from '../../test/user-input';
import { ProductsPanel } from './products-panel';

/** A stand-in for the server at the network boundary: products kept in memory, calls recorded. */
function fakeServer(options: { failPrice?: boolean } = {}) {
  const products: Product[] = [
    { product_id: 1, designation: 'Video consultation', price: 25, price_cents: 2500 },
    { product_id: 2, designation: 'Follow-up call', price: 19.99, price_cents: 1999 },
  ];
  const api = fakeApi()
    .answer('GET', /^\/api\/products\/(en|pt|pt-BR)$/, z.array(productSchema), () => products)
    .answer('PUT', /^\/api\/products\/price\/(\d+)/, productSchema, ({ match, body }) => {
      if (options.failPrice) return refusal(500, { error: 'internal_error', message: 'x' });
      const product = products.find((p) => p.product_id === Number(match[1]))!;
      product.price = (body as ProductPriceInput).price;
      product.price_cents = priceToCents(product.price);
      return product;
    })
    .answer('POST', /^\/api\/products\?/, productSchema, ({ body }) => {
      const input = body as ProductInput;
      return { product_id: 3, designation: input.designation.en, price: input.price, price_cents: 0 };
    });
  return api.calls;
}

describe('ProductsPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
    addPortugueseCatalogs();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await i18next.changeLanguage('en');
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
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of Video consultation' }));
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
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of Follow-up call' }));
    const input = screen.getByRole('textbox', { name: 'Price of Follow-up call' });
    await userEvent.type(input, '{Enter}');
    expect(await screen.findByText('Error changing the price.')).toBeTruthy();
  });

  it('refuses an empty price without calling the server', async () => {
    const calls = fakeServer();
    render(withProviders(<ProductsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of Follow-up call' }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Price of Follow-up call' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save the price of Follow-up call' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });

  it.each(['en', 'pt', 'pt-BR'])(
    'in %s, saves 27.5 and 27,5 as 27.50 EUR, typed or filled in at once',
    async (lang) => {
      await i18next.changeLanguage(lang);
      const calls = fakeServer();
      render(withProviders(<ProductsPanel />));
      const name = 'Video consultation';
      for (const text of ['27.5', '27,5']) {
        for (const enter of [fill, (field: HTMLElement, typed: string) => userEvent.type(field, typed)]) {
          await userEvent.click(
            await screen.findByRole('button', { name: i18next.t('products.edit_price_named', { name }) }),
          );
          const input = screen.getByRole('textbox', { name: i18next.t('products.price_of', { name }) });
          await userEvent.clear(input);
          await enter(input, text);
          await userEvent.click(screen.getByRole('button', { name: i18next.t('products.save_named', { name }) }));
          await waitFor(() =>
            expect(
              calls.filter((call) => call.method === 'PUT').map((call) => call.body),
              `${text} (${enter.name})`,
            ).toEqual([{ price: 27.5 }]),
          );
          calls.length = 0;
        }
      }
    },
  );

  it('in Portuguese, creates a product priced 12.5 written with a point, shown back as 12,50', async () => {
    await i18next.changeLanguage('pt');
    const calls = fakeServer();
    render(withProviders(<ProductsPanel />));
    const form = within(await screen.findByRole('region', { name: 'Novo produto' }));
    await fill(form.getByRole('textbox', { name: /^Designação \(inglês\)/ }), 'Nail trim');
    await fill(form.getByRole('textbox', { name: /^Designação \(português de Portugal\)/ }), 'Corte de unhas');
    await fill(form.getByRole('textbox', { name: /^Designação \(português do Brasil\)/ }), 'Corte de unhas');
    const price = form.getByRole('textbox', { name: /^Preço \(EUR\)/ });
    await fill(price, '12.5');
    await userEvent.tab();
    expect(price).toHaveProperty('value', '12,50');
    await userEvent.click(form.getByRole('button', { name: 'Criar produto' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { designation: { en: 'Nail trim', pt: 'Corte de unhas', 'pt-BR': 'Corte de unhas' }, price: 12.5 },
      ]),
    );
  });
});
