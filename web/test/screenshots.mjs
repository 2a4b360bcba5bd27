// The README's pictures of the live pages, taken in headless Chromium from the page `gjk serve` serves:
//   docs/images/page.png     the 2D page's first view (the textbook triangles) after GJK's two steps
//   docs/images/page-3d.png  the 3D page after B is moved onto A: A − B's mesh and EPA's polytope around O
// Run after changing the pages: `cd web/test && npm ci && node screenshots.mjs` (run.sh installs chromium).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const images = path.join(root, 'docs/images');

const server = spawn('cargo', ['run', '-q', '-p', 'gjk-cli', '--', 'serve', '--port', '0'], {
  cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`gjk serve exited (${code}): ${out}`)));
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const viewport = { width: 1200, height: 760 };
  const clip = { x: 0, y: 0, ...viewport };
  const failed = (e) => { throw e; };

  const page = await browser.newPage({ viewport });
  page.on('pageerror', failed);
  await page.goto(url);
  await page.waitForFunction(() => window.gjkPage?.ready);
  await page.click('#step-next');
  await page.click('#step-next');
  await page.screenshot({ path: path.join(images, 'page.png'), clip });

  const page3d = await browser.newPage({ viewport });
  page3d.on('pageerror', failed);
  await page3d.goto(`${url}3d.html`);
  await page3d.waitForFunction(() => window.gjkPage3d?.ready);
  await page3d.check('input[name="mode"][value="move"]');
  const center = (key) => page3d.evaluate((k) => window.gjkPage3d.centerOnScreen(k), key);
  const [from, to] = [await center('b'), await center('a')];
  // Most of the way onto A: the shapes overlap without B hiding A.
  await page3d.mouse.move(from.x, from.y);
  await page3d.mouse.down();
  await page3d.mouse.move(from.x + 0.8 * (to.x - from.x), from.y + 0.8 * (to.y - from.y), { steps: 12 });
  await page3d.mouse.up();
  await page3d.waitForFunction(() => window.gjkPage3d.verdict === 'intersecting', null, { timeout: 5_000 });
  await page3d.screenshot({ path: path.join(images, 'page-3d.png'), clip });
  console.log(`wrote ${path.join(images, 'page.png')} and page-3d.png`);
} finally {
  await browser.close();
  server.kill();
}
