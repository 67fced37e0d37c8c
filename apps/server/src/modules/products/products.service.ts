import { asc, eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import { centsToPrice, priceToCents, type Product, type ProductDesignations } from '@vetcall/shared/schemas/product';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canManageProducts, canViewProducts } from './products.policy.ts';

type ProductRow = typeof products.$inferSelect;

/** The designation in the locale asked for; a row missing that language falls back to en, then pt. */
export function designationIn(designation: Partial<ProductDesignations>, locale: Locale): string {
  return designation[locale] || designation.en || designation.pt || designation['pt-BR'] || '';
}

function toProduct(row: ProductRow, locale: Locale): Product {
  return {
    product_id: row.id,
    designation: designationIn(row.designation, locale),
    price: centsToPrice(row.priceCents),
    price_cents: row.priceCents,
  };
}

export async function listProducts(db: Database, actor: Actor, locale: Locale): Promise<Product[]> {
  if (!canViewProducts(actor)) throw forbidden();
  const rows = await db.select().from(products).orderBy(asc(products.id));
  return rows.map((row) => toProduct(row, locale));
}

export async function createProduct(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  input: { designation: ProductDesignations; price: number },
  locale: Locale,
): Promise<Product> {
  if (!canManageProducts(actor)) throw forbidden();
  const [row] = await deps.db
    .insert(products)
    .values({ designation: input.designation, priceCents: priceToCents(input.price) })
    .returning();
  return toProduct(row!, locale);
}

export async function changeProductPrice(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  productId: number,
  price: number,
  locale: Locale,
): Promise<Product> {
  if (!canManageProducts(actor)) throw forbidden();
  const [row] = await deps.db
    .update(products)
    .set({ priceCents: priceToCents(price) })
    .where(eq(products.id, productId))
    .returning();
  if (!row) throw notFound();
  return toProduct(row, locale);
}

/**
 * Removes a product. Appointments keep their own price (appointments.price_cents), so history is not
 * affected.
 */
export async function deleteProduct(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  productId: number,
): Promise<{ product_id: number }> {
  if (!canManageProducts(actor)) throw forbidden();
  const [row] = await deps.db.delete(products).where(eq(products.id, productId)).returning({ id: products.id });
  if (!row) throw notFound();
  return { product_id: row.id };
}
