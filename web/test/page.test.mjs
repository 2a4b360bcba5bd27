// The interactive page in headless Chromium: it loads, a shape dragged into contact turns the verdict from
// separated to intersecting — in the page's state and in the screenshot's pixels — and the answer it shows is the
// answer `gjk query` gives for the same query line.
//
// Run by web/test/run.sh (which installs what it needs), from .ci/run. `gjk serve` builds the page first.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let server, browser, page;

// `gjk serve --port 0`: builds the page if needed, then prints the URL it serves on.
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn('cargo', ['run', '-q', '-p', 'gjk-cli', '--', 'serve', '--port', '0'], {
      cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve(m[0]);
    });
    server.on('exit', (code) => reject(new Error(`gjk serve exited (${code}) before serving: ${out}`)));
  });
}

function gjkQuery(line) {
  const r = spawnSync('cargo', ['run', '-q', '-p', 'gjk-cli', '--', 'query'], { cwd: root, input: `${line}\n` });
  assert.equal(r.status, 0, `gjk query failed: ${r.stderr}`);
  return JSON.parse(r.stdout.toString().trim());
}

const state = () => page.evaluate(() => window.gjkPage);
// Page coordinates of a shape's centre or rotation handle, as the page itself places them.
const centerOf = (key) => page.evaluate((k) => window.gjkPage.centerOnScreen(k), key);
const handleOf = (key) => page.evaluate((k) => window.gjkPage.handleOnScreen(k), key);

