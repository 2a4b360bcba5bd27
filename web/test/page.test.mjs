// The live pages in headless Chromium, served by `gjk serve` from the page built into the binary.
//
// 2D (/): the first view is the textbook example (two GJK steps, opened at the start), step and play go through
// it, dragging B apart separates the shapes — in the page's state and in the screenshot's pixels — the slider
// goes through GJK's steps and EPA's iterations, and every answer shown is the one `gjk query` gives for the
// query line the page shows.
// 3D (/3d.html): it loads with the same answer as `gjk query`, dragging turns the view (pixels change, the query
// does not), step goes through the simplex, shift-drag turns the chosen shape, and moving B onto A turns the
// verdict from separated to intersecting.
//
// Run by web/test/run.sh (which installs what it needs), from .ci/run.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let server, browser, page, page3d, url;

// The `gjk` binary: GJK_BIN when set (scripts/test-all.sh passes the one `cargo test --workspace` just built),
// else `cargo run -p gjk-cli`. That builds gjk-cli with its own features alone, which differ from the workspace's
// (the library without rayon): a second build of the library and the CLI, about 100 s of CI's time.
function gjk(args) {
  const bin = process.env.GJK_BIN;
  return bin ? [bin, args] : ['cargo', ['run', '-q', '-p', 'gjk-cli', '--', ...args]];
}

// `gjk serve --port 0`: prints the URL it serves on (the page is built in: nothing to build).
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(...gjk(['serve', '--port', '0']), {
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
  const r = spawnSync(...gjk(['query']), { cwd: root, input: `${line}\n` });
  assert.equal(r.status, 0, `gjk query failed: ${r.stderr}`);
  return JSON.parse(r.stdout.toString().trim());
}

// A real mouse drag; then two animation frames, so that the query the last move scheduled has run.
async function dragTo(p, from, to, steps = 12) {
  await p.mouse.move(from.x, from.y);
  await p.mouse.down();
  await p.mouse.move(to.x, to.y, { steps });
  await p.mouse.up();
  await p.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

// A screenshot of the whole page (what a person sees), decoded.
async function shot(p) {
  return PNG.sync.read(await p.screenshot());
}

// The mean colour of an element's box in a screenshot of the whole page (not a re-render of the element).
async function meanColor(p, selector) {
  const box = await p.locator(selector).boundingBox();
  const png = await shot(p);
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
async function pixel(p, at) {
  const png = await shot(p);
  const i = (Math.round(at.y) * png.width + Math.round(at.x)) * 4;
  return { r: png.data[i], g: png.data[i + 1], b: png.data[i + 2] };
}

// An element's pixels, as the page's screenshot shows them.
async function pixels(p, selector) {
  return PNG.sync.read(await p.locator(selector).screenshot());
}

// The fraction of pixels that differ between two pictures of the same size.
function changed(a, b) {
  assert.equal(a.data.length, b.data.length);
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) n++;
  }
  return n / (a.data.length / 4);
}

// How many pixels of a picture are near a colour.
function countNear(png, [r, g, b], tol = 60) {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (Math.abs(png.data[i] - r) + Math.abs(png.data[i + 1] - g) + Math.abs(png.data[i + 2] - b) < tol) n++;
  }
  return n;
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

async function open(pathname, ready) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(url + pathname);
  await p.waitForFunction(ready, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);
  return p;
}

before(async () => {
  url = await startServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await open('', () => window.gjkPage?.ready);
  page3d = await open('3d.html', () => window.gjkPage3d?.ready);
});

after(async () => {
  await browser?.close();
  server?.kill();
});

// ---------------------------------------------------------------- 2D

const state = () => page.evaluate(() => window.gjkPage);
// Page coordinates of a shape's centre or rotation handle, as the page itself places them.
const centerOf = (key) => page.evaluate((k) => window.gjkPage.centerOnScreen(k), key);
const handleOf = (key) => page.evaluate((k) => window.gjkPage.handleOnScreen(k), key);
const label = () => page.locator('#step-label').textContent();
const words = () => page.locator('#step-text').textContent();

