//! The SVG of a composite query's walk ([`super::walk`]): one plot of the plane with both shapes' leaves, the tree
//! nodes entered as dashed boxes, every leaf pair run joined by its closest points, and the answer; above it the
//! query, the answer line and a legend; below it the walk in numbers and the runs in order.
//!
//! Like the step sheet ([`super::render`]), whose drawing primitives it uses, the bytes depend on nothing but the
//! drawing.

use std::fmt::Write;

use super::model::{num, vec, Kind, P2};
use super::render::{
    dot, esc, f, line, path, text, tick_label, ticks, wrap, wrap_after_commas, CAPTION_FONT, CAPTION_LINE, COL_A,
    COL_ANSWER, COL_AXIS, COL_B, COL_FRAME, COL_GRID, COL_MUTED, COL_TEXT, COL_V, FONT, LEFT, MARGIN, MONO, PAD,
    PANEL_TITLE, RIGHT, TOP,
};
use super::walk::{RunView, SideView, WalkDrawing, MAX_LEAVES};

/// The plot's side in pixels.
const SIZE: f64 = 560.0;
/// Runs listed under the plot (a long walk lists its first ones and says how many more there were).
const MAX_LISTED_RUNS: usize = 12;

/// The plot's window onto the plane: its lower-left corner and side, and the pixels per unit.
struct Window {
    x0: f64,
    y0: f64,
    span: f64,
}