async function dragTo(from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

// The mean colour of an element's box in a screenshot of the whole page (not a re-render of the element).
async function meanColor(selector) {
  const box = await page.locator(selector).boundingBox();
  const png = PNG.sync.read(await page.screenshot());
  let [r, g, b, n] = [0, 0, 0, 0];
  for (let y = Math.ceil(box.y + 4); y < box.y + box.height - 4; y++) {
    for (let x = Math.ceil(box.x + 4); x < box.x + box.width - 4; x++) {
      const i = (y * png.width + x) * 4;
      [r, g, b, n] = [r + png.data[i], g + png.data[i + 1], b + png.data[i + 2], n + 1];
    }
  }
  return { r: r / n, g: g / n, b: b / n };
}

// The colour of one pixel of the page's screenshot.
async function pixel(p) {
  const png = PNG.sync.read(await page.screenshot());
  const i = (Math.round(p.y) * png.width + Math.round(p.x)) * 4;
  return { r: png.data[i], g: png.data[i + 1], b: png.data[i + 2] };
}

// Same JSON, numbers to 1e-12 relative: the page runs the library compiled to WebAssembly, whose sin and cos
// (turning the poses' angles into rotations) come from Rust's own libm rather than the system's, and may differ
// in the last bit; everything after that is the same IEEE arithmetic.
function assertClose(got, want, where) {
  if (typeof want === 'number') {
    assert.ok(Math.abs(got - want) <= 1e-12 * (1 + Math.abs(want)), `${where}: ${got} vs ${want}`);
  } else if (Array.isArray(want)) {
    assert.equal(got.length, want.length, where);
    want.forEach((w, i) => assertClose(got[i], w, `${where}[${i}]`));
  } else if (want && typeof want === 'object') {
    assert.deepEqual(Object.keys(got), Object.keys(want), where);
    for (const k of Object.keys(want)) assertClose(got[k], want[k], `${where}.${k}`);
  } else {
    assert.equal(got, want, where);
  }
}

before(async () => {
  const url = await startServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(url);
  await page.waitForFunction(() => window.gjkPage?.ready, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test('the page starts with the shapes apart, and shows it', async () => {
  const s = await state();
  assert.equal(s.verdict, 'separated');
  assert.equal(s.scene.answer.intersecting, false);
  assert.ok(s.scene.answer.distance > 0.5, `distance ${s.scene.answer.distance}`);
  assert.equal(s.scene.steps.length, s.scene.answer.iterations);
  const badge = await meanColor('#status');
  assert.ok(badge.g > badge.r + 40, `the badge is green while apart: ${JSON.stringify(badge)}`);
  assert.match(await page.locator('#status').textContent(), /separated · distance/);
});

test('dragging B onto A makes them intersect, and the answer is gjk query\'s', async () => {
  const before = await state();
  const from = await centerOf('b');
  const to = await centerOf('a');
  // The drag is real mouse input: B's centre, held, moved most of the way to A's centre.
  await dragTo(from, { x: from.x + 0.75 * (to.x - from.x), y: from.y + 0.75 * (to.y - from.y) });
  await page.waitForFunction(() => window.gjkPage.verdict === 'intersecting', null, { timeout: 5_000 });
  const s = await state();
  assert.notEqual(s.line, before.line);
  assert.ok(Math.abs(s.state.b.x - before.state.b.x) > 1, 'B moved');
  assert.equal(s.scene.answer.intersecting, true);
  assert.ok(s.scene.answer.depth > 0, `depth ${s.scene.answer.depth}`);
  // The library's answer for the same pose, from the command line.
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer');
  const badge = await meanColor('#status');
  assert.ok(badge.r > badge.g + 40, `the badge is red while intersecting: ${JSON.stringify(badge)}`);
  assert.match(await page.locator('#status').textContent(), /intersecting · depth/);
  // B is drawn where the page says it is: its tint at its centre (over A's, where they overlap).
  const c = await pixel(await centerOf('b'));
  assert.ok(c.r > c.b, `B's orange tint at its centre: ${JSON.stringify(c)}`);
  // GJK_PAGE_SCREENSHOT=FILE.png keeps a picture of this moment (docs/images/page.png is one).
  if (process.env.GJK_PAGE_SCREENSHOT) await page.screenshot({ path: process.env.GJK_PAGE_SCREENSHOT });
});

test('the step slider shows each recorded GJK step, then each EPA iteration', async () => {
  const s = await state();
  const [gjk, epa] = [s.scene.steps.length, s.scene.epa.length];
  const n = gjk + epa;
  // The dragged pose overlaps the cores (a polygon and an ellipse have no radius): EPA ran.
  assert.ok(gjk >= 2 && epa >= 1, `${gjk} GJK steps, ${epa} EPA iterations`);
  assert.equal(n, s.scene.answer.iterations);
  await page.locator('#step').fill('1');
  assert.equal(await page.locator('#step-label').textContent(), `GJK 1 (1 of ${n})`);
  assert.match(await page.locator('#step-text').textContent(), /^GJK step 1: /);
  await page.locator('#step').fill(String(gjk));
  assert.match(await page.locator('#step-text').textContent(), /^GJK step \d+: intersecting/);
  await page.locator('#step').fill(String(gjk + 1));
  assert.equal(await page.locator('#step-label').textContent(), `EPA 1 (${gjk + 1} of ${n})`);
  await page.locator('#step').fill(String(n));
  assert.equal(await page.locator('#step-label').textContent(), `EPA ${epa} (${n} of ${n})`);
  // The last iteration's bounds met at the depth the page reports.
  assert.match(await page.locator('#step-text').textContent(), /^EPA iteration \d+: converged/);
  assert.ok(Math.abs(s.scene.epa[epa - 1].lower - s.scene.answer.depth) < 1e-12);
});

test('turning a shape by its handle and switching shapes re-run the query', async () => {
  const before = await state();
  const h = await handleOf('a');
  const c = await centerOf('a');
  // Drag A's handle a quarter turn around its centre (screen y points down).
  await dragTo(h, { x: c.x - (h.y - c.y), y: c.y + (h.x - c.x) });
  const turned = await state();
  assert.ok(Math.abs(turned.state.a.angle - before.state.a.angle) > 1, 'A turned');
  assertClose(turned.scene.answer, gjkQuery(turned.line), 'answer after turning');

  await page.selectOption('#type-b', 'circle');
  await page.selectOption('#query', 'distance');
  await page.waitForFunction(() => JSON.parse(window.gjkPage.line).b.type === 'circle');
  const switched = await state();
  assert.equal(JSON.parse(switched.line).query, 'distance');
  assertClose(switched.scene.answer, gjkQuery(switched.line), 'answer after switching');
});
