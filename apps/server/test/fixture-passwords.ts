import { useFixturePasswordHasher } from '../src/demo-data/factories.ts';
import { hashFixturePassword } from '../src/modules/auth/passwords.ts';

/**
 * Setup file of every server test file: the users the factories build get cheap argon2id hashes, made once per
 * password. The app's own hashing (registration, staff creation, a new password) keeps the production settings,
 * and their tests check it.
 */
const hashes = new Map<string, Promise<string>>();
useFixturePasswordHasher((password) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashFixturePassword(password)));
  return hash;
});
