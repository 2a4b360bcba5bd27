// The live 3D page: two solids you turn and move, their Minkowski difference as a mesh, and the simplex growing
// step by step (slider, play, step), drawn on Canvas2D.
//
// Nothing geometric is computed here. The page writes its shapes and poses as one query line in the `gjk query`
// format and asks the library (WebAssembly, crates/gjk-web) for the scene: the meshes of A, B and A − B (the hulls
// of their support points, built by the library), every GJK step and EPA iteration, and the answer exactly as
// `gjk query` prints it. This file projects and shades what it is given, and handles the mouse: turning the view
// needs no new query, turning or moving a shape runs one.

import init, { scene as runScene, version } from './pkg/gjk_web.js';
import { framesOf, Stepper, showText } from './steps.js';

// The shapes on offer, in the CLI's JSON form (local coordinates; the pose places them).
const SHAPES = {
  box: { type: 'box', half_extents: [0.7, 0.5, 0.4] },
  sphere: { type: 'sphere', radius: 0.6 },
  capsule: { type: 'capsule', half_height: 0.5, radius: 0.35 },
  cylinder: { type: 'cylinder', half_height: 0.5, radius: 0.5 },
  cone: { type: 'cone', half_height: 0.6, radius: 0.55 },
  ellipsoid: { type: 'ellipsoid', radii: [0.8, 0.5, 0.4] },
  'convex hull': {
    type: 'convex',
    points: [[0.8, 0, 0], [-0.4, 0.6, 0.1], [-0.3, -0.5, 0.5], [0.1, 0.1, -0.7], [0.2, 0.7, 0.5], [-0.6, -0.2, -0.4]],
  },
};

const COLOR = {
  a: [43, 108, 176], b: [221, 107, 32], diff: [107, 70, 193], simplex: '#2f855a', w: '#c53030', v: '#1a202c',
  answer: '#0987a0', core: '#9f7aea', text: '#1a202c', axes: ['#c53030', '#2f855a', '#2b6cb0'],
};

const WORLD_SCALE = 85; // pixels per unit in the shapes' view, whose centre is the world origin

// ---------------------------------------------------------------- small vector and quaternion helpers

const add = (p, q) => [p[0] + q[0], p[1] + q[1], p[2] + q[2]];
const sub = (p, q) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const scale = (p, k) => [p[0] * k, p[1] * k, p[2] * k];
const dot = (p, q) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const cross = (p, q) => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
const len = (p) => Math.hypot(p[0], p[1], p[2]);
const unit = (p) => scale(p, 1 / (len(p) || 1));