test('2D: the first view is the textbook example, converging in two steps, opened at the start', async () => {
  const s = await state();
  const q = JSON.parse(s.line);
  assert.deepEqual(q.a.points, [[0, 1], [1, -1], [-1, -1]], 'A is the textbook triangle');
  assert.deepEqual(q.b.points, [[0, -1], [1, 1], [-1, 1]], 'B is the upside-down one');
  assert.equal(s.verdict, 'intersecting');
  assert.deepEqual(s.scene.steps.map((st) => st.simplex.length), [2, 3], 'a segment, then a triangle');
  assert.deepEqual(s.scene.steps.map((st) => st.decision), ['closer', 'intersecting']);
  assert.equal(s.frames, 3, 'the start and two steps');
  assert.equal(s.shown, 0);
  assert.equal(await label(), 'start (0 of 2)');
  assert.match(await words(), /^Start: the first support point w₀/);
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer');
  const badge = await meanColor(page, '#status');
  assert.ok(badge.r > badge.g + 40, `the badge is red while they overlap: ${JSON.stringify(badge)}`);
  // The legend names every kind of mark.
  const legend = await page.locator('.legend').textContent();
  for (const mark of ['shape A', 'shape B', 'A − B', 'origin', 'simplex', 'support point', 'search direction', 'nearest O', 'closest points', 'EPA']) {
    assert.ok(legend.includes(mark), `the legend names ${mark}`);
  }
  assert.match(await page.locator('.how').textContent(), /support function[\s\S]*Minkowski difference[\s\S]*EPA/);
});

test('2D: step advances one frame and wraps; play runs through them all', async () => {
  const start = await pixels(page, '#diff');
  await page.click('#step-next');
  assert.equal(await label(), 'GJK 1 (1 of 2)');
  assert.match(await words(), /^GJK step 1: closer\./);
  const one = await pixels(page, '#diff');
  assert.ok(changed(start, one) > 0.002, 'the simplex drawn changes');
  await page.click('#step-next');
  assert.equal(await label(), 'GJK 2 (2 of 2)');
  assert.match(await words(), /^GJK step 2: intersecting\./);
  await page.click('#step-next');
  assert.equal((await state()).shown, 0, 'past the last frame, step starts again');
  await page.click('#play');
  assert.equal((await state()).playing, true);
  assert.equal(await page.locator('#play').textContent(), '❚❚ pause');
  await page.waitForFunction(() => window.gjkPage.shown === 2 && !window.gjkPage.playing, null, { timeout: 5_000 });
  assert.equal(await page.locator('#play').textContent(), '▶ play');
  assert.equal(await label(), 'GJK 2 (2 of 2)');
});

test('2D: dragging B away separates them, and the answer is gjk query\'s', async () => {
  const before = await state();
  const from = await centerOf('b');
  await dragTo(page, from, { x: from.x + 160, y: from.y - 40 });
  await page.waitForFunction(() => window.gjkPage.verdict === 'separated', null, { timeout: 5_000 });
  const s = await state();
  assert.notEqual(s.line, before.line);
  assert.ok(s.state.b.x - before.state.b.x > 1.5, 'B moved right');
  assert.equal(s.scene.answer.intersecting, false);
  assert.ok(s.scene.answer.distance > 0.3, `distance ${s.scene.answer.distance}`);
  assert.equal(s.shown, s.frames - 1, 'while dragging, the page shows the answer');
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer');
  const badge = await meanColor(page, '#status');
  assert.ok(badge.g > badge.r + 40, `the badge is green while apart: ${JSON.stringify(badge)}`);
  assert.match(await page.locator('#status').textContent(), /separated · distance/);
  // B is drawn where the page says it is: its orange tint at its centre.
  const c = await pixel(page, await centerOf('b'));
  assert.ok(c.r > c.b + 20, `B's orange tint at its centre: ${JSON.stringify(c)}`);
});

