import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WEB_FEATURES = 'apps/web/src/features';
/** A web feature's public parts: its top-level files and its api/ and components/ folders. */
const FEATURE_PUBLIC_FOLDERS = new Set(['api', 'components']);

/**
 * One zone per internal folder of a web feature: no other feature may import from it. Generated from
 * the folders on disk, so a new feature or folder is covered without editing this file.
 */
function featureInternalsZones() {
  // Read from the repository root whatever the working directory (eslint run from a workspace).
  const root = path.join(import.meta.dirname, WEB_FEATURES);
  const features = readdirSync(root).filter((name) => statSync(path.join(root, name)).isDirectory());
  return features.flatMap((feature) =>
    readdirSync(path.join(root, feature))
      .filter((name) => statSync(path.join(root, feature, name)).isDirectory())
      .filter((name) => !FEATURE_PUBLIC_FOLDERS.has(name))
      .map((folder) => ({
        target: features.filter((other) => other !== feature).map((other) => `./${WEB_FEATURES}/${other}`),
        from: `./${WEB_FEATURES}/${feature}/${folder}`,
        message: `'${feature}/${folder}' is internal to the ${feature} feature; import its api/ or components/.`,
      })),
  );
}

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      '**/migrations/**',
      'coverage/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['apps/web/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat['recommended-latest']] },
  // Boundaries (docs/decisions/010-appointment-domain-and-boundaries.md): no import cycles anywhere, lower
  // layers never import feature modules, and web features use each other only through their public parts.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      // Without these, import-x cannot parse the files it follows, and no-cycle sees no edges at all.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [
                './apps/server/src/plugins',
                './apps/server/src/providers',
                './apps/server/src/db',
                './apps/server/src/lib',
                './apps/server/src/jobs',
              ],
              from: './apps/server/src/modules',
              message: 'Lower layers (plugins, providers, db, lib, jobs) never import feature modules.',
            },
            {
              target: ['./apps/web/src/lib', './apps/web/src/components'],
              from: `./${WEB_FEATURES}`,
              message: 'Shared web code (lib, components) never imports a feature.',
            },
            ...featureInternalsZones(),
          ],
        },
      ],
    },
  },
  // A test may reach into any layer it exercises (a storage test writes the rows that name its files).
  {
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  // The test files of a worker share their modules (isolate: false in both projects): a module mock of one file
  // would reach the others, or miss a module another file loaded first.
  {
    files: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|unmock|doUnmock)$/]",
          message: 'No module mocks: fake the network boundary (test/fake-api.ts) or spy on an object method.',
        },
      ],
    },
  },
);
