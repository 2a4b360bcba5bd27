// The live 2D page: two shapes you drag and turn, their Minkowski difference, and every GJK step and EPA
// iteration, one at a time (slider, play, step).
//
// Nothing geometric is computed here. The page writes its shapes and poses as one query line in the `gjk query`
// format and asks the library (compiled to WebAssembly, crates/gjk-web) for the scene: the outlines of A, B and
// A − B from the shapes' support functions, the steps the query recorded through its observer, and the answer
// exactly as `gjk query` prints it. This file only draws that and handles the mouse.

import init, { scene as runScene, version } from './pkg/gjk_web.js';
import { framesOf, Stepper, showText } from './steps.js';

// The shapes on offer, in the CLI's JSON form (local coordinates; the pose places them). The first two are the
// textbook example's triangles (docs/how-gjk-works.md, `gjk draw --example textbook`).
const SHAPES = {
  triangle: { type: 'polygon', points: [[0, 1], [1, -1], [-1, -1]] },
  'triangle, upside down': { type: 'polygon', points: [[0, -1], [1, 1], [-1, 1]] },
  polygon: { type: 'polygon', points: [[-0.9, -0.55], [0.75, -0.7], [1.0, 0.2], [0.15, 0.85], [-0.75, 0.55]] },
  circle: { type: 'circle', radius: 0.75 },
  box: { type: 'box', half_extents: [0.9, 0.55] },
  capsule: { type: 'capsule', half_height: 0.6, radius: 0.4 },
  ellipse: { type: 'ellipse', radii: [1.0, 0.5] },
};

const COLOR = {
  a: '#2b6cb0', b: '#dd6b20', diff: '#6b46c1', core: '#9f7aea', simplex: '#2f855a', w: '#c53030',
  v: '#1a202c', answer: '#0987a0', grid: '#edf2f7', axis: '#a0aec0', text: '#1a202c',
};

const WORLD_SCALE = 80; // pixels per unit in the shapes' view; the world origin is the canvas centre
const HANDLE_RADIUS = 1.35; // the rotation ring's handle sits this far from a shape's centre (world units)

// The first view: the textbook triangles, a little apart, overlapping. GJK needs two steps: from w₀ to a segment,
// then to a triangle that encloses the origin. The page opens on the start; play (or step) goes through them.
const state = {
  a: { type: 'triangle', x: -0.5, y: 0, angle: 0 },
  b: { type: 'triangle, upside down', x: 0.4, y: 0.1, angle: 0 },
  query: 'distance',
};

let current = null; // the last scene the library returned
let frames = []; // its frames: start, GJK steps, EPA iterations
let line = ''; // the query line it answered
let stepper = null;

// ---------------------------------------------------------------- the query line and the library's answer

function queryLine() {
  const pose = (s) => ({ translation: [s.x, s.y], rotation: s.angle });
  return JSON.stringify({
    id: 'page', query: state.query,
    a: SHAPES[state.a.type], pose_a: pose(state.a),
    b: SHAPES[state.b.type], pose_b: pose(state.b),
  });
}

// Runs the query of the current shapes; `follow` shows the last frame (the answer), as while dragging.
function update(follow = true) {
  line = queryLine();
  current = JSON.parse(runScene(line));
  // The slider runs through the start, GJK's steps, then (penetration, cores overlapping) EPA's iterations.
  frames = framesOf(current);
  stepper.reset(frames.length, follow);
  drawAll();
}

// What a test (or a curious user in the console) can read: the line, the scene, the frame and the verdict shown.
function publish(verdict) {
  window.gjkPage = {
    ready: true, line, scene: current, state: structuredClone(state), frames: frames.length,
    shown: stepper.index, playing: stepper.timer !== null, verdict, centerOnScreen, handleOnScreen,
  };
}

// ---------------------------------------------------------------- canvases

function setupCanvas(id) {
  const canvas = document.getElementById(id);
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { canvas, ctx, w, h };
}

let world, diff;

// A view maps world points to canvas pixels (y up).
function view(c, scale, cx, cy) {
  return {
    ...c, scale,
    px: (p) => [c.w / 2 + (p[0] - cx) * scale, c.h / 2 - (p[1] - cy) * scale],
    unpx: (x, y) => [(x - c.w / 2) / scale + cx, -(y - c.h / 2) / scale + cy],
  };
}

function worldView() {
  return view(world, WORLD_SCALE, 0, 0);
}

// The difference view is fitted around A − B and the origin, so both are always in sight.
function diffView() {
  const pts = [[0, 0], ...(current.outlines?.diff ?? [])];
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min(diff.w / Math.max(x1 - x0, 1e-9), diff.h / Math.max(y1 - y0, 1e-9)) * 0.8;
  return view(diff, Math.min(scale, 400), (x0 + x1) / 2, (y0 + y1) / 2);
}