// Quaternions [x, y, z, w], as the query line writes them.
const quat = (axis, angle) => [...scale(unit(axis), Math.sin(angle / 2)), Math.cos(angle / 2)];
function qmul(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
const round = (x, k = 1e6) => Math.round(x * k) / k;

// ---------------------------------------------------------------- state

// The first view: a turned box and a convex hull, apart; GJK closes in on their distance in four steps.
const state = {
  a: { type: 'box', t: [-0.9, -0.1, 0], q: quat([0.3, 1, 0.2], 0.5) },
  b: { type: 'convex hull', t: [0.9, 0.6, -0.4], q: [0.1, 0.2, 0.2955, 0.9553] },
  query: 'penetration',
  selected: 'b',
  mode: 'orbit',
};
const VIEW = { yaw: -0.55, pitch: 0.4 };
const camera = { ...VIEW };

let current = null; // the last scene the library returned
let frames = []; // its frames: start, GJK steps, EPA iterations
let line = '';
let stepper = null;
let world, diff; // the two canvases
let draws = 0; // frames drawn (for tests)

function queryLine() {
  const pose = (s) => ({ translation: s.t.map((x) => round(x)), rotation: s.q.map((x) => round(x, 1e9)) });
  return JSON.stringify({
    id: 'page3d', query: state.query,
    a: SHAPES[state.a.type], pose_a: pose(state.a),
    b: SHAPES[state.b.type], pose_b: pose(state.b),
  });
}

function update(follow = true) {
  line = queryLine();
  current = JSON.parse(runScene(line));
  if (!current.error) {
    for (const key of ['a', 'b', 'diff', 'diff_core']) prepare(current.meshes[key]);
  }
  frames = framesOf(current);
  stepper.reset(frames.length, follow);
  drawAll();
}

// ---------------------------------------------------------------- meshes: neighbours and sharp edges

// Each triangle's neighbour across each of its edges, and which edges are sharp (their two triangles' planes
// differ by more than 20°): a box shows its 12 edges, a sphere none but its outline.
function prepare(mesh) {
  if (!mesh) return;
  const v = mesh.vertices;
  mesh.normals = mesh.triangles.map(([i, j, k]) => unit(cross(sub(v[j], v[i]), sub(v[k], v[i]))));
  const byEdge = new Map();
  mesh.triangles.forEach((t, n) => t.forEach((i, e) => byEdge.set(`${i},${t[(e + 1) % 3]}`, n)));
  mesh.neighbour = mesh.triangles.map((t) => t.map((i, e) => byEdge.get(`${t[(e + 1) % 3]},${i}`) ?? -1));
  mesh.sharp = mesh.triangles.map((t, n) =>
    mesh.neighbour[n].map((m) => m < 0 || dot(mesh.normals[n], mesh.normals[m]) < Math.cos(0.35)));
}

// ---------------------------------------------------------------- the camera

// World → view: turn by yaw about y, then by pitch about the view's x. In view coordinates x is right, y up and
// z toward the viewer; the projection is orthographic.
function rotation() {
  const [cy, sy, cp, sp] = [Math.cos(camera.yaw), Math.sin(camera.yaw), Math.cos(camera.pitch), Math.sin(camera.pitch)];
  return [[cy, 0, sy], [sp * sy, cp, -sp * cy], [-cp * sy, sp, cp * cy]];
}

function makeView(c, px, centre) {
  const r = rotation();
  const toView = (p) => {
    const q = sub(p, centre);
    return [dot(r[0], q), dot(r[1], q), dot(r[2], q)];
  };
  return {
    ...c, r, px,
    view: toView,
    screen: (p) => {
      const q = toView(p);
      return [c.w / 2 + q[0] * px, c.h / 2 - q[1] * px, q[2]];
    },
    // A world direction in view coordinates.
    dir: (d) => [dot(r[0], d), dot(r[1], d), dot(r[2], d)],
    // World directions of the screen's right and up.
    right: r[0], up: r[1],
  };
}

function worldView() {
  return makeView(world, WORLD_SCALE, [0, 0, 0]);
}

// The difference's view is fitted around A − B and the origin (a sphere around them, so turning keeps the size).
function diffView() {
  const pts = [[0, 0, 0], ...(current.meshes?.diff.vertices ?? [])];
  const lo = [0, 1, 2].map((k) => Math.min(...pts.map((p) => p[k])));
  const hi = [0, 1, 2].map((k) => Math.max(...pts.map((p) => p[k])));
  const centre = scale(add(lo, hi), 0.5);
  const radius = Math.max(1e-9, ...pts.map((p) => len(sub(p, centre))));
  return makeView(diff, Math.min((0.42 * Math.min(diff.w, diff.h)) / radius, 2000), centre);
}

// ---------------------------------------------------------------- drawing

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

const rgba = (c, a) => `rgba(${c[0]}, ${c[1]}, ${c[2]}, ${a})`;
const shade = (c, k) => c.map((x) => Math.round(Math.min(255, x * k)));
const LIGHT = unit([0.35, 0.6, 1]);

// Triangles of several meshes, back to front (painter's algorithm), each shaded by its normal seen from the
// light, with its sharp edges and its outline edges (a neighbour facing away) drawn over its fill.
function drawMeshes(v, items) {
  const tris = [];
  for (const { mesh, color, alpha, backs, edge } of items) {
    if (!mesh) continue;
    const s = mesh.vertices.map(v.screen);
    const facing = mesh.normals.map((n) => dot(v.r[2], n) > 0);
    mesh.triangles.forEach((t, n) => {
      if (!facing[n] && !backs) return;
      const z = (s[t[0]][2] + s[t[1]][2] + s[t[2]][2]) / 3;
      tris.push({ mesh, t, n, s, z, color, alpha, edge, facing });
    });
    if (mesh.triangles.length === 0) {
      // A segment or a point: its vertices joined.
      v.ctx.strokeStyle = rgba(color, 1);
      v.ctx.lineWidth = 3;
      v.ctx.beginPath();
      s.forEach((p, i) => (i ? v.ctx.lineTo(p[0], p[1]) : v.ctx.moveTo(p[0], p[1])));
      v.ctx.stroke();
      s.forEach((p) => dot2(v, p, rgba(color, 1), 3));
    }
  }
  tris.sort((a, b) => a.z - b.z);
  const { ctx } = v;
  ctx.lineJoin = 'round';
  for (const { mesh, t, n, s, color, alpha, edge, facing } of tris) {
    const light = 0.55 + 0.5 * Math.max(0, dot(v.dir(mesh.normals[n]), LIGHT));
    const [p, q, r] = [s[t[0]], s[t[1]], s[t[2]]];
    ctx.beginPath();
    ctx.moveTo(p[0], p[1]);
    ctx.lineTo(q[0], q[1]);
    ctx.lineTo(r[0], r[1]);
    ctx.closePath();
    const fill = rgba(shade(color, facing[n] ? light : 0.8), alpha);
    ctx.fillStyle = fill;
    ctx.fill();
    if (alpha > 0.5) {
      // Hide the hairline seams between triangles of one face.
      ctx.strokeStyle = fill;
      ctx.lineWidth = 0.6;
      ctx.stroke();
    }
    if (!facing[n]) continue;
    ctx.strokeStyle = edge;
    ctx.lineWidth = 1.2;
    ctx.beginPath();
    t.forEach((i, e) => {
      const m = mesh.neighbour[n][e];
      if (mesh.sharp[n][e] || (m >= 0 && !facing[m])) {
        const j = t[(e + 1) % 3];
        ctx.moveTo(s[i][0], s[i][1]);
        ctx.lineTo(s[j][0], s[j][1]);
      }
    });
    ctx.stroke();
  }
}

function dot2(v, p, color, r = 4, label = null, labelColor = color) {
  const { ctx } = v;
  ctx.beginPath();
  ctx.arc(p[0], p[1], r, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = 'white';
  ctx.lineWidth = 1.2;
  ctx.stroke();
  if (label) pointLabel(v, label, p, [7, -7], labelColor);
}

const LABEL_FONT = 'bold 13px "DejaVu Sans", Verdana, sans-serif';

// A label for the point p (pixels), wanted at offset `off` from it (its text's start and baseline); written by
// placeLabels once the view's marks are drawn, clear of the labels placed before it.
function pointLabel(v, s, p, off, color, font = LABEL_FONT) {
  v.labels.push({ s, p, off, color, font });
}

// Writes a view's point labels in order (earlier ones choose first): each at its wanted offset if the spot is
// free, else at the first free spot on rings of growing gap around its point (12 directions, nearest to the
// wanted one first). A spot is free when the text's box stays in the view, meets no label written before and
// covers no labelled point; if none is, the spot overlapping least is taken.
function placeLabels(v) {
  const { ctx } = v;
  const placed = [];
  const points = v.labels.map((l) => l.p);
  const overlap = (a, b) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  for (const l of v.labels) {
    ctx.font = l.font;
    const w = ctx.measureText(l.s).width;
    const size = parseFloat(l.font.match(/(\d+(\.\d+)?)px/)[1]);
    const box = (x, y) => ({ x, y, x0: x - 2, y0: y - 0.8 * size - 2, x1: x + w + 2, y1: y + 0.25 * size + 2 });
    const [hw, hh] = [w / 2 + 2, 0.52 * size + 2];
    const want = [l.off[0] + w / 2, l.off[1] - 0.28 * size];
    const base = Math.atan2(want[1], want[0]);
    const candidates = [[l.p[0] + l.off[0], l.p[1] + l.off[1]]];
    for (const gap of [3, 7, 12, 18, 26, 36, 48]) {
      for (let k = 0; k < 12; k++) {
        const turn = Math.ceil(k / 2) * (k % 2 ? 1 : -1);
        const a = base + (turn * Math.PI) / 6;
        const [cs, sn] = [Math.cos(a), Math.sin(a)];
        const reach = Math.min(hw / Math.max(Math.abs(cs), 1e-9), hh / Math.max(Math.abs(sn), 1e-9));
        candidates.push([l.p[0] + (reach + gap) * cs - w / 2, l.p[1] + (reach + gap) * sn + 0.28 * size]);
      }
    }
    let best = null;
    for (const [cx, cy] of candidates) {
      const b = box(Math.max(2, Math.min(v.w - w - 2, cx)), Math.max(size + 2, Math.min(v.h - 0.25 * size - 2, cy)));
      let cost = placed.reduce((c, q) => c + overlap(q, b), 0);
      cost += points.filter((p) => p[0] > b.x0 - 2.5 && p[0] < b.x1 + 2.5 && p[1] > b.y0 - 2.5 && p[1] < b.y1 + 2.5).length * 40;
      if (!best || cost < best.cost) best = { cost, b };
      if (cost === 0) break;
    }
    placed.push(best.b);
    text(v, l.s, best.b.x, best.b.y, l.color, l.font);
  }
  v.labels = [];
  return placed;
}

function text(v, s, x, y, color = COLOR.text, font = LABEL_FONT) {
  const { ctx } = v;
  ctx.font = font;
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'white';
  ctx.strokeText(s, x, y);
  ctx.fillStyle = color;
  ctx.fillText(s, x, y);
}

function segment(v, p, q, color, width = 2, dash = []) {
  const { ctx } = v;
  const [a, b] = [v.screen(p), v.screen(q)];
  ctx.setLineDash(dash);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(a[0], a[1]);
  ctx.lineTo(b[0], b[1]);
  ctx.stroke();
  ctx.setLineDash([]);
}

// An arrow from p along the world direction d, `pixels` long on screen at full length (shorter when d points
// toward or away from the viewer), labelled at its tip.
function arrow(v, p, d, pixels, color, label) {
  const u = unit(d);
  const a = v.screen(p);
  const tip = v.screen(add(p, scale(u, pixels / v.px)));
  const [dx, dy] = [tip[0] - a[0], tip[1] - a[1]];
  const l = Math.hypot(dx, dy);
  const { ctx } = v;
  ctx.strokeStyle = ctx.fillStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(a[0], a[1]);
  ctx.lineTo(tip[0], tip[1]);
  ctx.stroke();
  if (l > 4) {
    const [ux, uy] = [dx / l, dy / l];
    const h = Math.min(10, 0.5 * l);
    ctx.beginPath();
    ctx.moveTo(tip[0], tip[1]);
    ctx.lineTo(tip[0] - ux * h - uy * h * 0.45, tip[1] - uy * h + ux * h * 0.45);
    ctx.lineTo(tip[0] - ux * h + uy * h * 0.45, tip[1] - uy * h - ux * h * 0.45);
    ctx.closePath();
    ctx.fill();
  }
  if (label) pointLabel(v, label, tip, [5, -5], color);
}

// The world axes, small, in the bottom-left corner: which way x, y and z point from this camera.
function gizmo(v) {
  const o = [42, v.h - 38];
  ['x', 'y', 'z'].forEach((name, k) => {
    const axis = [0, 0, 0];
    axis[k] = 1;
    const q = [dot(v.r[0], axis), dot(v.r[1], axis)];
    const tip = [o[0] + 26 * q[0], o[1] - 26 * q[1]];
    v.ctx.strokeStyle = COLOR.axes[k];
    v.ctx.lineWidth = 2;
    v.ctx.beginPath();
    v.ctx.moveTo(...o);
    v.ctx.lineTo(...tip);
    v.ctx.stroke();
    text(v, name, tip[0] + 2, tip[1] + 4, COLOR.axes[k], 'bold 12px "DejaVu Sans", sans-serif');
  });
}

function clear(v) {
  v.ctx.fillStyle = 'white';
  v.ctx.fillRect(0, 0, v.w, v.h);
}

const shown = () => frames[stepper.index] ?? null;

// Where the last drawing put each view's point labels (the browser test checks that none overlap).
const labelBoxes = { world: [], diff: [] };

function drawWorld() {
  const v = worldView();
  v.labels = [];
  clear(v);
  if (current.error) return;
  const m = current.meshes;
  drawMeshes(v, [
    { mesh: m.a, color: COLOR.a, alpha: 0.82, edge: rgba(shade(COLOR.a, 0.55), 1) },
    { mesh: m.b, color: COLOR.b, alpha: 0.82, edge: rgba(shade(COLOR.b, 0.55), 1) },
  ]);
  for (const key of ['a', 'b']) {
    const c = v.screen(state[key].t);
    pointLabel(v, key.toUpperCase(), c, [6, -6], key === 'a' ? '#1c4a7a' : '#8a4212',
      `bold ${key === state.selected ? 16 : 13}px "DejaVu Sans", sans-serif`);
  }
  const f = shown();
  if (f && f.kind !== 'EPA' && f.support_a && f.support_b) {
    const d = f.kind === 'start' ? 'd₀' : 'd';
    dot2(v, v.screen(f.support_a), COLOR.w, 4, `s_A(${d})`);
    dot2(v, v.screen(f.support_b), COLOR.w, 4, `s_B(−${d})`);
  }
  const last = stepper.index === frames.length - 1;
  if (last && current.point_a && current.point_b) {
    const [pa, pb] = [current.point_a, current.point_b];
    segment(v, pa, pb, COLOR.answer, 2.5);
    if (current.answer.intersecting && current.normal) arrow(v, pa, current.normal, 50, COLOR.answer, 'n');
    dot2(v, v.screen(pa), COLOR.answer, 4.5, 'a');
    dot2(v, v.screen(pb), COLOR.answer, 4.5, 'b');
  }
  labelBoxes.world = placeLabels(v);
  gizmo(v);
}

function drawDiff() {
  const v = diffView();
  v.labels = [];
  clear(v);
  if (current.error) return;
  const m = current.meshes;
  drawMeshes(v, [{ mesh: m.diff, color: COLOR.diff, alpha: 0.13, backs: true, edge: rgba(COLOR.diff, 0.9) }]);
  if (m.diff_core) {
    v.ctx.setLineDash([5, 4]);
    drawMeshes(v, [{ mesh: m.diff_core, color: [159, 122, 234], alpha: 0.0, edge: COLOR.core }]);
    v.ctx.setLineDash([]);
  }
  // The origin: a small cross of the axes' colours.
  const o = v.screen([0, 0, 0]);
  [0, 1, 2].forEach((k) => {
    const axis = [0, 0, 0];
    axis[k] = 10 / v.px;
    segment(v, scale(axis, -1), axis, COLOR.axes[k], 1.5);
  });
  dot2(v, o, COLOR.v, 4, 'O');
  const f = shown();
  if (f?.kind === 'start') {
    arrow(v, [0, 0, 0], f.direction, 70, COLOR.w, 'd₀');
    dot2(v, v.screen(f.support), COLOR.w, 5.5, 'w₀');
  } else if (f?.kind === 'GJK') {
    simplex(v, f.before, null, 1, [4, 4]);
    simplex(v, f.simplex, f.names, 2.5, []);
    arrow(v, [0, 0, 0], f.direction, 70, COLOR.w, 'd');
    segment(v, [0, 0, 0], f.closest, COLOR.v, 1.2, [2, 3]);
    dot2(v, v.screen(f.closest), COLOR.v, 3.5, len(f.closest) * v.px < 6 ? null : 'v');
    if (!f.simplex.some((p) => p.every((x, k) => x === f.support[k]))) dot2(v, v.screen(f.support), COLOR.w, 5, 'w');
  } else if (f?.kind === 'EPA') {
    polytope(v, f);
  }
  if (stepper.index === frames.length - 1 && current.point_a && current.point_b) {
    const g = sub(current.point_a, current.point_b);
    if (len(g) > 0) {
      segment(v, [0, 0, 0], g, COLOR.answer, 2.5);
      dot2(v, v.screen(g), COLOR.answer, 4, 'a − b');
    }
  }
  labelBoxes.diff = placeLabels(v);
  gizmo(v);
}

// A simplex: its faces filled lightly, its edges, its points named.
function simplex(v, pts, names, width, dash) {
  const s = pts.map(v.screen);
  const { ctx } = v;
  if (names && s.length >= 3) {
    ctx.fillStyle = 'rgba(47, 133, 90, 0.16)';
    for (let i = 0; i < s.length; i++) {
      for (let j = i + 1; j < s.length; j++) {
        for (let k = j + 1; k < s.length; k++) {
          ctx.beginPath();
          ctx.moveTo(s[i][0], s[i][1]);
          ctx.lineTo(s[j][0], s[j][1]);
          ctx.lineTo(s[k][0], s[k][1]);
          ctx.closePath();
          ctx.fill();
        }
      }
    }
  }
  for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) segment(v, pts[i], pts[j], COLOR.simplex, width, dash);
  if (names) s.forEach((p, i) => dot2(v, p, COLOR.simplex, 4, names[i]));
}

// An EPA iteration: the polytope's faces, the face nearest O (red) with its normal n from the foot of the
// perpendicular, and the support point w along n.
function polytope(v, e) {
  const s = e.vertices.map(v.screen);
  const { ctx } = v;
  e.faces.forEach((face, n) => {
    const near = n === e.nearest;
    ctx.beginPath();
    face.forEach((i, k) => (k ? ctx.lineTo(s[i][0], s[i][1]) : ctx.moveTo(s[i][0], s[i][1])));
    ctx.closePath();
    ctx.fillStyle = near ? 'rgba(197, 48, 48, 0.3)' : 'rgba(47, 133, 90, 0.08)';
    ctx.fill();
    ctx.strokeStyle = near ? COLOR.w : COLOR.simplex;
    ctx.lineWidth = near ? 2.5 : 1;
    ctx.stroke();
  });
  const foot = scale(e.normal, e.lower);
  segment(v, [0, 0, 0], foot, COLOR.v, 1.2, [2, 3]);
  arrow(v, foot, e.normal, 55, COLOR.w, 'n');
  dot2(v, v.screen(e.support), COLOR.w, 5, 'w');
}

function drawAll() {
  draws++;
  drawWorld();
  drawDiff();
  const verdict = showText(current, line, frames, stepper.index);
  window.gjkPage3d = {
    ready: true, line, scene: current, state: structuredClone(state), camera: { ...camera }, frames: frames.length,
    shown: stepper.index, playing: stepper.timer !== null, verdict, draws, centerOnScreen,
    labels: () => structuredClone(labelBoxes),
  };
}

// Page coordinates of a shape's centre in the shapes' view (for tests driving the mouse).
function centerOnScreen(key) {
  const r = world.canvas.getBoundingClientRect();
  const p = worldView().screen(state[key].t);
  return { x: r.left + p[0], y: r.top + p[1] };
}

// ---------------------------------------------------------------- the mouse and the controls

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
  for (const c of [world.canvas, diff.canvas]) {
    let drag = null;
    c.addEventListener('pointerdown', (e) => {
      const mode = e.shiftKey ? 'turn' : e.ctrlKey || e.altKey ? 'move' : state.mode;
      drag = { mode, x: e.clientX, y: e.clientY };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
      drag.x = e.clientX;
      drag.y = e.clientY;
      const v = worldView();
      const s = state[state.selected];
      if (drag.mode === 'orbit') {
        camera.yaw += dx * 0.01;
        camera.pitch = Math.max(-1.5, Math.min(1.5, camera.pitch + dy * 0.01));
        drawAll();
      } else if (drag.mode === 'turn') {
        // A trackball: left-right turns the shape about the screen's up, up-down about the screen's right.
        s.q = qmul(qmul(quat(v.up, dx * 0.01), quat(v.right, dy * 0.01)), s.q);
        schedule();
      } else {
        s.t = add(s.t, add(scale(v.right, dx / WORLD_SCALE), scale(v.up, -dy / WORLD_SCALE)));
        schedule();
      }
    });
    const end = () => (drag = null);
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
  }
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
  for (const input of document.querySelectorAll('input[name="mode"]')) {
    input.addEventListener('change', () => (state.mode = input.value));
  }
  document.getElementById('reset-view').addEventListener('click', () => {
    Object.assign(camera, VIEW);
    drawAll();
  });
  for (const input of document.querySelectorAll('input[name="selected"]')) {
    input.addEventListener('change', () => {
      state.selected = input.value;
      drawAll();
    });
  }
}

async function main() {
  await init();
  document.getElementById('version').textContent = `gjk ${version()}`;
  world = setupCanvas('world');
  diff = setupCanvas('diff');
  stepper = new Stepper(drawAll);
  setupControls();
  setupMouse();
  update(false);
  stepper.show(0);
}

main().catch((e) => {
  const badge = document.getElementById('status');
  badge.className = 'badge error';
  badge.textContent = `the library did not load: ${e}`;
  window.gjkPage3d = { ready: false, error: String(e) };
});