impl Window {
    /// Everything drawn, with a margin, made square (a half-space's line is drawn across whatever this shows).
    fn around(d: &WalkDrawing) -> Self {
        let sides = [&d.a, &d.b];
        let mut pts: Vec<P2> =
            sides.iter().flat_map(|s| s.leaves.iter().flat_map(|(_, o)| o.iter().copied())).collect();
        pts.extend(sides.iter().flat_map(|s| s.nodes.iter().flat_map(|(_, c)| c.iter().copied())));
        pts.extend(sides.iter().filter_map(|s| s.plane.map(|(p, _)| p)));
        pts.extend(d.runs.iter().flat_map(|r| r.points.iter().flat_map(|(a, b)| [*a, *b])));
        pts.extend([d.answer.point_a, d.answer.point_b].into_iter().flatten().map(|p| [p[0], p[1]]));
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for p in &pts {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if lo[0] > hi[0] {
            (lo, hi) = ([0.0; 2], [0.0; 2]);
        }
        let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        let mut span = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        if span.is_nan() || span <= 1e-9 * (1.0 + c[0].abs().max(c[1].abs())) {
            // A lone half-space, or everything in one point: a unit window around it.
            span = 1.0;
        }
        span *= 1.16;
        Window { x0: c[0] - span / 2.0, y0: c[1] - span / 2.0, span }
    }

    /// Pixel position of a point (plot-local, y down).
    fn px(&self, p: P2) -> (f64, f64) {
        let k = SIZE / self.span;
        ((p[0] - self.x0) * k, SIZE - (p[1] - self.y0) * k)
    }

    /// The window's corners in the plane, counter-clockwise.
    fn corners(&self) -> [P2; 4] {
        let (x1, y1) = (self.x0 + self.span, self.y0 + self.span);
        [[self.x0, self.y0], [x1, self.y0], [x1, y1], [self.x0, y1]]
    }
}

/// Writes the whole SVG.
pub fn svg(d: &WalkDrawing) -> String {
    let w = Window::around(d);
    let panel_w = 2.0 * PAD + LEFT + SIZE + RIGHT;
    let width = 2.0 * MARGIN + panel_w;
    let chars = ((panel_w - 2.0 * PAD) / (CAPTION_FONT * 0.56)) as usize;
    let caption: Vec<String> = caption(d).iter().flat_map(|l| wrap(l, chars)).collect();

    let mut head = String::new();
    let mut y = MARGIN - 8.0;
    for l in wrap(&d.title, ((width - 2.0 * MARGIN) / (20.0 * 0.62)) as usize) {
        y += 26.0;
        text(&mut head, MARGIN, y, 20.0, "bold", "start", COL_TEXT, l.trim_start());
    }
    y += 8.0;
    // A shape's JSON has no spaces to break at: it is cut after commas.
    for l in d.about.iter().flat_map(|l| wrap_after_commas(l, ((width - 2.0 * MARGIN) / (12.0 * 0.6)) as usize)) {
        y += 17.0;
        text(&mut head, MARGIN, y, 12.0, "normal", "start", COL_MUTED, &l);
    }
    let answer = format!("gjk query answers: {}", d.answer_json);
    for l in wrap_after_commas(&answer, ((width - 2.0 * MARGIN) / (11.0 * 0.61)) as usize) {
        y += 16.0;
        let _ = writeln!(
            head,
            r#"<text x="{}" y="{}" font-family="{MONO}" font-size="11" fill="{COL_MUTED}">{}</text>"#,
            f(MARGIN),
            f(y),
            esc(&l)
        );
    }
    let top = legend(&mut head, d, y + 12.0, width) + 10.0;
    let panel_h = PAD + PANEL_TITLE + TOP + SIZE + 24.0 + CAPTION_LINE * caption.len() as f64 + PAD;
    let height = top + panel_h + MARGIN;

    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}" data-query="{q}" data-dim="2" data-walk="" data-runs="{n}">"#,
        w = f(width),
        h = f(height),
        q = d.kind.name(),
        n = d.runs.len()
    );
    let _ = writeln!(o, "<title>{}</title>", esc(&d.title));
    let _ = writeln!(o, r#"<desc id="gjk-answer">{}</desc>"#, esc(&d.answer_json));
    let _ = writeln!(
        o,
        r#"<defs><clipPath id="plot"><rect x="0" y="0" width="{0}" height="{0}"/></clipPath></defs>"#,
        f(SIZE)
    );
    let _ = writeln!(o, r##"<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##, f(width), f(height));
    o.push_str(&head);

    let _ = writeln!(o, r#"<g data-panel="walk" transform="translate({},{})">"#, f(MARGIN), f(top));
    let _ = writeln!(
        o,
        r##"<rect x="0" y="0" width="{}" height="{}" rx="6" fill="#ffffff" stroke="{COL_FRAME}"/>"##,
        f(panel_w),
        f(panel_h)
    );
    text(&mut o, PAD, PAD + 14.0, 14.0, "bold", "start", COL_TEXT, &format!("the walk · {}", d.answer.headline));
    let _ = writeln!(o, r#"<g transform="translate({},{})">"#, f(PAD + LEFT), f(PAD + PANEL_TITLE + TOP));
    plot(&mut o, d, &w);
    o.push_str("</g>\n");
    let mut cy = PAD + PANEL_TITLE + TOP + SIZE + 24.0;
    for l in &caption {
        cy += CAPTION_LINE;
        let body = l.trim_start_matches(' ');
        let indent = (l.len() - body.len()) as f64 * CAPTION_FONT * 0.32;
        text(&mut o, PAD + indent, cy - 3.0, CAPTION_FONT, "normal", "start", COL_TEXT, body);
    }
    o.push_str("</g>\n</svg>\n");
    o
}

/// The plot: grid, half-spaces, node boxes, leaves, runs, the answer, then the frame and its ticks.
fn plot(o: &mut String, d: &WalkDrawing, w: &Window) {
    o.push_str("<g clip-path=\"url(#plot)\">\n");
    let _ = writeln!(o, r##"<rect x="0" y="0" width="{0}" height="{0}" fill="#ffffff"/>"##, f(SIZE));
    for t in ticks(w.x0, w.span).0 {
        let (x, _) = w.px([t, 0.0]);
        line(o, (x, 0.0), (x, SIZE), if t == 0.0 { COL_AXIS } else { COL_GRID }, 1.0, None);
    }
    for t in ticks(w.y0, w.span).0 {
        let (_, y) = w.px([0.0, t]);
        line(o, (0.0, y), (SIZE, y), if t == 0.0 { COL_AXIS } else { COL_GRID }, 1.0, None);
    }
    for (side, name, col) in [(&d.a, "a", COL_A), (&d.b, "b", COL_B)] {
        if let Some((at, n)) = side.plane {
            half_plane(o, w, at, n, name, col);
        }
    }
    for (side, name, col) in [(&d.a, "a", COL_A), (&d.b, "b", COL_B)] {
        for (i, corners) in &side.nodes {
            let px: Vec<(f64, f64)> = corners.iter().map(|p| w.px(*p)).collect();
            let _ = writeln!(
                o,
                r#"<path data-node="{name}:{i}" d="{}" fill="none" stroke="{col}" stroke-opacity="0.75" stroke-width="1" stroke-dasharray="4 3"/>"#,
                path(&px, true)
            );
        }
    }
    for (side, name, col, part) in [
        (&d.a, "a", COL_A, (|r: &RunView| r.part_a) as fn(&RunView) -> Option<u32>),
        (&d.b, "b", COL_B, |r: &RunView| r.part_b),
    ] {
        leaves(o, w, side, name, col, |i| d.runs.iter().any(|r| part(r) == i));
    }
    for (k, r) in d.runs.iter().enumerate() {
        if let Some((a, b)) = r.points {
            let (pa, pb) = (w.px(a), w.px(b));
            let _ = writeln!(o, r#"<g data-run="{k}">"#);
            line(o, pa, pb, COL_V, 1.0, Some("2 2"));
            dot(o, pa, 2.2, COL_A, COL_A, 1.0);
            dot(o, pb, 2.2, COL_B, COL_B, 1.0);
            o.push_str("</g>\n");
        }
    }
    if let (Some(a), Some(b)) = (d.answer.point_a, d.answer.point_b) {
        let (pa, pb) = (w.px([a[0], a[1]]), w.px([b[0], b[1]]));
        o.push_str("<g data-answer=\"\">\n");
        line(o, pa, pb, COL_ANSWER, 2.0, None);
        if let Some(n) = d.answer.normal {
            arrow(o, pa, (n[0], -n[1]), 0.12 * SIZE, COL_ANSWER);
        }
        dot(o, pa, 4.0, COL_A, "#ffffff", 1.5);
        dot(o, pb, 4.0, COL_B, "#ffffff", 1.5);
        o.push_str("</g>\n");
    }
    o.push_str("</g>\n");
    axes(o, w);
}

/// A side's leaves: those a run used drawn strong, the others faint.
fn leaves(o: &mut String, w: &Window, side: &SideView, name: &str, col: &str, used: impl Fn(Option<u32>) -> bool) {
    for (i, outline) in &side.leaves {
        let strong = used(*i);
        let (fill, width, opacity): (f64, f64, f64) = if strong { (0.22, 2.2, 1.0) } else { (0.07, 1.0, 0.55) };
        let id = i.map_or(String::new(), |i| i.to_string());
        let px: Vec<(f64, f64)> = outline.iter().map(|p| w.px(*p)).collect();
        let _ = write!(o, r#"<g data-leaf="{name}:{id}" data-ran="{strong}" opacity="{}">"#, f(opacity));
        match px.len() {
            0 => {}
            1 => dot(o, px[0], 2.5, col, col, 1.0),
            2 => line(o, px[0], px[1], col, width.max(1.6), None),
            _ => {
                let _ = write!(
                    o,
                    r#"<path d="{}" fill="{col}" fill-opacity="{}" stroke="{col}" stroke-width="{}" stroke-linejoin="round"/>"#,
                    path(&px, true),
                    f(fill),
                    f(width)
                );
            }
        }
        o.push_str("</g>\n");
    }
}

/// A half-space: the part of the window behind its line, shaded, and the line.
fn half_plane(o: &mut String, w: &Window, at: P2, n: P2, name: &str, col: &str) {
    let side = |p: P2| (p[0] - at[0]) * n[0] + (p[1] - at[1]) * n[1];
    // The window clipped to side ≤ 0 (one Sutherland–Hodgman pass), and where its edges cross the line.
    let corners = w.corners();
    let mut inside: Vec<P2> = Vec::new();
    let mut crossings: Vec<P2> = Vec::new();
    for k in 0..4 {
        let (p, q) = (corners[k], corners[(k + 1) % 4]);
        let (sp, sq) = (side(p), side(q));
        if sp <= 0.0 {
            inside.push(p);
        }
        if (sp < 0.0) != (sq < 0.0) {
            let t = sp / (sp - sq);
            let x = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
            inside.push(x);
            crossings.push(x);
        }
    }
    let _ = writeln!(o, r#"<g data-halfspace="{name}">"#);
    if inside.len() >= 3 {
        let px: Vec<(f64, f64)> = inside.iter().map(|p| w.px(*p)).collect();
        let _ = writeln!(o, r#"<path d="{}" fill="{col}" fill-opacity="0.12" stroke="none"/>"#, path(&px, true));
    }
    if let [p, q, ..] = crossings[..] {
        line(o, w.px(p), w.px(q), col, 1.8, None);
    }
    o.push_str("</g>\n");
}

/// An arrow from `from` along the pixel direction `u` (unit), `len` pixels long.
fn arrow(o: &mut String, from: (f64, f64), u: (f64, f64), len: f64, col: &str) {
    let tip = (from.0 + u.0 * len, from.1 + u.1 * len);
    let head = 9.0;
    let base = (tip.0 - u.0 * head, tip.1 - u.1 * head);
    line(o, from, base, col, 2.0, None);
    let (nx, ny) = (-u.1 * head * 0.45, u.0 * head * 0.45);
    let _ = writeln!(
        o,
        r#"<path d="{}" fill="{col}" stroke="none"/>"#,
        path(&[tip, (base.0 + nx, base.1 + ny), (base.0 - nx, base.1 - ny)], true)
    );
}

/// The plot's frame, ticks and their labels.
fn axes(o: &mut String, w: &Window) {
    let (xt, xdec) = ticks(w.x0, w.span);
    let (yt, ydec) = ticks(w.y0, w.span);
    let _ = writeln!(o, r#"<rect x="0" y="0" width="{0}" height="{0}" fill="none" stroke="{COL_FRAME}"/>"#, f(SIZE));
    for &t in &xt {
        let (x, _) = w.px([t, 0.0]);
        line(o, (x, SIZE), (x, SIZE + 4.0), COL_MUTED, 1.0, None);
        text(o, x, SIZE + 15.0, 10.0, "normal", "middle", COL_MUTED, &tick_label(t, xdec));
    }
    for &t in &yt {
        let (_, y) = w.px([0.0, t]);
        line(o, (-4.0, y), (0.0, y), COL_MUTED, 1.0, None);
        text(o, -6.0, y + 3.5, 10.0, "normal", "end", COL_MUTED, &tick_label(t, ydec));
    }
}

/// The legend, flowing in rows from `top`; returns the y below it.
fn legend(o: &mut String, d: &WalkDrawing, top: f64, width: f64) -> f64 {
    let mut items: Vec<(&str, &str)> = vec![
        ("a", "A's leaves (strong: a run used it)"),
        ("b", "B's leaves"),
        ("node", "a tree node the walk entered (its box)"),
    ];
    if d.kind != Kind::Intersect {
        items.push(("run", "a leaf pair run: its closest points"));
        items.push(("answer", "answer: points a, b and normal n"));
    }
    if d.a.plane.is_some() || d.b.plane.is_some() {
        items.push(("half", "a half-space: the solid behind its line"));
    }
    let row_h = 22.0;
    let (mut x, mut y) = (MARGIN, top + row_h / 2.0);
    o.push_str("<g data-legend=\"\">\n");
    for (mark, label) in items {
        let w = 34.0 + label.chars().count() as f64 * 12.0 * 0.56 + 18.0;
        if x + w > width - MARGIN && x > MARGIN {
            (x, y) = (MARGIN, y + row_h);
        }
        let swatch = |o: &mut String, col: &str, fill: f64, dash: &str| {
            let _ = writeln!(
                o,
                r#"<rect x="{}" y="{}" width="24" height="14" rx="2" fill="{col}" fill-opacity="{}" stroke="{col}" stroke-width="1.6"{dash}/>"#,
                f(x + 2.0),
                f(y - 7.0),
                f(fill)
            );
        };
        match mark {
            "a" => swatch(o, COL_A, 0.22, ""),
            "b" => swatch(o, COL_B, 0.22, ""),
            "node" => swatch(o, COL_MUTED, 0.0, r#" stroke-dasharray="4 3""#),
            "half" => swatch(o, COL_A, 0.12, ""),
            "run" => {
                line(o, (x + 4.0, y), (x + 24.0, y), COL_V, 1.0, Some("2 2"));
                dot(o, (x + 4.0, y), 2.2, COL_A, COL_A, 1.0);
                dot(o, (x + 24.0, y), 2.2, COL_B, COL_B, 1.0);
            }
            _ => {
                line(o, (x + 4.0, y), (x + 24.0, y), COL_ANSWER, 2.0, None);
                dot(o, (x + 4.0, y), 3.5, COL_A, "#ffffff", 1.5);
                dot(o, (x + 24.0, y), 3.5, COL_B, "#ffffff", 1.5);
            }
        }
        text(o, x + 34.0, y + 4.0, 12.0, "normal", "start", COL_TEXT, label);
        x += w;
    }
    o.push_str("</g>\n");
    y + row_h / 2.0
}

/// The caption: each side and what the walk entered of it, the runs, the answer, and the runs in order.
fn caption(d: &WalkDrawing) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, s) in [("A", &d.a), ("B", &d.b)] {
        lines.push(match s.what {
            "convex shape" => format!("{name}: a convex shape (one leaf)"),
            "half-space" => format!("{name}: a half-space (the solid behind its line; a closed form, no tree)"),
            what => format!(
                "{name}: {what} of {} leaves · the walk entered {} of its tree's {} nodes",
                s.leaf_count,
                s.nodes.len(),
                s.node_count
            ),
        });
        if s.leaves.len() < s.leaf_count {
            lines.push(format!("  ({} leaves outlined: the first {MAX_LEAVES} and those run)", s.leaves.len()));
        }
    }
    let iterations: u64 = d.runs.iter().map(|r| u64::from(r.iterations)).sum();
    lines.push(if d.runs.is_empty() {
        "no leaf pair ran: the boxes alone decided".to_string()
    } else {
        format!("{} leaf pairs run, {iterations} iterations in all", d.runs.len())
    });
    lines.extend(d.answer.lines.iter().cloned());
    for (k, r) in d.runs.iter().enumerate().take(MAX_LISTED_RUNS) {
        let leaf = |p: Option<u32>| p.map_or("—".to_string(), |i| i.to_string());
        let found = match (r.intersecting, r.points) {
            (true, _) => "intersecting".to_string(),
            (false, Some(_)) if r.status == "above_bound" => format!("farther than {}: stopped", num(r.distance)),
            (false, Some((a, b))) => {
                format!("distance {} ({} to {})", num(r.distance), vec([a[0], a[1], 0.0], 2), vec([b[0], b[1], 0.0], 2))
            }
            (false, None) => "apart".to_string(),
        };
        let decided = if d.decided == Some(k) { " ← the answer" } else { "" };
        lines.push(format!(
            "  run {}: A leaf {} · B leaf {}: {found} ({}, {} iterations){decided}",
            k + 1,
            leaf(r.part_a),
            leaf(r.part_b),
            r.status,
            r.iterations
        ));
    }
    if d.runs.len() > MAX_LISTED_RUNS {
        lines.push(format!("  … and {} more runs", d.runs.len() - MAX_LISTED_RUNS));
    }
    lines
}
