#!/usr/bin/env node
// One-off, to be deleted after use: rewrites the citations of the old external specification in source files
// ("SPEC §2.5", "(SPEC §4, §9)", "SPEC.md §7") into citations of docs/product-rules.md, as
// "docs/product-rules.md#pin-screen"; a list keeps the path once: "docs/product-rules.md#states, #limits".
// Comment lines pushed past prettier's printWidth are wrapped. Prints the rewrites per file and exits 1 if any
// citation is left. Run from the repository root: node scripts/repoint-spec-citations.mjs
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const DOC = 'docs/product-rules.md';
const WIDTH = JSON.parse(readFileSync(path.join(root, '.prettierrc.json'), 'utf8')).printWidth ?? 80;

/** Section of the old specification → anchor of docs/product-rules.md ('2.10' quoted: the number 2.10 is 2.1). */
const ANCHORS = {
  1: 'product',
  2.1: 'routes',
  2.2: 'navigation-guard',
  2.3: 'login-and-account',
  2.4: 'booking',
  2.5: 'pin-screen',
  2.6: 'request-sent',
  2.7: 'request-confirmed',
  2.8: 'confirmation-page',
  2.9: 'calendar-callback',
  '2.10': 'customer-data',
  2.11: 'vet-screens',
  2.12: 'manager-screens',
  2.13: 'appointment-records',
  2.14: 'pet-records',
  3: 'entities',
  4: 'states',
  5: 'validation',
  6: 'permissions',
  7: 'api',
  8: 'errors',
  9: 'limits',
};

/** Wordings the general rule would mangle (possessives) or cannot see (SPEC without a section). */
const PHRASES = [
  ["SPEC §3's default zone (GMT)", `the default zone, GMT (${DOC}#limits)`],
  ["SPEC §8's thrown keys are kept as named", `The error_* keys of ${DOC}#errors are kept as named`],
  ["SPEC §7's toolbar", `The toolbar (${DOC}#pin-screen)`],
  ['(SPEC appointment_data vet_user_id)', '(vet_user_id of appointment_data)'],
  ['(SPEC gives no number;', '(the product rules give no number;'],
  ['fills the SPEC defaults', 'fills the defaults'],
  ['(SPEC: no slot blocked by an abandoned payment)', '(no slot stays blocked by an abandoned payment)'],
];

