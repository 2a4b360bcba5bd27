//! The SVG rasterised with resvg (feature `png`), at twice its size so the captions stay sharp, but never larger
//! than [`MAX_PIXELS`]: a sheet too large for that is drawn at a smaller scale.

use resvg::{tiny_skia, usvg};

/// Pixels per SVG unit, when the picture is small enough.
const SCALE: f32 = 2.0;

/// The largest PNG drawn: 32 megapixels (128 MB of pixels in memory).
const MAX_PIXELS: f32 = 32.0 * 1024.0 * 1024.0;

/// Renders `svg` to a PNG file. Text is drawn with the system's fonts (the SVG asks for DejaVu Sans first).
pub fn write(svg: &str, path: &str) -> Result<(), String> {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    if options.fontdb.is_empty() {
        eprintln!("gjk draw: no system fonts found: the PNG will have no text");
    }
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the SVG back: {e}"))?;
    let area = tree.size().width() * tree.size().height();
    let scale = SCALE.min((MAX_PIXELS / area.max(1.0)).sqrt());
    if scale < SCALE {
        eprintln!("gjk draw: the picture is large: the PNG is drawn at {scale:.2} pixels per unit instead of {SCALE}");
    }
    let size = tree.size().to_int_size().scale_by(scale).ok_or("picture too small")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("picture too large")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.save_png(path).map_err(|e| format!("cannot write {path}: {e}"))
}
