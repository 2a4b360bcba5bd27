//! The SVG: a sheet of small multiples, one panel for the start, one per step, one for the answer. Every panel
//! shows the same views at the same scale, so only what changes from step to step moves.
//!
//! All numbers are written with fixed precision and nothing depends on the clock or on hashing order, so the same
//! drawing always gives the same bytes.

use std::cell::RefCell;
use std::f64::consts::FRAC_1_SQRT_2;
use std::fmt::Write;

use super::model::{
    decision_text, epa_decision_text, num, subscript, vec, Drawing, EpaView, Kind, StepView, View, P2, P3,
};

pub(super) const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
pub(super) const MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";

pub(super) const COL_A: &str = "#2b6cb0";
pub(super) const COL_B: &str = "#dd6b20";
const COL_DIFF: &str = "#6b46c1";
const COL_SIMPLEX: &str = "#2f855a";
pub(super) const COL_W: &str = "#c53030";
pub(super) const COL_V: &str = "#1a202c";
pub(super) const COL_ANSWER: &str = "#0987a0";
pub(super) const COL_GRID: &str = "#edf2f7";
pub(super) const COL_AXIS: &str = "#a0aec0";
pub(super) const COL_FRAME: &str = "#cbd5e0";
pub(super) const COL_TEXT: &str = "#1a202c";
pub(super) const COL_MUTED: &str = "#4a5568";

pub(super) const MARGIN: f64 = 20.0;
const GAP: f64 = 14.0;
pub(super) const PAD: f64 = 12.0;
pub(super) const PANEL_TITLE: f64 = 24.0;
pub(super) const CAPTION_LINE: f64 = 15.0;
pub(super) const CAPTION_FONT: f64 = 11.5;
/// Room left of a plot for the tick labels, below it for the tick labels, right of it, above it for the view's
/// name.
pub(super) const LEFT: f64 = 40.0;
pub(super) const BOTTOM: f64 = 20.0;
pub(super) const RIGHT: f64 = 16.0;
pub(super) const TOP: f64 = 18.0;

/// What one view's plot shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A and B in the world and A − B, in one plane (when their sizes and places allow).
    Both,
    /// A and B in the world.
    World,
    /// A − B.
    Diff,
}

impl Frame {
    fn name(self) -> &'static str {
        match self {
            Frame::Both => "A, B and A − B",
            Frame::World => "A and B (world)",
            Frame::Diff => "A − B",
        }
    }
    fn world(self) -> bool {
        self != Frame::Diff
    }
    fn diff(self) -> bool {
        self != Frame::World
    }
}

#[derive(Clone, Copy)]
enum Panel<'d> {
    Start,
    Step(&'d StepView),
    Epa(&'d EpaView),
    Answer,
}

/// At most this many EPA panels: a long expansion shows its first and its last iterations, and says how many it
/// leaves out (the page and the observer have them all).
const MAX_EPA_PANELS: usize = 8;

/// The EPA iterations drawn: all, or the first five and the last three.
fn epa_panels(d: &Drawing) -> impl Iterator<Item = &EpaView> {
    let n = d.epa.len();
    let (head, tail) = if n <= MAX_EPA_PANELS { (n, 0) } else { (5, 3) };
    d.epa[..head].iter().chain(&d.epa[n - tail..])
}

/// A square window onto a view's plane.
#[derive(Clone, Copy)]
struct Bounds {
    x0: f64,
    y0: f64,
    span: f64,
}

/// A view's plot: its window and its size in pixels.
struct Plot<'d> {
    view: View,
    index: usize,
    frame: Frame,
    /// Which of the sheet's frames (for the ids of the outlines every panel shares).
    row: usize,
    bounds: Bounds,
    size: f64,
    drawing: &'d Drawing,
    /// Point labels, placed and written last.
    labels: RefCell<Vec<Label>>,
}

impl Plot<'_> {
    /// Pixel position of a point of the view's plane (plot-local, y down).
    fn px(&self, p: P2) -> (f64, f64) {
        let k = self.size / self.bounds.span;
        ((p[0] - self.bounds.x0) * k, self.size - (p[1] - self.bounds.y0) * k)
    }
    fn pt(&self, p: P3) -> (f64, f64) {
        self.px(self.view.project(p))
    }
    /// A direction seen in this view, in pixels (y down), and how much of its length the view sees.
    fn dir(&self, d: P3) -> Option<((f64, f64), f64)> {
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let p = self.view.project(d);
        let plen = (p[0] * p[0] + p[1] * p[1]).sqrt();
        if len.is_nan() || len <= 0.0 || plen < 1e-3 * len {
            return None;
        }
        Some(((p[0] / plen, -p[1] / plen), plen / len))
    }
}

/// Writes the whole SVG.
pub fn svg(d: &Drawing) -> String {
    sheet(d).0
}

/// Where every point label of the sheet went: one list per plot of each panel (labels are placed plot by plot,
/// so only labels of the same list can meet), in the plot's pixels.
pub fn label_boxes(d: &Drawing) -> Vec<Vec<LabelBox>> {
    sheet(d).1
}

