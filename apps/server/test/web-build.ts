import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A built web app of a few files (WEB_DIST_DIR), for tests of what pages and files are served with. */
export async function tinyWebBuild(): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vetcall-web-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>VetCall</title><div id="root"></div>');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *');
  await writeFile(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("VetCall");');
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
