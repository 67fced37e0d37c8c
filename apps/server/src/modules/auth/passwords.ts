import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2, a const enum that isolated modules cannot import. */
const ARGON2ID = 2;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * The cheapest argon2id hash, for test fixtures only: a verify reads its cost from the hash, so logging in as
 * a fixture user costs microseconds instead of the baseline's ~12 ms, which thousands of API tests add up.
 */
export function hashFixturePassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 64, timeCost: 1, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified when the email is unknown so that a login for a missing
 * account costs as much time as one for an existing account (no enumeration by timing).
 */
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}
