//! The SVG rasterised with resvg, at twice its size so the captions stay sharp.

use resvg::{tiny_skia, usvg};

/// Pixels per SVG unit.
const SCALE: f32 = 2.0;

/// Renders `svg` to a PNG file. Text is drawn with the system's fonts (the SVG asks for DejaVu Sans first).
pub fn write(svg: &str, path: &str) -> Result<(), String> {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    if options.fontdb.is_empty() {
        eprintln!("gjk draw: no system fonts found: the PNG will have no text");
    }
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the SVG back: {e}"))?;
    let size = tree.size().to_int_size().scale_by(SCALE).ok_or("picture too small")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("picture too large")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(SCALE, SCALE), &mut pixmap.as_mut());
    pixmap.save_png(path).map_err(|e| format!("cannot write {path}: {e}"))
}