/// The SVG and its label boxes.
fn sheet(d: &Drawing) -> (String, Vec<Vec<LabelBox>>) {
    let mut boxes = Vec::new();
    let frames = frames(d);
    let size = match (d.dim, frames.len()) {
        (2, 1) => 260.0,
        (2, _) => 230.0,
        _ => 190.0,
    };
    let bounds: Vec<Vec<Bounds>> =
        frames.iter().map(|&f| (0..d.views.len()).map(|v| bounds(d, f, v)).collect()).collect();

    let mut panels = vec![Panel::Start];
    panels.extend(d.steps.iter().map(Panel::Step));
    panels.extend(epa_panels(d).map(Panel::Epa));
    panels.push(Panel::Answer);

    let cell_w = LEFT + size + RIGHT;
    let cell_h = TOP + size + BOTTOM;
    // 2D: the frames side by side; 3D: one row of three views per frame.
    let (grid_cols, grid_rows) = if d.dim == 2 { (frames.len(), 1) } else { (d.views.len(), frames.len()) };
    let cell_at = |frame: usize, view: usize| if d.dim == 2 { (frame, 0) } else { (view, frame) };
    let panel_w = 2.0 * PAD + cell_w * grid_cols as f64;
    let chars = ((panel_w - 2.0 * PAD) / (CAPTION_FONT * 0.56)) as usize;
    let captions: Vec<Vec<String>> = panels.iter().map(|p| wrap_all(&caption(d, *p), chars)).collect();
    let caption_lines = captions.iter().map(Vec::len).max().unwrap_or(0);
    let panel_h = PAD + PANEL_TITLE + cell_h * grid_rows as f64 + 4.0 + CAPTION_LINE * caption_lines as f64 + PAD;
    let max_cols = if d.dim == 2 && frames.len() == 1 { 4 } else { 2 };
    let cols = panels.len().min(max_cols);
    let rows = panels.len().div_ceil(cols);
    let width = 2.0 * MARGIN + cols as f64 * panel_w + (cols - 1) as f64 * GAP;

    // Header: title, what was asked, the answer line, the legend.
    let mut head = String::new();
    let mut y = MARGIN - 8.0;
    for line in wrap(&d.title, ((width - 2.0 * MARGIN) / (20.0 * 0.62)) as usize) {
        y += 26.0;
        text(&mut head, MARGIN, y, 20.0, "bold", "start", COL_TEXT, line.trim_start());
    }
    y += 8.0;
    for line in d.about.iter().flat_map(|l| wrap(l, ((width - 2.0 * MARGIN) / (12.0 * 0.6)) as usize)) {
        y += 17.0;
        text(&mut head, MARGIN, y, 12.0, "normal", "start", COL_MUTED, &line);
    }
    let answer = format!("gjk query answers: {}", d.answer_json);
    for line in wrap_after_commas(&answer, ((width - 2.0 * MARGIN) / (11.0 * 0.61)) as usize) {
        y += 16.0;
        let _ = writeln!(
            head,
            r#"<text x="{}" y="{}" font-family="{MONO}" font-size="11" fill="{COL_MUTED}">{}</text>"#,
            f(MARGIN),
            f(y),
            esc(&line)
        );
    }
    y += 12.0;
    y = legend(&mut head, d, y, width);
    let top = y + 10.0;
    let height = top + rows as f64 * panel_h + (rows - 1) as f64 * GAP + MARGIN;

    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}" data-query="{q}" data-dim="{dim}">"#,
        w = f(width),
        h = f(height),
        q = d.kind.name(),
        dim = d.dim
    );
    let _ = writeln!(o, "<title>{}</title>", esc(&d.title));
    let _ = writeln!(o, r#"<desc id="gjk-answer">{}</desc>"#, esc(&d.answer_json));
    // What is the same in every panel (grid, axes, outlines) is drawn once here and placed by <use>.
    let _ = writeln!(
        o,
        r#"<defs><clipPath id="plot"><rect x="0" y="0" width="{s}" height="{s}"/></clipPath>"#,
        s = f(size)
    );
    for (r, &frame) in frames.iter().enumerate() {
        for (v, (view, &window)) in d.views.iter().zip(&bounds[r]).enumerate() {
            let plot = Plot {
                view: *view,
                index: v,
                frame,
                row: r,
                bounds: window,
                size,
                drawing: d,
                labels: RefCell::new(Vec::new()),
            };
            let _ = writeln!(o, r#"<g id="{}">"#, outline_id(&plot, "grid"));
            grid(&mut o, &plot);
            o.push_str("</g>\n");
            let _ = writeln!(o, r#"<g id="{}">"#, outline_id(&plot, "axes"));
            axes(&mut o, &plot);
            o.push_str("</g>\n");
            let out = &d.outlines[v];
            let mut outline = |name: &str, pts: &[P2], col: &str, fill: f64, width: f64, dash: Option<&str>| {
                let _ = writeln!(o, r#"<g id="{}">"#, outline_id(&plot, name));
                shape(&mut o, &plot, pts, col, fill, width, dash);
                o.push_str("</g>\n");
            };
            if frame.diff() {
                outline("diff", &out.diff, COL_DIFF, 0.10, 1.6, None);
                if let Some(core) = &out.diff_core {
                    outline("core", core, COL_DIFF, 0.0, 1.2, Some("5 3"));
                }
            }
            if frame.world() {
                outline("a", &out.a, COL_A, 0.16, 1.6, None);
                outline("b", &out.b, COL_B, 0.16, 1.6, None);
            }
        }
    }
    o.push_str("</defs>\n");
    let _ = writeln!(o, r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##, f(width), f(height));
    o.push_str(&head);

    for (n, (panel, caption)) in panels.iter().zip(&captions).enumerate() {
        let px = MARGIN + (n % cols) as f64 * (panel_w + GAP);
        let py = top + (n / cols) as f64 * (panel_h + GAP);
        let (attrs, title) = match panel {
            Panel::Start => (r#"data-panel="start""#.to_string(), "start: the first support point".to_string()),
            Panel::Step(s) => {
                let (short, _) = decision_text(s.decision, d.dim);
                (
                    format!(r#"data-panel="step" data-step="{}" data-decision="{short}""#, s.iteration),
                    format!("step {} · {short}", s.iteration),
                )
            }
            Panel::Epa(e) => {
                let (short, _) = epa_decision_text(e.decision);
                (
                    format!(r#"data-panel="epa" data-step="{}" data-decision="{short}""#, e.iteration),
                    format!("EPA {} · {short}", e.iteration),
                )
            }
            Panel::Answer => (r#"data-panel="answer""#.to_string(), format!("answer · {}", d.answer.headline)),
        };
        let _ = writeln!(o, r#"<g {attrs} transform="translate({},{})">"#, f(px), f(py));
        let _ = writeln!(
            o,
            r##"<rect x="0" y="0" width="{}" height="{}" rx="6" fill="#ffffff" stroke="{COL_FRAME}"/>"##,
            f(panel_w),
            f(panel_h)
        );
        text(&mut o, PAD, PAD + 14.0, 14.0, "bold", "start", COL_TEXT, &title);
        for (r, &frame) in frames.iter().enumerate() {
            for (v, view) in d.views.iter().enumerate() {
                let plot = Plot {
                    view: *view,
                    index: v,
                    frame,
                    row: r,
                    bounds: bounds[r][v],
                    size,
                    drawing: d,
                    labels: RefCell::new(Vec::new()),
                };
                let (col, row) = cell_at(r, v);
                let cx = PAD + col as f64 * cell_w;
                let cy = PAD + PANEL_TITLE + row as f64 * cell_h;
                boxes.push(draw_plot(&mut o, &plot, *panel, cx, cy, frames.len() > 1));
            }
        }
        let mut cy = PAD + PANEL_TITLE + cell_h * grid_rows as f64 + 4.0;
        for line in caption {
            cy += CAPTION_LINE;
            // Leading spaces indent (SVG would collapse them).
            let body = line.trim_start_matches(' ');
            let indent = (line.len() - body.len()) as f64 * CAPTION_FONT * 0.32;
            text(&mut o, PAD + indent, cy - 3.0, CAPTION_FONT, "normal", "start", COL_TEXT, body);
        }
        o.push_str("</g>\n");
    }
    o.push_str("</svg>\n");
    (o, boxes)
}

/// One plot in one frame: A, B and A − B together when they fit one window, else side by side.
fn frames(d: &Drawing) -> Vec<Frame> {
    let together = (0..d.views.len()).all(|v| {
        let w = extent(&world_points(d, v));
        let m = extent(&diff_points(d, v));
        let mut all = world_points(d, v);
        all.extend(diff_points(d, v));
        let u = extent(&all);
        u <= 3.0 * w && u <= 3.0 * m
    });
    if together {
        vec![Frame::Both]
    } else {
        vec![Frame::World, Frame::Diff]
    }
}

fn extent(pts: &[P2]) -> f64 {
    let (lo, hi) = minmax(pts);
    (hi[0] - lo[0]).max(hi[1] - lo[1])
}

fn minmax(pts: &[P2]) -> (P2, P2) {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in pts.iter().filter(|p| p[0].is_finite() && p[1].is_finite()) {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if lo[0] > hi[0] {
        return ([0.0; 2], [0.0; 2]);
    }
    (lo, hi)
}

/// Everything drawn in the world, seen in view `v`.
fn world_points(d: &Drawing, v: usize) -> Vec<P2> {
    let view = d.views[v];
    let mut pts: Vec<P2> = d.outlines[v].a.iter().chain(&d.outlines[v].b).copied().collect();
    pts.extend(d.steps.iter().flat_map(|s| [s.support_a, s.support_b]).map(|p| view.project(p)));
    pts.extend(d.start.parts.iter().flat_map(|(a, b)| [*a, *b]).map(|p| view.project(p)));
    pts.extend(d.answer.point_a.iter().chain(&d.answer.point_b).map(|p| view.project(*p)));
    pts
}

/// Everything drawn in A − B, seen in view `v`: the origin always.
fn diff_points(d: &Drawing, v: usize) -> Vec<P2> {
    let view = d.views[v];
    let mut pts: Vec<P2> = vec![[0.0, 0.0]];
    pts.extend(&d.outlines[v].diff);
    pts.extend(d.outlines[v].diff_core.iter().flatten());
    pts.push(view.project(d.start.support));
    for s in &d.steps {
        pts.push(view.project(s.support));
        pts.push(view.project(s.closest));
        pts.extend(s.simplex.iter().map(|(p, _)| view.project(*p)));
    }
    for e in &d.epa {
        pts.push(view.project(e.support));
        pts.extend(e.vertices.iter().map(|p| view.project(*p)));
    }
    pts
}

/// The window of a frame in a view: everything any panel draws there, with a margin, made square.
fn bounds(d: &Drawing, frame: Frame, v: usize) -> Bounds {
    let mut pts = Vec::new();
    if frame.world() {
        pts.extend(world_points(d, v));
    }
    if frame.diff() {
        pts.extend(diff_points(d, v));
    }
    let (lo, hi) = minmax(&pts);
    let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    let mut span = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let floor = 1e-9 * (1.0 + c[0].abs().max(c[1].abs()));
    if span.is_nan() || span <= floor {
        span = 1.0;
    }
    span *= 1.16;
    Bounds { x0: c[0] - span / 2.0, y0: c[1] - span / 2.0, span }
}

/// Tick positions and the number of decimals of their labels: about five per window, at 1, 2 or 5 × 10ⁿ.
pub(super) fn ticks(lo: f64, span: f64) -> (Vec<f64>, usize) {
    let raw = span / 5.0;
    let exp = raw.log10().floor();
    let unit = 10f64.powf(exp);
    let f = raw / unit;
    let (m, exp) = if f <= 1.0 {
        (1.0, exp)
    } else if f <= 2.0 {
        (2.0, exp)
    } else if f <= 5.0 {
        (5.0, exp)
    } else {
        (1.0, exp + 1.0)
    };
    let step = m * 10f64.powf(exp);
    let decimals = if exp < 0.0 { (-exp) as usize } else { 0 };
    let first = (lo / step).ceil() as i64;
    let last = ((lo + span) / step).floor() as i64;
    ((first..=last).map(|k| k as f64 * step).collect(), decimals)
}

pub(super) fn tick_label(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|c| c == b'0' || c == b'.') => rest.to_string(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => s,
    }
}

/// Draws one view's plot of a panel; returns where its point labels went.
fn draw_plot(o: &mut String, p: &Plot<'_>, panel: Panel<'_>, cx: f64, cy: f64, name_frame: bool) -> Vec<LabelBox> {
    let d = p.drawing;
    let s = p.size;
    let (xn, yn) = p.view.axis_names();
    let mut label = String::new();
    if name_frame {
        label.push_str(p.frame.name());
    }
    if d.dim == 3 {
        if !label.is_empty() {
            label.push_str(" · ");
        }
        label.push_str(&format!("{xn}{yn} view"));
    }
    let _ = writeln!(o, r#"<g transform="translate({},{})">"#, f(cx + LEFT), f(cy + TOP));
    if !label.is_empty() {
        text(o, 0.0, -6.0, 11.0, "bold", "start", COL_MUTED, &label);
    }
    o.push_str("<g clip-path=\"url(#plot)\">\n");
    place(o, p, "grid");
    let out = &d.outlines[p.index];
    if p.frame.diff() {
        place(o, p, "diff");
        if out.diff_core.is_some() {
            place(o, p, "core");
        }
    }
    if p.frame.world() {
        place(o, p, "a");
        place(o, p, "b");
    }

    let arrow_len = 0.2 * s;
    match panel {
        Panel::Start => {
            let st = &d.start;
            if p.frame.diff() {
                supporting_line(o, p, st.support, st.direction);
                arrow(o, p, p.pt([0.0; 3]), st.direction, arrow_len, COL_W, 2.0, &format!("d{}", subscript(0)));
            }
            if p.frame.world() {
                if let Some((a, b)) = st.parts {
                    world_supports(o, p, a, b, st.direction);
                }
            }
            if p.frame.diff() {
                origin(o, p);
                dot(o, p.pt(st.support), 4.5, COL_W, "#ffffff", 1.2);
                label_at(p, p.pt(st.support), (7.0, -7.0), COL_W, &format!("w{}", subscript(0)));
            }
        }
        Panel::Step(st) => {
            if p.frame.diff() {
                supporting_line(o, p, st.support, st.direction);
                let before: Vec<P3> = st.before.clone();
                simplex_edges(o, p, &before, COL_SIMPLEX, 1.2, Some("4 3"), 0.0);
                let now: Vec<P3> = st.simplex.iter().map(|(q, _)| *q).collect();
                simplex_edges(o, p, &now, COL_SIMPLEX, 2.2, None, 0.14);
                line(o, p.pt([0.0; 3]), p.pt(st.closest), COL_V, 1.0, Some("2 2"));
                arrow(o, p, p.pt([0.0; 3]), st.direction, arrow_len, COL_W, 2.0, "d");
            }
            if p.frame.world() {
                world_supports(o, p, st.support_a, st.support_b, st.direction);
            }
            if p.frame.diff() {
                origin(o, p);
                let centre = centroid(&st.simplex.iter().map(|(q, _)| p.pt(*q)).collect::<Vec<_>>());
                for (q, name) in &st.simplex {
                    let at = p.pt(*q);
                    let col = if *q == st.support { COL_W } else { COL_SIMPLEX };
                    dot(o, at, if *q == st.support { 4.5 } else { 3.5 }, col, "#ffffff", 1.2);
                    label_at(p, at, away(at, centre), col, name);
                }
                if !st.simplex.iter().any(|(q, _)| *q == st.support) {
                    // The new point did not make it into the simplex (converged, stalled, separated).
                    let at = p.pt(st.support);
                    dot(o, at, 4.5, COL_W, "#ffffff", 1.2);
                    label_at(p, at, (7.0, -7.0), COL_W, &format!("w{}", subscript(st.iteration)));
                }
                dot(o, p.pt(st.closest), 3.5, COL_V, "#ffffff", 1.2);
                label_at(p, p.pt(st.closest), away(p.pt(st.closest), p.pt([0.0; 3])), COL_V, "v");
            }
        }
        Panel::Epa(e) => {
            if p.frame.diff() {
                epa_polytope(o, p, e);
                origin(o, p);
            }
        }
        Panel::Answer => {
            if p.frame.diff() {
                if let Some(last) = d.steps.last() {
                    let now: Vec<P3> = last.simplex.iter().map(|(q, _)| *q).collect();
                    simplex_edges(o, p, &now, COL_SIMPLEX, 2.2, None, 0.14);
                } else {
                    simplex_edges(o, p, &[d.start.support], COL_SIMPLEX, 2.2, None, 0.14);
                }
                if let (Some(a), Some(b)) = (d.answer.point_a, d.answer.point_b) {
                    // The point of A − B nearest the origin (deepest, when overlapping): a − b.
                    let g = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
                    if g != [0.0; 3] {
                        line(o, p.pt([0.0; 3]), p.pt(g), COL_ANSWER, 2.0, None);
                        dot(o, p.pt(g), 3.5, COL_ANSWER, "#ffffff", 1.2);
                        // Away from a and b, whose labels sit near it when the shapes are near the origin.
                        let from = if p.frame == Frame::Both { centroid(&[p.pt(a), p.pt(b)]) } else { p.pt([0.0; 3]) };
                        label_at(p, p.pt(g), away(p.pt(g), from), COL_ANSWER, "a − b");
                    }
                }
                origin(o, p);
                if let Some(last) = d.steps.last() {
                    for (q, _) in &last.simplex {
                        dot(o, p.pt(*q), 3.5, COL_SIMPLEX, "#ffffff", 1.2);
                    }
                }
            }
            if p.frame.world() {
                if let (Some(a), Some(b)) = (d.answer.point_a, d.answer.point_b) {
                    line(o, p.pt(a), p.pt(b), COL_ANSWER, 2.0, None);
                    if let Some(n) = d.answer.normal {
                        // From b onward, clear of the segment a–b.
                        arrow(o, p, p.pt(b), n, 0.16 * s, COL_ANSWER, 2.0, "n");
                    }
                    dot(o, p.pt(a), 4.0, COL_A, "#ffffff", 1.5);
                    dot(o, p.pt(b), 4.0, COL_B, "#ffffff", 1.5);
                    let mid = centroid(&[p.pt(a), p.pt(b)]);
                    if a != b {
                        label_at(p, p.pt(a), away(p.pt(a), mid), COL_A, "a");
                        label_at(p, p.pt(b), away(p.pt(b), mid), COL_B, "b");
                    } else {
                        label_at(p, p.pt(a), (7.0, -7.0), COL_ANSWER, "a = b");
                    }
                }
            }
        }
    }
    o.push_str("</g>\n");
    let boxes = place_labels(&p.labels.borrow(), p.size);
    for (label, b) in p.labels.borrow().iter().zip(&boxes) {
        halo_text(o, b.x, b.y, LABEL_FONT, "start", label.col, &b.text, false);
    }

    place(o, p, "axes");
    o.push_str("</g>\n");
    boxes
}

/// An EPA iteration in A − B: the polytope (filled in 2D, its edges in 3D), the face nearest the origin with its
/// normal n from the foot of the perpendicular, and the support point w along n with the line through it across
/// n (the depth's upper bound: A − B lies behind that line).
fn epa_polytope(o: &mut String, p: &Plot<'_>, e: &EpaView) {
    if p.drawing.dim == 2 {
        // The vertices are the polygon, counter-clockwise.
        let polygon: Vec<P2> = e.vertices.iter().map(|q| p.view.project(*q)).collect();
        shape(o, p, &polygon, COL_SIMPLEX, 0.14, 1.6, None);
    } else {
        for face in &e.faces {
            for (k, &i) in face.iter().enumerate() {
                let j = face[(k + 1) % face.len()];
                line(o, p.pt(e.vertices[i]), p.pt(e.vertices[j]), COL_SIMPLEX, 1.0, None);
            }
        }
    }
    let foot = e.normal.map(|c| c * e.lower);
    if let Some(face) = e.faces.get(e.nearest) {
        for (k, &i) in face.iter().enumerate() {
            let j = face[(k + 1) % face.len()];
            line(o, p.pt(e.vertices[i]), p.pt(e.vertices[j]), COL_W, 2.6, None);
        }
    }
    line(o, p.pt([0.0; 3]), p.pt(foot), COL_V, 1.0, Some("2 2"));
    supporting_line(o, p, e.support, e.normal);
    arrow(o, p, p.pt(foot), e.normal, 0.14 * p.size, COL_W, 2.0, "n");
    dot(o, p.pt(e.support), 4.5, COL_W, "#ffffff", 1.2);
    label_at(p, p.pt(e.support), away(p.pt(e.support), p.pt([0.0; 3])), COL_W, "w");
}

/// The plot's background, grid and the axes through the origin (under everything).
fn grid(o: &mut String, p: &Plot<'_>) {
    let s = p.size;
    let _ = writeln!(o, r##"<rect x="0" y="0" width="{0}" height="{0}" fill="#ffffff"/>"##, f(s));
    let b = p.bounds;
    for t in ticks(b.x0, b.span).0 {
        let (x, _) = p.px([t, 0.0]);
        line(o, (x, 0.0), (x, s), if t == 0.0 { COL_AXIS } else { COL_GRID }, 1.0, None);
    }
    for t in ticks(b.y0, b.span).0 {
        let (_, y) = p.px([0.0, t]);
        line(o, (0.0, y), (s, y), if t == 0.0 { COL_AXIS } else { COL_GRID }, 1.0, None);
    }
}

/// The plot's frame, ticks and their labels, axis names (over everything but the point labels).
fn axes(o: &mut String, p: &Plot<'_>) {
    let s = p.size;
    let b = p.bounds;
    let (xt, xdec) = ticks(b.x0, b.span);
    let (yt, ydec) = ticks(b.y0, b.span);
    let (xn, yn) = p.view.axis_names();
    let _ = writeln!(o, r#"<rect x="0" y="0" width="{0}" height="{0}" fill="none" stroke="{COL_FRAME}"/>"#, f(s));
    for &t in &xt {
        let (x, _) = p.px([t, 0.0]);
        line(o, (x, s), (x, s + 4.0), COL_MUTED, 1.0, None);
        text(o, x, s + 15.0, 10.0, "normal", "middle", COL_MUTED, &tick_label(t, xdec));
    }
    for &t in &yt {
        let (_, y) = p.px([0.0, t]);
        line(o, (-4.0, y), (0.0, y), COL_MUTED, 1.0, None);
        text(o, -6.0, y + 3.5, 10.0, "normal", "end", COL_MUTED, &tick_label(t, ydec));
    }
    halo_text(o, s + 4.0, s + 4.0, 12.0, "start", COL_MUTED, xn, true);
    halo_text(o, -7.0, -4.0, 12.0, "end", COL_MUTED, yn, true);
}

/// The support points on A and B; in a world-only plot also the directions they were asked along.
fn world_supports(o: &mut String, p: &Plot<'_>, a: P3, b: P3, d: P3) {
    if p.frame == Frame::World {
        let nd = [-d[0], -d[1], -d[2]];
        arrow(o, p, p.pt(a), d, 0.12 * p.size, COL_W, 1.5, "d");
        arrow(o, p, p.pt(b), nd, 0.12 * p.size, COL_W, 1.5, "−d");
    }
    dot(o, p.pt(a), 3.5, "#ffffff", COL_A, 2.0);
    dot(o, p.pt(b), 3.5, "#ffffff", COL_B, 2.0);
}

/// The line (2D) through w across d: all of A − B lies behind it.
fn supporting_line(o: &mut String, p: &Plot<'_>, w: P3, d: P3) {
    if p.drawing.dim != 2 {
        return;
    }
    let Some(((ux, uy), _)) = p.dir(d) else { return };
    let (x, y) = p.pt(w);
    let l = 2.0 * p.size;
    line(o, (x - uy * l, y + ux * l), (x + uy * l, y - ux * l), COL_W, 1.0, Some("6 4"));
}

fn origin(o: &mut String, p: &Plot<'_>) {
    let (x, y) = p.pt([0.0; 3]);
    line(o, (x - 7.0, y), (x + 7.0, y), COL_TEXT, 1.5, None);
    line(o, (x, y - 7.0), (x, y + 7.0), COL_TEXT, 1.5, None);
    dot(o, (x, y), 3.0, "#ffffff", COL_TEXT, 1.5);
    label_at(p, (x, y), (-8.0, 14.0), COL_TEXT, "O");
}

/// A simplex: its edges (and, when `fill` > 0, its faces shaded).
fn simplex_edges(o: &mut String, p: &Plot<'_>, pts: &[P3], col: &str, width: f64, dash: Option<&str>, fill: f64) {
    let px: Vec<(f64, f64)> = pts.iter().map(|q| p.pt(*q)).collect();
    if fill > 0.0 && px.len() >= 3 {
        for i in 0..px.len() {
            for j in i + 1..px.len() {
                for k in j + 1..px.len() {
                    let _ = writeln!(
                        o,
                        r#"<path d="{}" fill="{col}" fill-opacity="{}" stroke="none"/>"#,
                        path(&[px[i], px[j], px[k]], true),
                        f(fill)
                    );
                }
            }
        }
    }
    for i in 0..px.len() {
        for j in i + 1..px.len() {
            line(o, px[i], px[j], col, width, dash);
        }
    }
}

fn outline_id(p: &Plot<'_>, name: &str) -> String {
    format!("plot-{}-{}-{name}", p.row, p.index)
}

/// A part of a plot drawn once in the `<defs>`.
fn place(o: &mut String, p: &Plot<'_>, name: &str) {
    let _ = writeln!(o, r##"<use href="#{}"/>"##, outline_id(p, name));
}

/// A convex outline: filled polygon, segment or point.
fn shape(o: &mut String, p: &Plot<'_>, pts: &[P2], col: &str, fill: f64, width: f64, dash: Option<&str>) {
    let px: Vec<(f64, f64)> = pts.iter().map(|q| p.px(*q)).collect();
    match px.len() {
        0 => {}
        1 => dot(o, px[0], 3.0, col, col, 1.0),
        2 => line(o, px[0], px[1], col, width.max(2.0), dash),
        _ => {
            let dash = dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default();
            let _ = writeln!(
                o,
                r#"<path d="{}" fill="{col}" fill-opacity="{}" stroke="{col}" stroke-width="{}" stroke-linejoin="round"{dash}/>"#,
                path(&px, true),
                f(fill),
                f(width)
            );
        }
    }
}

/// An arrow from `from` (pixels) along world direction `d`, `len` pixels long at full length (shorter when the
/// view sees `d` foreshortened), with a label at its tip.
#[allow(clippy::too_many_arguments)]
fn arrow(o: &mut String, p: &Plot<'_>, from: (f64, f64), d: P3, len: f64, col: &'static str, width: f64, name: &str) {
    let Some(((ux, uy), seen)) = p.dir(d) else { return };
    let len = len * seen;
    if len < 6.0 {
        return;
    }
    let tip = (from.0 + ux * len, from.1 + uy * len);
    let head = 9.0;
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    line(o, from, base, col, width, None);
    let (nx, ny) = (-uy * head * 0.45, ux * head * 0.45);
    let _ = writeln!(
        o,
        r#"<path d="{}" fill="{col}" stroke="none"/>"#,
        path(&[tip, (base.0 + nx, base.1 + ny), (base.0 - nx, base.1 - ny)], true)
    );
    label_at(p, tip, (ux * 9.0 - 3.0, uy * 9.0 + 4.0), col, name);
}

pub(super) fn dot(o: &mut String, at: (f64, f64), r: f64, fill: &str, stroke: &str, width: f64) {
    let _ = writeln!(
        o,
        r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
        f(at.0),
        f(at.1),
        f(r),
        f(width)
    );
}

pub(super) fn line(o: &mut String, a: (f64, f64), b: (f64, f64), col: &str, width: f64, dash: Option<&str>) {
    let dash = dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default();
    let _ = writeln!(
        o,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{col}" stroke-width="{}" stroke-linecap="round"{dash}/>"#,
        f(a.0),
        f(a.1),
        f(b.0),
        f(b.1),
        f(width)
    );
}

pub(super) fn path(pts: &[(f64, f64)], close: bool) -> String {
    let mut s = String::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        let _ = write!(s, "{}{},{}", if i == 0 { "M" } else { " L" }, f(*x), f(*y));
    }
    if close {
        s.push_str(" Z");
    }
    s
}

fn centroid(pts: &[(f64, f64)]) -> (f64, f64) {
    if pts.is_empty() {
        return (0.0, 0.0);
    }
    let n = pts.len() as f64;
    (pts.iter().map(|p| p.0).sum::<f64>() / n, pts.iter().map(|p| p.1).sum::<f64>() / n)
}

/// Where to put a point's label: away from `from` (pixels), up and to the right when they coincide.
fn away(at: (f64, f64), from: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (at.0 - from.0, at.1 - from.1);
    let l = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if l > 1.0 { (dx / l, dy / l) } else { (FRAC_1_SQRT_2, -FRAC_1_SQRT_2) };
    // Text is anchored at its start and baseline: shift so the label's middle sits along the direction.
    (ux * 12.0 - 4.0, uy * 12.0 + 4.0)
}

/// A label for a point (pixels), wanted at offset `off` from it (of its text's start and baseline); placed with
/// the plot's other labels once the plot is drawn ([`place_labels`]), and written over its marks.
fn label_at(p: &Plot<'_>, at: (f64, f64), off: (f64, f64), col: &'static str, s: &str) {
    p.labels.borrow_mut().push(Label { at, off, col, text: s.to_string() });
}

/// The size of a point label's text.
const LABEL_FONT: f64 = 12.0;

/// A point label waiting for its place.
struct Label {
    /// The point it names, in the plot's pixels.
    at: (f64, f64),
    /// Where it would like its text's start and baseline, from `at`.
    off: (f64, f64),
    col: &'static str,
    text: String,
}

/// Where a point label went, in its plot's pixels: the text's start and baseline, and the box its glyphs and their
/// white halo cover.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelBox {
    pub text: String,
    pub x: f64,
    pub y: f64,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl LabelBox {
    fn new(text: &str, x: f64, y: f64) -> Self {
        // Bold text: glyphs rise 0.76 em above the baseline and fall 0.24 below; the halo adds 1.5 px all round.
        let (w, h) = (text_width(text, LABEL_FONT), LABEL_FONT);
        LabelBox {
            text: text.to_string(),
            x,
            y,
            x0: x - 1.5,
            y0: y - 0.76 * h - 1.5,
            x1: x + w + 1.5,
            y1: y + 0.24 * h + 1.5,
        }
    }

    /// The area two boxes share (0 when they only touch).
    pub fn overlap(&self, o: &LabelBox) -> f64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    }

    /// True if the box comes within `r` pixels of the point.
    fn near(&self, p: (f64, f64), r: f64) -> bool {
        p.0 > self.x0 - r && p.0 < self.x1 + r && p.1 > self.y0 - r && p.1 < self.y1 + r
    }
}

/// The advance of a label's text in pixels: DejaVu Sans Bold's widths, in ems, by class of character (a little
/// generous, so that boxes that do not meet here do not meet on screen).
fn text_width(s: &str, size: f64) -> f64 {
    let em = |c: char| match c {
        ' ' => 0.35,
        'i' | 'j' | 'l' | '|' | '.' | ',' | '(' | ')' => 0.4,
        'm' | 'w' | 'M' | 'W' => 1.05,
        '\u{2080}'..='\u{2089}' => 0.48,
        '\u{2212}' | '=' | '+' => 0.85,
        'A'..='Z' => 0.82,
        _ => 0.72,
    };
    s.chars().map(em).sum::<f64>() * size
}

/// Places a plot's labels in order (earlier labels have the first choice): each at its wanted offset if the spot
/// is free, else at the first free spot on rings of growing gap around its point (12 directions, nearest to the
/// wanted one first). A spot is free when its box stays inside the plot, meets no label placed before, and covers
/// no labelled point (its own included). Should every spot be taken, the one overlapping least is used.
fn place_labels(labels: &[Label], size: f64) -> Vec<LabelBox> {
    let points: Vec<(f64, f64)> = labels.iter().map(|l| l.at).collect();
    let mut placed: Vec<LabelBox> = Vec::with_capacity(labels.len());
    for l in labels {
        let w = text_width(&l.text, LABEL_FONT);
        let (hw, hh) = (w / 2.0 + 1.5, 0.5 * LABEL_FONT + 1.5);
        // The wanted direction: from the point to the middle of the wanted box.
        let want = (l.off.0 + w / 2.0, l.off.1 - 0.26 * LABEL_FONT);
        let base = want.1.atan2(want.0);
        let mut candidates = vec![(l.at.0 + l.off.0, l.at.1 + l.off.1)];
        for gap in [3.0, 7.0, 12.0, 18.0, 26.0, 36.0, 48.0] {
            for k in 0..12 {
                // 0, +30°, −30°, +60°, … from the wanted direction.
                let turn = ((k + 1) / 2) as f64 * if k % 2 == 1 { 1.0 } else { -1.0 };
                let (sn, cs) = (base + turn * std::f64::consts::PI / 6.0).sin_cos();
                // The box's middle `gap` beyond the box's own reach from its middle toward the point.
                let reach = (hw / cs.abs().max(1e-9)).min(hh / sn.abs().max(1e-9));
                let (mx, my) = (l.at.0 + (reach + gap) * cs, l.at.1 + (reach + gap) * sn);
                candidates.push((mx - w / 2.0, my + 0.26 * LABEL_FONT));
            }
        }
        let mut best: Option<(f64, LabelBox)> = None;
        for (x, y) in candidates {
            let x = x.min(size - w - 2.0).max(2.0);
            let y = y.min(size - 3.0).max(13.0);
            let b = LabelBox::new(&l.text, x, y);
            let mut cost: f64 = placed.iter().map(|q| q.overlap(&b)).sum();
            cost += points.iter().filter(|&&p| b.near(p, 2.5)).count() as f64 * 40.0;
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, b));
            }
            if cost == 0.0 {
                break;
            }
        }
        placed.extend(best.map(|(_, b)| b));
    }
    placed
}

#[allow(clippy::too_many_arguments)]
pub(super) fn halo_text(o: &mut String, x: f64, y: f64, size: f64, anchor: &str, col: &str, s: &str, italic: bool) {
    let style = if italic { r#" font-style="italic""# } else { "" };
    let _ = writeln!(
        o,
        r##"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="{anchor}" fill="{col}" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"{style}>{}</text>"##,
        f(x),
        f(y),
        f(size),
        esc(s)
    );
}

#[allow(clippy::too_many_arguments)]
pub(super) fn text(o: &mut String, x: f64, y: f64, size: f64, weight: &str, anchor: &str, col: &str, s: &str) {
    let weight = if weight == "normal" { String::new() } else { format!(r#" font-weight="{weight}""#) };
    let anchor = if anchor == "start" { String::new() } else { format!(r#" text-anchor="{anchor}""#) };
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}"{weight}{anchor} fill="{col}">{}</text>"#,
        f(x),
        f(y),
        f(size),
        esc(s)
    );
}

/// A kind of mark, as the legend shows it.
#[derive(Clone, Copy)]
enum Mark {
    Shape(&'static str, f64, Option<&'static str>),
    Origin,
    Simplex,
    Before,
    Support,
    Direction,
    SupportingLine,
    Closest,
    ShapeSupports,
    NearestFace,
    Answer,
}

fn mark(o: &mut String, m: Mark, x: f64, y: f64) {
    match m {
        Mark::Shape(col, fill, dash) => {
            let dash = dash.map(|d| format!(r#" stroke-dasharray="{d}""#)).unwrap_or_default();
            let _ = writeln!(
                o,
                r#"<rect x="{}" y="{}" width="24" height="14" rx="2" fill="{col}" fill-opacity="{}" stroke="{col}" stroke-width="1.6"{dash}/>"#,
                f(x + 2.0),
                f(y - 7.0),
                f(fill)
            );
        }
        Mark::Origin => {
            line(o, (x + 7.0, y), (x + 21.0, y), COL_TEXT, 1.5, None);
            line(o, (x + 14.0, y - 7.0), (x + 14.0, y + 7.0), COL_TEXT, 1.5, None);
            dot(o, (x + 14.0, y), 3.0, "#ffffff", COL_TEXT, 1.5);
        }
        Mark::Simplex => {
            let t = [(x + 2.0, y + 6.0), (x + 26.0, y + 6.0), (x + 14.0, y - 7.0)];
            let _ = writeln!(
                o,
                r#"<path d="{}" fill="{COL_SIMPLEX}" fill-opacity="0.14" stroke="{COL_SIMPLEX}" stroke-width="2.2" stroke-linejoin="round"/>"#,
                path(&t, true)
            );
        }
        Mark::Before => line(o, (x + 2.0, y), (x + 26.0, y), COL_SIMPLEX, 1.2, Some("4 3")),
        Mark::Support => dot(o, (x + 14.0, y), 4.5, COL_W, "#ffffff", 1.2),
        Mark::Direction => {
            line(o, (x + 2.0, y), (x + 18.0, y), COL_W, 2.0, None);
            let _ = writeln!(
                o,
                r#"<path d="{}" fill="{COL_W}" stroke="none"/>"#,
                path(&[(x + 27.0, y), (x + 18.0, y - 4.0), (x + 18.0, y + 4.0)], true)
            );
        }
        Mark::SupportingLine => line(o, (x + 2.0, y), (x + 26.0, y), COL_W, 1.0, Some("6 4")),
        Mark::NearestFace => line(o, (x + 2.0, y), (x + 26.0, y), COL_W, 2.6, None),
        Mark::Closest => {
            line(o, (x + 2.0, y), (x + 14.0, y), COL_V, 1.0, Some("2 2"));
            dot(o, (x + 14.0, y), 3.5, COL_V, "#ffffff", 1.2);
        }
        Mark::ShapeSupports => {
            dot(o, (x + 8.0, y), 3.5, "#ffffff", COL_A, 2.0);
            dot(o, (x + 20.0, y), 3.5, "#ffffff", COL_B, 2.0);
        }
        Mark::Answer => {
            line(o, (x + 4.0, y), (x + 24.0, y), COL_ANSWER, 2.0, None);
            dot(o, (x + 4.0, y), 3.5, COL_A, "#ffffff", 1.5);
            dot(o, (x + 24.0, y), 3.5, COL_B, "#ffffff", 1.5);
        }
    }
}

/// The legend: one swatch per kind of mark, drawn as in the plots, flowing in rows. Returns the y below it.
fn legend(o: &mut String, d: &Drawing, top: f64, width: f64) -> f64 {
    let mut items: Vec<(Mark, &str)> = vec![
        (Mark::Shape(COL_A, 0.16, None), "A"),
        (Mark::Shape(COL_B, 0.16, None), "B"),
        (Mark::Shape(COL_DIFF, 0.10, None), "A − B (Minkowski difference)"),
    ];
    if d.radii.0 > 0.0 || d.radii.1 > 0.0 {
        items.push((Mark::Shape(COL_DIFF, 0.0, Some("5 3")), "A − B of the cores (the steps run on them)"));
    }
    items.push((Mark::Origin, "origin O"));
    items.push((Mark::Simplex, "simplex w₀, w₁, … after the step"));
    items.push((Mark::Before, "simplex before the step"));
    items.push((Mark::Support, "support point w = s_A(d) − s_B(−d)"));
    items.push((Mark::Direction, "search direction d"));
    if d.dim == 2 {
        items.push((Mark::SupportingLine, "line through w across d: A − B lies behind it"));
    }
    items.push((Mark::Closest, "v: the simplex's point nearest O"));
    items.push((Mark::ShapeSupports, "s_A(d) on A, s_B(−d) on B"));
    if !d.epa.is_empty() {
        items.push((Mark::Simplex, "EPA polytope (inside A − B, around O)"));
        items.push((Mark::NearestFace, "its face nearest O, normal n"));
    }
    if d.kind != Kind::Intersect {
        items.push((Mark::Answer, "answer: points a, b and normal n"));
    }
    let row_h = 22.0;
    let mut x = MARGIN;
    let mut y = top + row_h / 2.0;
    o.push_str("<g data-legend=\"\">\n");
    for (m, label) in items {
        let w = 34.0 + label.chars().count() as f64 * 12.0 * 0.56 + 18.0;
        if x + w > width - MARGIN && x > MARGIN {
            x = MARGIN;
            y += row_h;
        }
        mark(o, m, x, y);
        text(o, x + 34.0, y + 4.0, 12.0, "normal", "start", COL_TEXT, label);
        x += w;
    }
    o.push_str("</g>\n");
    y + row_h / 2.0
}

/// The caption lines of a panel (before wrapping).
fn caption(d: &Drawing, panel: Panel<'_>) -> Vec<String> {
    let dim = d.dim;
    let w0 = format!("w{}", subscript(0));
    match panel {
        Panel::Start => {
            let st = &d.start;
            let mut lines = vec![
                format!("d{} = {}: {}", subscript(0), vec(st.direction, dim), st.how),
                format!("{w0} = s_A(d{0}) − s_B(−d{0}) = {1}", subscript(0), vec(st.support, dim)),
            ];
            if let Some((a, b)) = st.parts {
                lines.push(format!("   = A{} − B{}", vec(a, dim), vec(b, dim)));
            }
            lines.push(format!("the simplex is {{{w0}}} and v = {w0}; each step searches along d = −v"));
            lines
        }
        Panel::Step(st) => {
            let k = subscript(st.iteration);
            let names: Vec<&str> = st.simplex.iter().map(|(_, n)| n.as_str()).collect();
            let v = st.closest;
            let vlen = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            vec![
                format!("d = −v = {}", vec(st.direction, dim)),
                format!("w{k} = s_A(d) − s_B(−d) = {}", vec(st.support, dim)),
                format!("   = A{} − B{}", vec(st.support_a, dim), vec(st.support_b, dim)),
                // No-break spaces keep "v = (…)" and "|v| = …" whole when the line wraps.
                format!(
                    "simplex {{{}}} · v\u{a0}=\u{a0}{} · |v|\u{a0}=\u{a0}{}",
                    names.join(",\u{a0}"),
                    vec(v, dim),
                    num(vlen)
                ),
                decision_text(st.decision, dim).1.to_string(),
            ]
        }
        Panel::Epa(e) => {
            let mut lines = Vec::new();
            let shown_before =
                epa_panels(d).take_while(|x| x.iteration < e.iteration).last().map_or(0, |x| x.iteration);
            if e.iteration > shown_before + 1 {
                lines.push(format!("(EPA iterations {}–{} are not drawn)", shown_before + 1, e.iteration - 1));
            }
            lines.push(format!(
                "{} vertices · nearest face at {} along n\u{a0}=\u{a0}{}",
                e.vertices.len(),
                num(e.lower),
                vec(e.normal, dim)
            ));
            lines.push(format!("w = s_A(n) − s_B(−n) = {} · n·w = {}", vec(e.support, dim), num(e.support_value())));
            lines.push(format!("depth between {} and {}", num(e.lower), num(e.upper)));
            lines.push(epa_decision_text(e.decision).1.to_string());
            lines
        }
        Panel::Answer => d.answer.lines.clone(),
    }
}

pub(super) fn wrap_all(lines: &[String], chars: usize) -> Vec<String> {
    lines.iter().flat_map(|l| wrap(l, chars)).collect()
}

/// Splits a line at spaces into lines of at most `chars` characters (a longer word stays whole); continuation
/// lines are indented.
pub(super) fn wrap(s: &str, chars: usize) -> Vec<String> {
    let body = s.trim_start_matches(' ');
    let indent = &s[..s.len() - body.len()];
    let mut out: Vec<String> = Vec::new();
    let mut cur = indent.to_string();
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        let len = cur.chars().count();
        if len > indent.len() && len + 1 + word.chars().count() > chars {
            out.push(std::mem::replace(&mut cur, format!("{indent}   ")));
        } else if len > indent.len() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

/// Cuts a line without spaces to rely on (JSON) after commas, into lines of at most `chars` characters where it
/// can.
pub(super) fn wrap_after_commas(s: &str, chars: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for piece in s.split_inclusive(',') {
        if !cur.is_empty() && cur.chars().count() + piece.chars().count() > chars {
            out.push(std::mem::take(&mut cur));
        }
        cur.push_str(piece);
    }
    out.push(cur);
    out
}

/// A pixel coordinate: two decimals at most, no trailing zeros, no negative zero.
pub(super) fn f(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