function path(v, pts, close = true) {
  const { ctx } = v;
  ctx.beginPath();
  pts.forEach((p, i) => (i === 0 ? ctx.moveTo(...v.px(p)) : ctx.lineTo(...v.px(p))));
  if (close) ctx.closePath();
}

function polygon(v, pts, stroke, fill, width = 2, dash = []) {
  if (!pts || pts.length === 0) return;
  const { ctx } = v;
  path(v, pts, pts.length > 2);
  ctx.setLineDash(dash);
  if (fill && pts.length > 2) {
    ctx.fillStyle = fill;
    ctx.fill();
  }
  ctx.strokeStyle = stroke;
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.setLineDash([]);
  if (pts.length === 1) dot(v, pts[0], stroke, 3);
}

function dot(v, p, color, r = 4, label = null) {
  const { ctx } = v;
  const [x, y] = v.px(p);
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  if (label) text(v, label, x + 6, y - 6, color);
}

function text(v, s, x, y, color = COLOR.text, font = '13px "DejaVu Sans", Verdana, sans-serif') {
  v.ctx.fillStyle = color;
  v.ctx.font = font;
  v.ctx.fillText(s, x, y);
}

function arrow(v, from, to, color, width = 2) {
  const { ctx } = v;
  const [x0, y0] = v.px(from), [x1, y1] = v.px(to);
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1e-6) return;
  const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
  const head = Math.min(10, len * 0.4);
  ctx.strokeStyle = ctx.fillStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45);
  ctx.lineTo(x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45);
  ctx.closePath();
  ctx.fill();
}

// Grid lines every power of ten that gives 25+ pixels, and the axes through the origin.
function grid(v) {
  const { ctx, w, h } = v;
  ctx.clearRect(0, 0, w, h);
  const step = 10 ** Math.ceil(Math.log10(25 / v.scale));
  const [x0, y1] = v.unpx(0, 0), [x1, y0] = v.unpx(w, h);
  ctx.lineWidth = 1;
  ctx.strokeStyle = COLOR.grid;
  ctx.beginPath();
  for (let x = Math.ceil(x0 / step) * step; x <= x1; x += step) {
    const [px] = v.px([x, 0]);
    ctx.moveTo(px, 0);
    ctx.lineTo(px, h);
  }
  for (let y = Math.ceil(y0 / step) * step; y <= y1; y += step) {
    const [, py] = v.px([0, y]);
    ctx.moveTo(0, py);
    ctx.lineTo(w, py);
  }
  ctx.stroke();
  ctx.strokeStyle = COLOR.axis;
  ctx.beginPath();
  const [ox, oy] = v.px([0, 0]);
  ctx.moveTo(ox, 0);
  ctx.lineTo(ox, h);
  ctx.moveTo(0, oy);
  ctx.lineTo(w, oy);
  ctx.stroke();
  text(v, `grid ${step}`, 6, h - 8, COLOR.axis, '11px "DejaVu Sans", sans-serif');
}

function shownStep() {
  return frames[stepper.index] ?? null;
}

const sub = (p, q) => [p[0] - q[0], p[1] - q[1]];
const add = (p, q) => [p[0] + q[0], p[1] + q[1]];
const scaled = (p, k) => [p[0] * k, p[1] * k];

// ---------------------------------------------------------------- the shapes' view

function drawWorld() {
  const v = worldView();
  grid(v);
  if (current.error) return;
  const o = current.outlines;
  polygon(v, o.a, COLOR.a, 'rgba(43, 108, 176, 0.18)');
  polygon(v, o.b, COLOR.b, 'rgba(221, 107, 32, 0.18)');
  for (const [key, color] of [['a', COLOR.a], ['b', COLOR.b]]) {
    const s = state[key];
    const h = handle(s);
    v.ctx.strokeStyle = color;
    v.ctx.lineWidth = 1;
    v.ctx.setLineDash([3, 4]);
    v.ctx.beginPath();
    v.ctx.arc(...v.px([s.x, s.y]), HANDLE_RADIUS * v.scale, 0, 2 * Math.PI);
    v.ctx.stroke();
    v.ctx.setLineDash([]);
    dot(v, h, color, 6);
    dot(v, [s.x, s.y], color, 3);
    text(v, key.toUpperCase(), ...add(v.px([s.x, s.y]), [6, -6]), color, 'bold 14px "DejaVu Sans", sans-serif');
  }
  const step = shownStep();
  if ((step?.kind === 'GJK' || step?.kind === 'start') && step.support_a && step.support_b) {
    // The support points this step asked for: w = s_A(d) − s_B(−d).
    const d = step.kind === 'start' ? 'd₀' : 'd';
    dot(v, step.support_a, COLOR.w, 4);
    dot(v, step.support_b, COLOR.w, 4);
    text(v, `s_A(${d})`, ...add(v.px(step.support_a), [6, 16]), COLOR.w);
    text(v, `s_B(−${d})`, ...add(v.px(step.support_b), [6, 16]), COLOR.w);
  }
  const a = current.answer;
  if (current.point_a && current.point_b) {
    if (!a.intersecting) {
      v.ctx.setLineDash([5, 4]);
      polygon(v, [current.point_a, current.point_b], COLOR.answer, null, 2, [5, 4]);
      dot(v, current.point_a, COLOR.answer, 4, 'a');
      dot(v, current.point_b, COLOR.answer, 4, 'b');
    } else if (a.depth !== undefined && current.normal) {
      // B moves by depth · normal to separate: drawn from A's deepest point.
      dot(v, current.point_a, COLOR.answer, 4, 'a');
      dot(v, current.point_b, COLOR.answer, 4, 'b');
      arrow(v, current.point_a, add(current.point_a, scaled(current.normal, Math.max(a.depth, 0.25))), COLOR.answer);
    }
  }
}