test('2D: a penetration query\'s slider goes through GJK\'s steps, then EPA\'s iterations', async () => {
  await page.selectOption('#type-a', 'polygon');
  await page.selectOption('#type-b', 'ellipse');
  await page.selectOption('#query', 'penetration');
  const from = await centerOf('b');
  const to = await centerOf('a');
  await dragTo(page, from, { x: from.x + 0.8 * (to.x - from.x), y: from.y + 0.8 * (to.y - from.y) });
  await page.waitForFunction(() => window.gjkPage.verdict === 'intersecting', null, { timeout: 5_000 });
  const s = await state();
  const [gjk, epa] = [s.scene.steps.length, s.scene.epa.length];
  const n = gjk + epa;
  // A polygon and an ellipse have no radius: their cores overlap, so EPA ran.
  assert.ok(gjk >= 2 && epa >= 1, `${gjk} GJK steps, ${epa} EPA iterations`);
  assert.equal(n, s.scene.answer.iterations);
  assert.equal(s.frames, n + 1);
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer');
  await page.locator('#step').fill('1');
  assert.equal(await label(), `GJK 1 (1 of ${n})`);
  assert.match(await words(), /^GJK step 1: /);
  await page.locator('#step').fill(String(gjk));
  assert.match(await words(), /^GJK step \d+: intersecting/);
  await page.locator('#step').fill(String(gjk + 1));
  assert.equal(await label(), `EPA 1 (${gjk + 1} of ${n})`);
  await page.locator('#step').fill(String(n));
  assert.equal(await label(), `EPA ${epa} (${n} of ${n})`);
  // The last iteration's bounds met at the depth the page reports.
  assert.match(await words(), /^EPA iteration \d+: converged/);
  assert.ok(Math.abs(s.scene.epa[epa - 1].lower - s.scene.answer.depth) < 1e-12);
  if (process.env.GJK_PAGE_SCREENSHOT) await page.screenshot({ path: process.env.GJK_PAGE_SCREENSHOT });
});

