import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from './config.ts';

/**
 * Every environment variable the server reads is documented three times: in `.env.example` (commented, with
 * an example value), in the README's configuration table and in docs/deployment.md's production table. A variable added to config.ts fails here until
 * both say what it is; one dropped from config.ts fails until both forget it.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** `# NAME=value` or `NAME=value` lines of .env.example. */
function envExampleVariables(): string[] {
  const text = readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}

/** The first column of the table under README's "## Configuration" heading (up to the next heading). */
function readmeTableVariables(): string[] {
  const text = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = text.indexOf('\n## Configuration\n');
  if (start === -1) throw new Error('README.md has no "## Configuration" section');
  const section = text.slice(start + 1).split(/\n#{2,3} /)[0]!;
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
}

/** The first column of the table under docs/deployment.md's "## Production environment" heading. */
function deploymentTableVariables(): string[] {
  const text = readFileSync(path.join(repoRoot, 'docs/deployment.md'), 'utf8');
  const start = text.indexOf('\n## Production environment\n');
  if (start === -1) throw new Error('docs/deployment.md has no "## Production environment" section');
  const section = text.slice(start + 1).split(/\n#{2,3} /)[0]!;
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
}

const missingFrom = (documented: string[]) => ENVIRONMENT_VARIABLES.filter((name) => !documented.includes(name));
const unknownIn = (documented: string[]) =>
  documented.filter((name) => !(ENVIRONMENT_VARIABLES as string[]).includes(name));

describe('configuration documentation', () => {
  it('reads the names from config.ts', () => {
    expect(ENVIRONMENT_VARIABLES).toContain('APP_SECRET');
    expect(ENVIRONMENT_VARIABLES.length).toBeGreaterThan(30);
  });

  it('.env.example has every variable config.ts reads', () => {
    expect(missingFrom(envExampleVariables()), 'read by config.ts but missing from .env.example').toEqual([]);
  });

  it("README's configuration table has every variable config.ts reads", () => {
    expect(missingFrom(readmeTableVariables()), "read by config.ts but missing from README's table").toEqual([]);
  });

  it("the deployment guide's production table has every variable config.ts reads, and no other", () => {
    expect(missingFrom(deploymentTableVariables()), 'read by config.ts but missing from docs/deployment.md').toEqual(
      [],
    );
    expect(unknownIn(deploymentTableVariables()), 'in docs/deployment.md but not read by config.ts').toEqual([]);
  });

  it('documents no variable config.ts does not read', () => {
    expect(unknownIn(envExampleVariables()), 'in .env.example but not read by config.ts').toEqual([]);
    expect(unknownIn(readmeTableVariables()), "in README's table but not read by config.ts").toEqual([]);
  });
});
