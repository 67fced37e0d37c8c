#!/usr/bin/env node
// Fails when the server's feature modules import each other in a circle. ESLint's import-x/no-cycle
// sees cycles between files; this sees cycles between modules (folders of apps/server/src/modules),
// which a file-level check misses when two files of module A and one of module B close a loop.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'server', 'src', 'modules');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** module → modules it imports (test files excluded: a test may reach into any module it exercises). */
export function moduleGraph(modulesDir = root) {
  const graph = new Map();
  for (const name of readdirSync(modulesDir)) {
    if (!statSync(path.join(modulesDir, name)).isDirectory()) continue;
    const edges = new Set();
    for (const file of sourceFiles(path.join(modulesDir, name))) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = path.relative(modulesDir, path.resolve(path.dirname(file), specifier));
        const [targetModule] = target.split(path.sep);
        if (!target.startsWith('..') && targetModule !== name) edges.add(targetModule);
      }
    }
    graph.set(name, edges);
  }
  return graph;
}

/** Every elementary cycle found by depth-first search, each as a list of module names. */
export function findCycles(graph) {
  const cycles = [];
  const seen = new Set();
  const visit = (node, trail) => {
    for (const next of graph.get(node) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) {
        const cycle = trail.slice(at);
        const key = [...cycle].sort().join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else visit(next, [...trail, next]);
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cycles = findCycles(moduleGraph(process.argv[2] ?? root));
  for (const cycle of cycles) console.error(`module cycle: ${cycle.join(' → ')}`);
  if (cycles.length > 0) process.exit(1);
}
