import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as ptBr from '@zxcvbn-ts/language-pt-br';

/**
 * zxcvbn with the common password list and the English and Brazilian Portuguese words and names (there is no
 * European Portuguese pack; the Brazilian one covers most of its words). Megabytes of lists: loaded only through
 * loadPasswordStrength, so no screen pays for them until it shows a new-password field.
 */
export const estimator = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary },
  graphs: common.adjacencyGraphs,
  // The server scores passwords of open routes (registration) on its event loop, so the score must take
  // milliseconds whatever is sent: with the defaults (100 l33t substitutions, 256 characters) a crafted
  // 128-character password took seconds. 4 substitutions still see 'P4$$w0rd' as 'password'; the first 64
  // characters of a longer password are scored.
  l33tMaxSubstitutions: 4,
  maxLength: 64,
});