const CITATION = /SPEC(?:\.md)? §(\d+(?:\.\d+)?)('s)?/g;
const HAS_CITATION = /SPEC(?:\.md)? §\d/;
/** A further section of the same citation ("…, §9", "… and §5", "§5/§8"); not "RFC 5545 §3.1" or "ARCHITECTURE §4". */
const FOLLOW_ON = /(?<!(?:\b[A-Z]{2,}|\bRFC \d+) )§(\d+(?:\.\d+)?)/g;

function anchorOf(section, file) {
  const anchor = ANCHORS[section];
  if (!anchor) throw new Error(`${file}: no anchor for §${section}; add it to ANCHORS`);
  return anchor;
}

/** Rewrites one line; answers the new line and how many citations it rewrote. */
function rewriteLine(line, file) {
  let count = 0;
  for (const [from, to] of PHRASES) {
    if (line.includes(from)) {
      line = line.replaceAll(from, to);
      count += 1;
    }
  }
  if (!HAS_CITATION.test(line)) return { line, count };
  line = line.replace(CITATION, (_match, section, possessive) => {
    count += 1;
    const cited = `${DOC}#${anchorOf(section, file)}`;
    return possessive ? `the product rules' (${cited})` : cited;
  });
  line = line.replace(FOLLOW_ON, (_match, section) => {
    count += 1;
    return `#${anchorOf(section, file)}`;
  });
  return { line, count };
}

/** The comment prefix of a line and the prefix its continuation lines take, if it is a comment line. */
function commentShape(line) {
  let match = /^(\s*\/\/ ?)(.*)$/.exec(line);
  if (match) return { head: match[1], next: match[1], text: match[2] };
  match = /^(\s*)\/\*\* (.*?) ?\*\/$/.exec(line);
  if (match) return { head: `${match[1]}/**`, next: `${match[1]} * `, text: match[2], close: `${match[1]} */` };
  match = /^(\s*)\/\*\* (.*)$/.exec(line);
  if (match) return { head: `${match[1]}/** `, next: `${match[1]} * `, text: match[2] };
  match = /^(\s*\* )(.*)$/.exec(line);
  if (match) return { head: match[1], next: match[1], text: match[2] };
  return null;
}

/** Splits `text` so that `prefix + first` fits WIDTH; answers [first, rest] ('' rest when it fits). */
function split(prefix, text) {
  const words = text.split(' ');
  let first = '';
  while (words.length > 0) {
    const candidate = first ? `${first} ${words[0]}` : words[0];
    if (first && prefix.length + candidate.length > WIDTH) break;
    first = candidate;
    words.shift();
  }
  return [first, words.join(' ')];
}

/**
 * Wraps the rewritten comment lines that became too long (`touched[i]`: line i was rewritten), carrying words
 * into the next line of the same paragraph.
 */
function wrap(lines, touched) {
  const out = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const shape = touched[index] && line.length > WIDTH ? commentShape(line) : null;
    if (!shape) {
      out.push(line);
      continue;
    }
    // A bullet's continuation is indented under its text.
    const next = /^- /.test(shape.text) ? `${shape.next}  ` : shape.next;
    if (shape.close) {
      // `/** text */` on one line becomes a block, whose text line is wrapped in the next round.
      out.push(shape.head);
      lines.splice(index + 1, 0, `${shape.next}${shape.text}`, shape.close);
      touched.splice(index + 1, 0, true, false);
      continue;
    }
    const [first, rest] = split(shape.head, shape.text);
    out.push(`${shape.head}${first}`);
    if (!rest) continue;
    // The next line continues the paragraph unless it is empty, a bullet, a tag, a code fence or the end.
    const following = lines[index + 1] ?? '';
    const text = following.slice(next.length);
    const carries = following.startsWith(next) && /^\S/.test(text) && !/^(```|@|- |\*\/)/.test(text);
    if (carries) {
      lines[index + 1] = `${next}${rest} ${text}`;
      touched[index + 1] = true;
    } else {
      lines.splice(index + 1, 0, `${next}${rest}`);
      touched.splice(index + 1, 0, true);
    }
  }
  return out;
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name === 'migrations') return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(name) && full !== self ? [full] : [];
  });
}

const files = ['apps', 'packages', 'e2e', 'bench', 'scripts'].flatMap((dir) => sourceFiles(path.join(root, dir)));
let total = 0;
const changed = [];
for (const file of files) {
  const relative = path.relative(root, file);
  let count = 0;
  const original = readFileSync(file, 'utf8').split('\n');
  const lines = original.map((line) => {
    const rewritten = rewriteLine(line, relative);
    count += rewritten.count;
    return rewritten.line;
  });
  if (count === 0) continue;
  const result = wrap(
    lines,
    lines.map((line, index) => line !== original[index]),
  );
  writeFileSync(file, result.join('\n'));
  total += count;
  changed.push(file);
  console.log(`${String(count).padStart(4)}  ${relative}`);
}
console.log(`${String(total).padStart(4)}  citations rewritten in all`);
// A longer string moves to a line of its own; prettier knows where.
if (changed.length > 0)
  execFileSync(path.join(root, 'node_modules/.bin/prettier'), ['--write', '--log-level=warn', ...changed]);

const find = (pattern) =>
  files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        pattern.test(line) ? [`${path.relative(root, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
const tooLong = find(new RegExp(`^.{${WIDTH + 1},}$`)).filter((where) => where.includes(DOC));
if (tooLong.length > 0)
  console.log(`\nLonger than ${WIDTH} characters (strings prettier leaves whole):\n  ${tooLong.join('\n  ')}`);
const bare = find(/\bSPEC\b/);
if (bare.length > 0) console.log(`\nThe word SPEC is still in:\n  ${bare.join('\n  ')}`);
const left = find(/SPEC(?:\.md)? §/);
if (left.length > 0) {
  console.error(`\nCitations left:\n  ${left.join('\n  ')}`);
  process.exit(1);
}
