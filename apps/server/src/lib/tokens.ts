import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. Only its hash is ever stored. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex. One-shot `hash` (no Hash object per call): every authenticated request hashes its token. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