// ---------------------------------------------------------------- the difference's view

function drawDiff() {
  const v = diffView();
  grid(v);
  if (current.error) return;
  const o = current.outlines;
  polygon(v, o.diff, COLOR.diff, 'rgba(107, 70, 193, 0.10)');
  if (o.diff_core) polygon(v, o.diff_core, COLOR.core, null, 1.5, [6, 4]);
  dot(v, [0, 0], COLOR.v, 4, 'O');
  const step = shownStep();
  if (step?.kind === 'EPA') drawExpansion(v, step);
  if (step?.kind === 'start') {
    const d = step.direction, len = Math.hypot(d[0], d[1]);
    if (len > 0) {
      const tip = scaled(d, (0.2 * Math.min(v.w, v.h)) / v.scale / len);
      arrow(v, [0, 0], tip, COLOR.w, 1.5);
      text(v, 'd₀', ...add(v.px(tip), [4, -4]), COLOR.w);
      const t = scaled([-d[1] / len, d[0] / len], (v.w + v.h) / v.scale);
      polygon(v, [add(step.support, t), sub(step.support, t)], COLOR.w, null, 1, [4, 4]);
    }
    dot(v, step.support, COLOR.w, 5, 'w₀');
  }
  if (step?.kind === 'GJK') {
    polygon(v, step.before, COLOR.simplex, null, 1, [3, 3]);
    polygon(v, step.simplex, COLOR.simplex, 'rgba(47, 133, 90, 0.18)', 2.5);
    step.simplex.forEach((p, i) => text(v, step.names[i], ...add(v.px(p), [6, 14]), COLOR.simplex));
    // The search direction, from the origin, a fifth of the view long.
    const d = step.direction, len = Math.hypot(d[0], d[1]);
    if (len > 0) {
      const tip = scaled(d, (0.2 * Math.min(v.w, v.h)) / v.scale / len);
      arrow(v, [0, 0], tip, COLOR.w, 1.5);
      text(v, 'd', ...add(v.px(tip), [4, -4]), COLOR.w);
    }
    if (len > 0) {
      // The line through w across d: A − B lies on its far side from d, so when it leaves O outside, it separates.
      const t = scaled([-d[1] / len, d[0] / len], (v.w + v.h) / v.scale);
      polygon(v, [add(step.support, t), sub(step.support, t)], COLOR.w, null, 1, [4, 4]);
    }
    dot(v, step.support, COLOR.w, 5, 'w');
    polygon(v, [[0, 0], step.closest], COLOR.v, null, 1, [2, 3]);
    // v at O (the simplex holds the origin) is not named twice.
    const atO = Math.hypot(...step.closest) * v.scale < 6;
    dot(v, step.closest, COLOR.v, 3.5, atO ? null : 'v');
  }
  const last = stepper.index === frames.length - 1;
  if (last && current.point_a && current.point_b) {
    // The answer on A − B: a − b is the point of A − B nearest O (or, overlapping, nearest its boundary).
    const p = sub(current.point_a, current.point_b);
    arrow(v, [0, 0], p, COLOR.answer, 2);
  }
}

