import { CURRENCY } from '@vetcall/shared/constants';
import type { Quote } from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canQuoteAppointment } from './appointment.policy.ts';
import { priceBooking, withinAccessCodeBudget } from './pricing.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'limiter'>;

/**
 * GET /api/appointments/quote: what booking this vet costs the customer now, in their language. The
 * same rule prices the booking itself (POST /api/appointments computes it again).
 */
export async function quoteAppointment(
  deps: Deps,
  actor: Actor,
  query: { vet_user_id: number; access_code?: string },
  ip: string,
): Promise<Quote> {
  if (!canQuoteAppointment(actor)) throw forbidden();
  const typedCode = deps.config.accessCodesEnabled && Boolean(query.access_code?.trim());
  const priceNow = () =>
    priceBooking(deps.db, {
      vetUserId: query.vet_user_id,
      accessCode: query.access_code,
      locale: actor.locale,
      now: deps.clock.now(),
      accessCodesEnabled: deps.config.accessCodesEnabled,
    });
  const price = typedCode ? await withinAccessCodeBudget(deps, actor, ip, priceNow) : await priceNow();
  return {
    price_cents: price.priceCents,
    list_price_cents: price.listPriceCents,
    discount_percent: price.discountPercent,
    item_name: price.itemName,
    included: price.included,
    currency: CURRENCY,
  };
}
