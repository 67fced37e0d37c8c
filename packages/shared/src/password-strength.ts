import type { estimator as Estimator } from './password-dictionaries.ts';

/**
 * How hard a new password is to guess, on both sides: the shared schemas refuse weak ones (`weak_password`) and
 * the web's strength meter shows the same score as the person types. Logins never judge strength.
 */

/** zxcvbn's score: 0 too guessable … 4 very unguessable. */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/**
 * The lowest score accepted. zxcvbn's 3 means at least 10^8 guesses ("safely unguessable"): out of reach online,
 * where logins are throttled per address and account, and costly offline against argon2id. 2 still admits
 * dictionary words with a digit or symbol; 4 would refuse many memorable passphrases.
 */
export const MIN_PASSWORD_SCORE: PasswordScore = 3;

let estimator: typeof Estimator | undefined;
let loading: Promise<void> | undefined;

/** Loads the dictionaries once; the server awaits it before serving, the web when a new-password field shows. */
export function loadPasswordStrength(): Promise<void> {
  loading ??= import('./password-dictionaries.ts').then((module) => {
    estimator = module.estimator;
  });
  return loading;
}

export const isPasswordStrengthLoaded = (): boolean => estimator !== undefined;

/**
 * The score of `password`; `userInputs` (the person's email, name…) count as guessable words. Undefined until
 * loadPasswordStrength has finished: a form checked before then is checked again by the server.
 */
export function passwordScore(password: string, userInputs: readonly string[] = []): PasswordScore | undefined {
  return estimator?.check(password, expandUserInputs(userInputs)).score;
}

/** False only for a password known to be too guessable. */
export function isStrongEnough(password: string, userInputs: readonly string[] = []): boolean {
  return (passwordScore(password, userInputs) ?? MIN_PASSWORD_SCORE) >= MIN_PASSWORD_SCORE;
}

/**
 * An email and a full name are guessed by their parts too ('carla.sousa@…' → 'carla', 'sousa', 'carlasousa').
 * An email's domain is left out: it is the clinic's or the provider's, shared by many people, not theirs.
 */
function expandUserInputs(inputs: readonly string[]): string[] {
  const words = new Set<string>();
  for (const input of inputs) {
    const value = input.trim().toLowerCase();
    const personal = value.split('@')[0] ?? '';
    const parts = personal.split(/[^\p{L}\p{N}]+/u).filter((part) => part.length >= 3);
    for (const word of [value, personal, parts.join(''), ...parts]) if (word !== '') words.add(word);
  }
  return [...words];
}