test('2D: turning a shape by its handle and switching shapes re-run the query', async () => {
  const before = await state();
  const h = await handleOf('a');
  const c = await centerOf('a');
  // Drag A's handle a quarter turn around its centre (screen y points down).
  await dragTo(page, h, { x: c.x - (h.y - c.y), y: c.y + (h.x - c.x) });
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

// ---------------------------------------------------------------- 3D

const state3d = () => page3d.evaluate(() => window.gjkPage3d);
const center3d = (key) => page3d.evaluate((k) => window.gjkPage3d.centerOnScreen(k), key);
const BLUE = [43, 108, 176];
const ORANGE = [221, 107, 32];

test('3D: the page loads with the answer gjk query gives, apart, in a few steps', async () => {
  const s = await state3d();
  assert.equal(s.scene.dim, 3);
  assert.equal(s.verdict, 'separated');
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer');
  assert.equal(s.frames, s.scene.answer.iterations + 1);
  assert.ok(s.scene.answer.iterations >= 2 && s.scene.answer.iterations <= 6, `${s.scene.answer.iterations} steps`);
  for (const key of ['a', 'b', 'diff']) assert.ok(s.scene.meshes[key].triangles.length >= 4, `${key} has a mesh`);
  assert.match(await page3d.locator('#readout').textContent(), /the same query for gjk query:\n\{"id":"page3d"/);
  // Both shapes are on the screen, in their colours.
  const w = await pixels(page3d, '#world');
  assert.ok(countNear(w, BLUE, 90) > 500, 'A is drawn (blue)');
  assert.ok(countNear(w, ORANGE, 90) > 500, 'B is drawn (orange)');
  const options = await page3d.locator('#type-a option').allTextContents();
  assert.deepEqual(options, ['box', 'sphere', 'capsule', 'cylinder', 'cone', 'ellipsoid', 'convex hull']);
});

test('3D: dragging turns the view: the pixels change, the query does not', async () => {
  const before = await state3d();
  const w0 = await pixels(page3d, '#world');
  const d0 = await pixels(page3d, '#diff');
  const box = await page3d.locator('#world').boundingBox();
  const from = { x: box.x + 60, y: box.y + box.height - 60 };
  await dragTo(page3d, from, { x: from.x + 140, y: from.y - 50 });
  const after = await state3d();
  assert.ok(Math.abs(after.camera.yaw - before.camera.yaw) > 1, 'the camera turned');
  assert.equal(after.line, before.line, 'turning the view asks no new query');
  assert.ok(changed(w0, await pixels(page3d, '#world')) > 0.02, 'the shapes are seen from elsewhere');
  assert.ok(changed(d0, await pixels(page3d, '#diff')) > 0.02, 'and so is A − B');
});

test('3D: step goes through the simplex, frame by frame', async () => {
  let s = await state3d();
  assert.equal(s.shown, 0, 'the page opens on the start');
  let last = await pixels(page3d, '#diff');
  for (let k = 1; k < s.frames; k++) {
    await page3d.click('#step-next');
    s = await state3d();
    assert.equal(s.shown, k);
    const step = s.scene.steps[k - 1];
    assert.ok(step.simplex.length >= 1 && step.simplex.length <= 4, `a 3D simplex: ${step.simplex.length} points`);
    assert.equal(await page3d.locator('#step-label').textContent(), `GJK ${k} (${k} of ${s.frames - 1})`);
    assert.match(await page3d.locator('#step-text').textContent(), new RegExp(`^GJK step ${k}: ${step.decision}\\.`));
    const now = await pixels(page3d, '#diff');
    assert.ok(changed(last, now) > 0.001, `step ${k} is drawn`);
    last = now;
  }
});

test('3D: shift-drag turns the chosen shape, and the answer is still gjk query\'s', async () => {
  const before = await state3d();
  const c = await center3d('b');
  await page3d.keyboard.down('Shift');
  await dragTo(page3d, c, { x: c.x + 80, y: c.y + 40 });
  await page3d.keyboard.up('Shift');
  await page3d.waitForFunction((l) => window.gjkPage3d.line !== l, before.line, { timeout: 5_000 });
  const s = await state3d();
  const [q0, q1] = [JSON.parse(before.line).pose_b.rotation, JSON.parse(s.line).pose_b.rotation];
  assert.ok(q0.some((x, i) => Math.abs(x - q1[i]) > 0.1), `B turned: ${q0} → ${q1}`);
  assert.deepEqual(JSON.parse(s.line).pose_a, JSON.parse(before.line).pose_a, 'A did not move');
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer after turning');
});

test('3D: moving B onto A turns separated into intersecting', async () => {
  assert.equal((await state3d()).verdict, 'separated');
  const badge0 = await meanColor(page3d, '#status');
  assert.ok(badge0.g > badge0.r + 40, `green while apart: ${JSON.stringify(badge0)}`);
  // From the first view, B dragged onto A's centre on the screen (a move in the screen's plane) meets A.
  await page3d.click('#reset-view');
  await page3d.check('input[name="mode"][value="move"]');
  await dragTo(page3d, await center3d('b'), await center3d('a'));
  await page3d.waitForFunction(() => window.gjkPage3d.verdict === 'intersecting', null, { timeout: 5_000 });
  const s = await state3d();
  assert.ok(s.scene.answer.depth > 0, `depth ${s.scene.answer.depth}`);
  assertClose(s.scene.answer, gjkQuery(s.line), 'answer once they overlap');
  const badge = await meanColor(page3d, '#status');
  assert.ok(badge.r > badge.g + 40, `red while they overlap: ${JSON.stringify(badge)}`);
  assert.match(await page3d.locator('#status').textContent(), /intersecting · depth/);
  // Two polytopes overlapping: EPA ran, and its last iteration is on the slider.
  assert.ok(s.scene.epa.length >= 1);
  assert.match(await page3d.locator('#step-label').textContent(), /^EPA \d+/);
  // The answer's marks crowd here (a, b and n in the shapes; O, a − b and EPA's n and w in A − B): at every frame
  // no two point labels of a view overlap, and each stays inside its view.
  const boxes = () => page3d.evaluate(() => window.gjkPage3d.labels());
  let labels = 0;
  for (let k = 0; k < s.frames; k++) {
    await page3d.evaluate((k) => {
      const slider = document.getElementById('step');
      slider.value = String(k);
      slider.dispatchEvent(new Event('input'));
    }, k);
    assert.equal((await state3d()).shown, k);
    for (const [view, list] of Object.entries(await boxes())) {
      const size = await page3d.locator(`#${view}`).boundingBox();
      for (const [i, a] of list.entries()) {
        labels++;
        assert.ok(a.x0 >= 0 && a.y0 >= 0 && a.x1 <= size.width && a.y1 <= size.height, `frame ${k}, ${view}: ${JSON.stringify(a)} leaves the view`);
        for (const b of list.slice(i + 1)) {
          const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
          const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          assert.ok(w <= 0 || h <= 0, `frame ${k}, ${view}: labels overlap: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
        }
      }
    }
  }
  assert.ok(labels >= 3 * s.frames, `${labels} labels checked over ${s.frames} frames`);
  if (process.env.GJK_PAGE3D_SCREENSHOT) await page3d.screenshot({ path: process.env.GJK_PAGE3D_SCREENSHOT });
});
