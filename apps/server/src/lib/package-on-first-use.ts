import { createRequire } from 'node:module';

const requirePackage = createRequire(import.meta.url);

/**
 * A CommonJS package loaded by its first caller instead of at start. For the SDKs only some deployments use
 * (Stripe, Redis): each took a few hundred milliseconds of every start. Loaded synchronously, so the code that
 * constructs their clients stays synchronous.
 */
export function packageOnFirstUse<Package>(name: string): () => Package {
  let loaded: Package | undefined;
  return () => (loaded ??= requirePackage(name) as Package);
}
