import { and, asc, eq } from 'drizzle-orm';
import type { Locale } from '@vetcall/shared/locales';
import { normalizeAccessCode } from '@vetcall/shared/schemas/access-code';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { accessCodes, products, users, vets } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import { assertAccessCodeBudget, countWrongAccessCode, isWithinDates } from '../access-codes/access-codes.service.ts';
import type { Actor } from '../auth/auth.service.ts';
import { designationIn } from '../products/products.service.ts';

/** What a booking costs, computed on the server only (ARCHITECTURE §4 Money: integer cents, EUR). */
export interface BookingPrice {
  /** The product's price, before the vet's discount. */
  listPriceCents: number;
  discountPercent: number;
  /** What the customer pays: 0 with an included access code. */
  priceCents: number;
  itemName: string;
  included: boolean;
  accessCodeId: number | null;
}

export const noProduct = () =>
  new AppError('no_product', 409, { message: 'No consultation product is on sale; ask the clinic to set one up.' });
export const accessCodeRequired = () =>
  new AppError('invalid_access_code', 400, {
    message: 'An access code is required to book.',
    fields: { access_code: 'required' },
  });
export const invalidAccessCode = () =>
  new AppError('invalid_access_code', 400, {
    message: 'The access code is not valid.',
    fields: { access_code: 'invalid_value' },
  });

/** The vet's discount percent (0–100) knocked off the list price, rounded to the nearest cent. */
export const discountedCents = (listPriceCents: number, discountPercent: number): number =>
  Math.round((listPriceCents * (100 - discountPercent)) / 100);

/** An active vet by user id (vet_user_id of appointment_data), with the discount that prices them. */
export async function findBookableVet(db: Pick<Database, 'select'>, vetUserId: number) {
  const [row] = await db
    .select({ userId: users.id, discount: vets.discount })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(and(eq(vets.userId, vetUserId), eq(users.active, true), eq(users.type, 'vet')))
    .limit(1);
  return row;
}

/** What is sold: the first product (docs/product-rules.md#entities Product; the clinic sells one consultation). */
async function findConsultationProduct(db: Pick<Database, 'select'>) {
  const [row] = await db.select().from(products).orderBy(asc(products.id)).limit(1);
  return row;
}

/**
 * A typed access code, checked as POST /api/appointmentsaccesscodes/validate checks it (exists, not
 * disabled, dates cover today): the code's row, or 400 invalid_access_code.
 */
async function findValidAccessCode(db: Pick<Database, 'select'>, code: string, now: Date) {
  const [row] = await db
    .select()
    .from(accessCodes)
    .where(eq(accessCodes.code, normalizeAccessCode(code)))
    .limit(1);
  if (!row || row.disabledAt !== null || !isWithinDates(row, now)) throw invalidAccessCode();
  return row;
}

/**
 * The price of booking a vet: the product's price minus the vet's discount, or 0 with a valid included
 * access code (a valid code that is not included changes nothing but is remembered). Unknown or
 * inactive vet: 404; no product: 409 no_product; a bad code: 400 invalid_access_code. With access codes
 * turned off (ACCESS_CODES_ENABLED=false) a code is ignored.
 */
export async function priceBooking(
  db: Pick<Database, 'select'>,
  input: {
    vetUserId: number;
    accessCode?: string;
    locale: Locale;
    now: Date;
    accessCodesEnabled: boolean;
    /** A booking (not a quote) needs a valid code while access codes are on. */
    codeRequired?: boolean;
  },
): Promise<BookingPrice> {
  const vet = await findBookableVet(db, input.vetUserId);
  if (!vet) throw notFound();
  const product = await findConsultationProduct(db);
  if (!product) throw noProduct();
  const typed = input.accessCodesEnabled ? input.accessCode?.trim() : undefined;
  if (input.accessCodesEnabled && input.codeRequired && !typed) throw accessCodeRequired();
  const code = typed ? await findValidAccessCode(db, typed, input.now) : undefined;
  const included = code?.included ?? false;
  return {
    listPriceCents: product.priceCents,
    discountPercent: vet.discount,
    priceCents: included ? 0 : discountedCents(product.priceCents, vet.discount),
    itemName: designationIn(product.designation, input.locale),
    included,
    accessCodeId: code?.id ?? null,
  };
}

/**
 * Runs `price` for a request that typed a code, within the same guessing budget as the validate route: refused
 * with 429 once the user's or the address's wrong codes are used up; a wrong code (400 invalid_access_code)
 * counts, a valid one never does.
 */
export async function withinAccessCodeBudget<T>(
  deps: Pick<AppContext, 'limiter'>,
  actor: Actor,
  ip: string,
  price: () => Promise<T>,
): Promise<T> {
  await assertAccessCodeBudget(deps, actor, ip);
  try {
    return await price();
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_access_code') await countWrongAccessCode(deps, actor, ip);
    throw error;
  }
}
