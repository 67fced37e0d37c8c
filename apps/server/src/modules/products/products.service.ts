import { asc, eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import { centsToPrice, priceToCents, type Product, type ProductDesignations } from '@vetcall/shared/schemas/product';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../db/audit-log.ts';
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

/**
 * An appointment's item name (stored in its customer's language when booked) in `locale`: the same product's
 * designation in that language, found by the stored name. A name no product has any more (renamed since)
 * stays as stored.
 */
export async function itemNameIn(db: Pick<Database, 'select'>, itemName: string, locale: Locale): Promise<string> {
  if (!itemName) return itemName;
  const rows = await db.select({ designation: products.designation }).from(products).orderBy(asc(products.id));
  const product = rows.find((row) => Object.values(row.designation).includes(itemName));
  return product ? designationIn(product.designation, locale) : itemName;
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
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  input: { designation: ProductDesignations; price: number },
  locale: Locale,
): Promise<Product> {
  if (!canManageProducts(actor)) throw forbidden();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(products)
      .values({ designation: input.designation, priceCents: priceToCents(input.price) })
      .returning();
    await recordAudit(tx, {
      actor,
      action: 'product.created',
      subject: { type: 'product', id: created!.id },
      details: { price_cents: created!.priceCents },
      at: deps.clock.now(),
    });
    return created!;
  });
  return toProduct(row, locale);
}

export async function changeProductPrice(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  productId: number,
  price: number,
  locale: Locale,
): Promise<Product> {
  if (!canManageProducts(actor)) throw forbidden();
  const row = await deps.db.transaction(async (tx) => {
    // Locked, so that the price recorded as the old one is the one this change replaced.
    const [current] = await tx
      .select({ priceCents: products.priceCents })
      .from(products)
      .where(eq(products.id, productId))
      .for('update');
    if (!current) throw notFound();
    const [changed] = await tx
      .update(products)
      .set({ priceCents: priceToCents(price) })
      .where(eq(products.id, productId))
      .returning();
    if (changed!.priceCents !== current.priceCents) {
      await recordAudit(tx, {
        actor,
        action: 'product.price_changed',
        subject: { type: 'product', id: productId },
        details: { old_price_cents: current.priceCents, new_price_cents: changed!.priceCents },
        at: deps.clock.now(),
      });
    }
    return changed!;
  });
  return toProduct(row, locale);
}

/**
 * Removes a product. Appointments keep their own price (appointments.price_cents), so history is not
 * affected.
 */
export async function deleteProduct(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  productId: number,
): Promise<{ product_id: number }> {
  if (!canManageProducts(actor)) throw forbidden();
  const row = await deps.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(products)
      .where(eq(products.id, productId))
      .returning({ id: products.id, priceCents: products.priceCents });
    if (!deleted) throw notFound();
    await recordAudit(tx, {
      actor,
      action: 'product.deleted',
      subject: { type: 'product', id: deleted.id },
      details: { price_cents: deleted.priceCents },
      at: deps.clock.now(),
    });
    return deleted;
  });
  return { product_id: row.id };
}
