import type { Actor } from '../auth/auth.service.ts';

/** Any logged-in user reads the products and their prices (the booking screen shows the price). */
export const canViewProducts = (_actor: Actor) => true;

/**
 * Only managers create, remove and reprice products (docs/product-rules.md#permissions Manager: "edits product
 * prices").
 */
export const canManageProducts = (actor: Actor) => actor.type === 'manager';
