// What the 2D and the 3D page share: the frames of a query (the start, each GJK step, each EPA iteration), the
// slider with its play and step buttons, and the words under the pictures. Nothing here computes geometry: the
// frames are the library's record of the query (crates/gjk-web), shown one at a time.

/// The frames of a scene, in order: the first support point, GJK's steps, then EPA's iterations (penetration
/// queries whose cores overlap).
export function framesOf(scene) {
  if (scene.error) return [];
  return [
    { kind: 'start', iteration: 0, ...scene.start },
    ...(scene.steps ?? []).map((s) => ({ kind: 'GJK', ...s })),
    ...(scene.epa ?? []).map((e) => ({ kind: 'EPA', ...e })),
  ];
}

/// The step controls: a slider over the frames, a play button that runs through them, a step button that
/// advances one. `shown` is the index of the frame shown, or null to follow the last one (the answer) while the
/// shapes move. `onShow()` redraws.
export class Stepper {
  constructor(onShow) {
    this.onShow = onShow;
    this.count = 0;
    this.shown = null;
    this.timer = null;
    this.slider = document.getElementById('step');
    this.label = document.getElementById('step-label');
    this.playButton = document.getElementById('play');
    this.stepButton = document.getElementById('step-next');
    this.slider.addEventListener('input', () => {
      this.stop();
      this.show(Number(this.slider.value));
    });
    this.playButton.addEventListener('click', () => (this.timer ? this.stop() : this.play()));
    this.stepButton.addEventListener('click', () => {
      this.stop();
      this.show(this.index >= this.count - 1 ? 0 : this.index + 1);
    });
  }

  /// The index of the frame shown.
  get index() {
    return this.shown ?? this.count - 1;
  }

  /// A new scene with `count` frames; `follow` shows its last.
  reset(count, follow) {
    this.count = count;
    if (follow || (this.shown !== null && this.shown >= count)) this.shown = null;
    if (follow && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.sync();
  }

  show(k) {
    this.shown = k >= this.count - 1 ? null : Math.max(0, k);
    this.sync();
    this.onShow();
  }

  /// Runs through the frames, from the first when the last is shown.
  play() {
    if (this.count < 2) return;
    if (this.index >= this.count - 1) this.show(0);
    this.timer = setInterval(() => {
      this.show(this.index + 1);
      if (this.index >= this.count - 1) this.stop();
    }, 900);
    this.sync();
    this.onShow();
  }

  stop() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.sync();
    this.onShow();
  }

  sync() {
    this.slider.min = 0;
    this.slider.max = Math.max(this.count - 1, 0);
    this.slider.value = this.index;
    this.slider.disabled = this.count < 2;
    this.playButton.disabled = this.stepButton.disabled = this.count < 2;
    this.playButton.textContent = this.timer ? '❚❚ pause' : '▶ play';
    this.playButton.dataset.playing = this.timer ? 'yes' : 'no';
  }
}

export const fmt = (x) => (Math.abs(x) < 5e-4 ? '0.000' : x.toFixed(3)).replace('-', '−');
export const fmtP = (p) => `(${p.map(fmt).join(', ')})`;
const norm = (p) => Math.hypot(...p);

/// The slider's label for frame k of n (the start is frame 0).
export function frameLabel(frame, k, n) {
  const name = frame.kind === 'start' ? 'start' : `${frame.kind} ${frame.iteration}`;
  return `${name} (${k} of ${n - 1})`;
}

/// What a frame shows, in words (HTML).
export function frameText(frame) {
  if (!frame) return '';
  if (frame.kind === 'start') {
    return `<b>Start: the first support point w₀.</b> The first search direction d₀ = ${fmtP(frame.direction)} ` +
      `(${frame.how}); w₀ = s_A(d₀) − s_B(−d₀) = ${fmtP(frame.support)} is the point of A − B farthest ` +
      'along it. The simplex is {w₀}; each step then searches along d = −v, toward the origin.';
  }
  if (frame.kind === 'GJK') {
    return `<b>GJK step ${frame.iteration}: ${frame.decision}.</b> ${frame.meaning}.<br>` +
      `d = ${fmtP(frame.direction)} · w = ${fmtP(frame.support)} · v = ${fmtP(frame.closest)} ` +
      `(|v| = ${fmt(norm(frame.closest))}) · simplex {${frame.names.join(', ')}}`;
  }
  return `<b>EPA iteration ${frame.iteration}: ${frame.decision}.</b> ${frame.meaning}.<br>` +
    `nearest face at ${fmt(frame.lower)} along n = ${fmtP(frame.normal)} · w = ${fmtP(frame.support)} · ` +
    `depth between ${fmt(frame.lower)} and ${fmt(frame.upper)}`;
}

/// The verdict badge, the slider's label, the frame's words and the readout (answer and query line).
export function showText(scene, line, frames, k) {
  const badge = document.getElementById('status');
  const a = scene.answer ?? {};
  const verdict = scene.error ? 'error' : a.intersecting ? 'intersecting' : 'separated';
  badge.className = `badge ${verdict}`;
  badge.dataset.state = verdict;
  if (scene.error) badge.textContent = scene.error;
  else if (a.intersecting) badge.textContent = a.depth !== undefined ? `intersecting · depth ${fmt(a.depth)}` : 'intersecting';
  else badge.textContent = a.distance !== undefined ? `separated · distance ${fmt(a.distance)}` : 'separated';
  const frame = frames[k];
  document.getElementById('step-label').textContent = frame ? frameLabel(frame, k, frames.length) : 'none';
  document.getElementById('step-text').innerHTML = frameText(frame);
  document.getElementById('readout').textContent = scene.error
    ? `error: ${scene.error}`
    : [scene.headline, ...scene.lines, '', 'the same query for gjk query:', line].join('\n');
  return verdict;
}