// An EPA iteration: the polygon (inside A − B, around O), its edge nearest O with the normal n from the foot of
// the perpendicular, and the support point w along n with the line through it across n (the depth's upper bound).
function drawExpansion(v, e) {
  polygon(v, e.vertices, COLOR.simplex, 'rgba(47, 133, 90, 0.18)', 1.5);
  const [i, j] = e.faces[e.nearest];
  polygon(v, [e.vertices[i], e.vertices[j]], COLOR.w, null, 3);
  const foot = scaled(e.normal, e.lower);
  polygon(v, [[0, 0], foot], COLOR.v, null, 1, [2, 3]);
  arrow(v, foot, add(foot, scaled(e.normal, (0.12 * Math.min(v.w, v.h)) / v.scale)), COLOR.w, 2);
  text(v, 'n', ...add(v.px(add(foot, scaled(e.normal, (0.14 * Math.min(v.w, v.h)) / v.scale))), [4, -4]), COLOR.w);
  const t = scaled([-e.normal[1], e.normal[0]], (v.w + v.h) / v.scale);
  polygon(v, [add(e.support, t), sub(e.support, t)], COLOR.w, null, 1, [4, 4]);
  dot(v, e.support, COLOR.w, 5, 'w');
}

function drawAll() {
  drawWorld();
  drawDiff();
  publish(showText(current, line, frames, stepper.index));
}

// ---------------------------------------------------------------- the mouse

function handle(s) {
  return [s.x + HANDLE_RADIUS * Math.cos(s.angle), s.y + HANDLE_RADIUS * Math.sin(s.angle)];
}

function inside(poly, p) {
  if (!poly || poly.length < 3) return false;
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const q = poly[i], r = poly[(i + 1) % poly.length];
    const c = (r[0] - q[0]) * (p[1] - q[1]) - (r[1] - q[1]) * (p[0] - q[0]);
    if (c !== 0) {
      if (sign !== 0 && Math.sign(c) !== sign) return false;
      sign = Math.sign(c);
    }
  }
  return true;
}

// What is under the pointer: a rotation handle first, then B (drawn on top), then A.
function pick(p) {
  for (const key of ['b', 'a']) {
    const h = handle(state[key]);
    if (Math.hypot(p[0] - h[0], p[1] - h[1]) * WORLD_SCALE < 10) return { key, rotate: true };
  }
  for (const key of ['b', 'a']) if (inside(current.outlines?.[key], p)) return { key, rotate: false };
  return null;
}

function eventPoint(e) {
  const r = world.canvas.getBoundingClientRect();
  return worldView().unpx(e.clientX - r.left, e.clientY - r.top);
}

// Page coordinates of a shape's centre and of its rotation handle (for tests driving the mouse).
function onScreen(p) {
  const r = world.canvas.getBoundingClientRect();
  const [x, y] = worldView().px(p);
  return { x: r.left + x, y: r.top + y };
}
function centerOnScreen(key) {
  return onScreen([state[key].x, state[key].y]);
}
function handleOnScreen(key) {
  return onScreen(handle(state[key]));
}

let drag = null;
let pending = false;

function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    update();
  });
}

function setupMouse() {
  const c = world.canvas;
  c.addEventListener('pointerdown', (e) => {
    const p = eventPoint(e);
    const hit = pick(p);
    if (!hit) return;
    const s = state[hit.key];
    drag = { ...hit, dx: s.x - p[0], dy: s.y - p[1] };
    c.setPointerCapture(e.pointerId);
    c.style.cursor = 'grabbing';
  });
  c.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const p = eventPoint(e);
    const s = state[drag.key];
    if (drag.rotate) {
      s.angle = Math.atan2(p[1] - s.y, p[0] - s.x);
    } else {
      s.x = p[0] + drag.dx;
      s.y = p[1] + drag.dy;
    }
    schedule();
  });
  const end = () => {
    drag = null;
    c.style.cursor = 'grab';
  };
  c.addEventListener('pointerup', end);
  c.addEventListener('pointercancel', end);
  c.addEventListener('wheel', (e) => {
    const hit = pick(eventPoint(e));
    if (!hit) return;
    e.preventDefault();
    state[hit.key].angle += Math.sign(e.deltaY) * 0.08;
    schedule();
  }, { passive: false });
}

function setupControls() {
  for (const key of ['a', 'b']) {
    const select = document.getElementById(`type-${key}`);
    for (const name of Object.keys(SHAPES)) select.add(new Option(name, name));
    select.value = state[key].type;
    select.addEventListener('change', () => {
      state[key].type = select.value;
      update();
    });
  }
  const query = document.getElementById('query');
  query.value = state.query;
  query.addEventListener('change', () => {
    state.query = query.value;
    update();
  });
}

async function main() {
  await init();
  document.getElementById('version').textContent = `gjk ${version()}`;
  world = setupCanvas('world');
  diff = setupCanvas('diff');
  stepper = new Stepper(drawAll);
  setupControls();
  setupMouse();
  // The first view opens on the start: play or step goes through the query.
  update(false);
  stepper.show(0);
}

main().catch((e) => {
  const badge = document.getElementById('status');
  badge.className = 'badge error';
  badge.textContent = `the library did not load: ${e}`;
  window.gjkPage = { ready: false, error: String(e) };
});
