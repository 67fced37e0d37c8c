import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Mantine packages whose ESM entry is a barrel of `import { … } from "./…mjs"` lines. */
const PACKAGES = ['@mantine/core', '@mantine/dates', '@mantine/notifications', '@mantine/hooks', '@mantine/modals'];
const IMPORT_LINE = /^import \{([^}]*)\} from "(\.[^"]+)";$/gm;
const APP_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'(@mantine\/[a-z]+)';/g;

/** Export name → the file that defines it, read from the package's own barrel. */
function exportsOf(pkg: string, require: NodeJS.Require): Map<string, string> {
  // The package exports only its entry: find the CommonJS one, then the ESM barrel beside it.
  const barrel = path.resolve(path.dirname(require.resolve(pkg)), '../esm/index.mjs');
  const files = new Map<string, string>();
  for (const [, names = '', file = ''] of readFileSync(barrel, 'utf8').matchAll(IMPORT_LINE)) {
    for (const name of names.split(',')) {
      const local = name
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (local) files.set(local, path.resolve(path.dirname(barrel), file));
    }
  }
  return files;
}

/**
 * Rewrites the app's `import { Button } from '@mantine/core'` to the file that defines Button. Through the
 * barrel, the bundler counts every component the app uses anywhere as reachable from the first chunk, so the
 * login page downloaded the combobox, popover and positioning code of screens it never shows (issue 16);
 * imported directly, each component lands in the chunks of the screens that use it.
 */
export function directMantineImports(): Plugin {
  const require = createRequire(import.meta.url);
  const files = new Map<string, Map<string, string>>();
  const fileOf = (pkg: string, name: string) => {
    if (!files.has(pkg)) files.set(pkg, exportsOf(pkg, require));
    return files.get(pkg)!.get(name);
  };
  return {
    name: 'vetcall-direct-mantine-imports',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/apps\/web\/src\/.*\.tsx?$/.test(id) || !code.includes("from '@mantine/")) return null;
      let changed = false;
      const result = code.replace(APP_IMPORT, (statement, specifiers: string, pkg: string) => {
        if (!PACKAGES.includes(pkg)) return statement;
        const values = specifiers
          .split(',')
          .map((specifier) => specifier.trim())
          .filter((specifier) => specifier !== '' && !specifier.startsWith('type '));
        const direct = values.map((specifier) => {
          const [imported = '', local = imported] = specifier.split(/\s+as\s+/);
          return { imported, local, file: fileOf(pkg, imported) };
        });
        if (direct.length === 0 || direct.some((entry) => !entry.file)) return statement;
        changed = true;
        return direct
          .map(({ imported, local, file }) => `import { ${imported} as ${local} } from ${JSON.stringify(file)};`)
          .join('\n');
      });
      return changed ? { code: result, map: null } : null;
    },
  };
}
