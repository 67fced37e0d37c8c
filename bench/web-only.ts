/**
 * The web benchmark alone, against an app that is already running (`npm start`):
 *   npx tsx bench/web-only.ts [baseUrl]        (default http://127.0.0.1:3000; LIGHTHOUSE_RUNS=1 for a quick look)
 * Prints the bundle sizes per route and the Lighthouse scores as JSON.
 */
import { DEMO_PASSWORD } from '../apps/server/src/demo-data/seed.ts';
import { benchWebApp } from './web.bench.ts';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const result = await benchWebApp({ baseUrl, customer: { email: 'customer@vetcall.test', password: DEMO_PASSWORD } });
console.log(JSON.stringify(result, null, 2));
