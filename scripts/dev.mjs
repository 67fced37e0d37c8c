#!/usr/bin/env node
/** `npm run dev`: the API with reload on change (port 3000) and Vite with hot reload (port 5173). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') };
const children = [
  spawn('npm', ['run', 'dev', '-w', '@vetcall/server'], { cwd: root, stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '-w', '@vetcall/web'], { cwd: root, stdio: 'inherit', env }),
];
console.log('API on http://localhost:3000, web app with hot reload on http://localhost:5173');
const stopAll = (signal) => children.forEach((child) => child.kill(signal));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));
for (const child of children)
  child.on('exit', (code) => {
    stopAll('SIGTERM');
    process.exit(code ?? 0);
  });
