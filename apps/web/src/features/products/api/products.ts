import { useQuery } from '@tanstack/react-query';
import type { Locale } from '@vetcall/shared/locales';
import type { Product, ProductInput } from '@vetcall/shared/schemas/product';
import { apiRequest } from '../../../lib/api-client';

export const productsQueryKey = (locale: Locale) => ['products', locale] as const;

/** GET /api/products/{locale}: designations in the locale, prices in EUR. */
export function useProducts(locale: Locale) {
  return useQuery({
    queryKey: productsQueryKey(locale),
    queryFn: () => apiRequest<Product[]>(`/api/products/${locale}`),
  });
}

/** POST /api/products (managers). */
export function createProduct(input: ProductInput, locale: Locale): Promise<Product> {
  return apiRequest(`/api/products?lang=${locale}`, { method: 'POST', body: input });
}

/** PUT /api/products/price/{product_id} {price} (managers; EUR, at most two decimals). */
export function changeProductPrice(productId: number, price: number, locale: Locale): Promise<Product> {
  return apiRequest(`/api/products/price/${productId}?lang=${locale}`, { method: 'PUT', body: { price } });
}

/** DELETE /api/products/{product_id} (managers). */
export function deleteProduct(productId: number): Promise<{ product_id: number }> {
  return apiRequest(`/api/products/${productId}`, { method: 'DELETE' });
}
