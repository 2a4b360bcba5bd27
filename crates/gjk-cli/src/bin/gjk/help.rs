//! The help texts: one per subcommand, and `gjk help QUERY`, which prints a query's input and output fields as
//! docs/cli.md documents them (the text is taken from that file at build time, so the two cannot drift).

/// docs/cli.md, as it was when this binary was built.
const CLI_MD: &str = include_str!("../../../../../docs/cli.md");

pub const MAIN: &str = "gjk: convex collision queries (GJK/EPA) on JSON Lines, pictures of their steps, and a live page

usage: gjk COMMAND [OPTIONS]
  query [FILE]       answer JSON Lines queries from FILE (or stdin), one output line per input line
  demo               replay the textbook 2D example step by step, then query every shape family
  draw LINE          draw every GJK (and EPA) step of one distance, intersect or penetration query as SVG
  serve              serve the interactive page on 127.0.0.1
  help [TOPIC]       this text; `gjk help QUERY` for a query's fields (intersect, distance, penetration,
                     contact, ray_cast, shape_cast), `gjk help shapes`, `status`, `errors`, `limits`
options: -h, --help (also after any command), -V, --version
The query format is documented in docs/cli.md.";

pub const QUERY: &str = "usage: gjk query [OPTIONS] [FILE]
Answers the JSON Lines of FILE (or stdin; `-` is stdin too): one output line per non-blank input line, in order,
with the line's id. A line that cannot be answered gets {\"id\", \"error\"} and the next lines go on. Answers are
written as soon as the input has nothing more buffered, so a client may send one line and wait for its answer.
  --max-line-bytes N   longest line answered, in bytes (default 16777216 = 16 MiB); a longer line gets an
                       error line and is skipped without being held in memory
  --mesh-dir DIR       the folder `mesh` shapes are read from (default: the working directory); a path that
                       leads outside it (`..`, an absolute path, a symbolic link) is refused
  --max-mesh-bytes N   largest mesh file read, in bytes (default 67108864 = 64 MiB)
  -h, --help           this text
See `gjk help QUERY` for each query's fields, docs/cli.md for the whole format.";

pub const DEMO: &str = "usage: gjk demo
Replays the textbook 2D example step by step (the support points, the simplex, each decision), then prints a
distance query for each shape family and a penetration with its contact manifold.";

pub const DRAW: &str = "usage: gjk draw [--out FILE.svg] [--png FILE.png] (QUERY_JSON_LINE | - | --example NAME)
Draws every GJK step (and EPA iteration) of one query as an SVG sheet of small multiples.
  QUERY_JSON_LINE  one distance, intersect or penetration query in the gjk query format (docs/cli.md);
                   - reads it from stdin
  --example NAME   a built-in example: textbook, circle-box, boxes-penetrating, capsule-box-3d
  --out FILE.svg   write the SVG there (default: stdout)
  --png FILE.png   also write the picture as PNG (needs a gjk built with `--features png`)
A 2D query on a trimesh, compound, heightfield or halfspace is drawn as its tree walk instead: the leaves, the
tree nodes entered, each leaf pair run with its closest points, and the answer (3D ones are refused).
Shapes are drawn as their outlines (256 support directions per view, whatever their size), a long shape
description is cut, at most 4096 leaves of a composite are outlined (and those run), and a picture is never
drawn from non-finite coordinates.";

pub const SERVE: &str = "usage: gjk serve [--port N] [--dir DIR] [--timeout SECONDS] [--max-connections N]
Serves the interactive page (2D at /, 3D at /3d.html: the library compiled to WebAssembly, built into this
binary) on 127.0.0.1 only.
  --port N              port on 127.0.0.1 (default 8737; 0 picks a free one)
  --dir DIR             serve the page from this folder instead (e.g. web/ of the source tree, after editing it)
  --timeout SECONDS     time allowed for one request, from connecting to the end of the answer (default 10)
  --max-connections N   connections served at once (default 32); more are answered 503 at once
Only GET and HEAD of the page's files are served (from a folder: files inside it; a symbolic link that leads out
of it is not), to requests naming 127.0.0.1 or localhost in their Host header; a request's head is at most 8 KiB
and 32 headers. The page's WebAssembly module is prebuilt (web/pkg); `bash web/build.sh` rebuilds it.";

/// The queries `gjk help` knows.
pub const QUERIES: [&str; 6] = ["intersect", "distance", "penetration", "contact", "ray_cast", "shape_cast"];

/// The help on a topic: a query's fields, `shapes`, `limits`; `None` if there is no such topic.
pub fn topic(name: &str) -> Option<String> {
    match name {
        "query" => Some(QUERY.to_string()),
        "demo" => Some(DEMO.to_string()),
        "draw" => Some(DRAW.to_string()),
        "serve" => Some(SERVE.to_string()),
        "shapes" | "shape" => section("**SHAPE**", "**POSE**").map(|s| s.trim_end().to_string()),
        "limits" => section("## Limits", "## ").map(|s| s.trim_end().to_string()),
        "status" | "statuses" => section("## Status", "## ").map(|s| s.trim_end().to_string()),
        "errors" => section("## Errors", "## ").map(|s| s.trim_end().to_string()),
        q if QUERIES.contains(&q) => Some(query_fields(q)),
        _ => None,
    }
}

/// The text of docs/cli.md from the line starting with `from` to the next line starting with `to`.
fn section(from: &str, to: &str) -> Option<String> {
    let mut lines = CLI_MD.lines().skip_while(|l| !l.starts_with(from));
    let first = lines.next()?;
    let rest: Vec<&str> = lines.take_while(|l| !l.starts_with(to)).collect();
    Some(format!("{first}\n{}", rest.join("\n")))
}

/// A query's input line (from docs/cli.md's "Input" block) and its output paragraph (from "Output").
fn query_fields(q: &str) -> String {
    let input_block = section("## Input", "## Output").unwrap_or_default();
    let mut input: Vec<&str> = Vec::new();
    let mut in_line = false;
    for line in input_block.lines() {
        if line.starts_with("{\"id\"") {
            in_line = line.contains(&format!("\"{q}\""));
        } else if !line.starts_with(' ') {
            in_line = false;
        }
        if in_line {
            input.push(line);
        }
    }
    let optional: Vec<&str> =
        input_block.lines().skip_while(|l| !l.starts_with("Optional fields")).take_while(|l| !l.is_empty()).collect();
    let output_block = section("## Output", "## ").unwrap_or_default();
    let mut output: Vec<&str> = Vec::new();
    let mut in_query = false;
    for line in output_block.lines() {
        // A query's paragraph starts with "`name`:" and runs to the next one (or to the statuses).
        if let Some(rest) = line.strip_prefix('`') {
            let name = rest.split('`').next().unwrap_or("");
            if rest[name.len()..].starts_with("`:") {
                in_query = name == q;
            } else if name == "status" {
                in_query = false;
            }
        }
        if in_query {
            output.push(line);
        }
    }
    let trim = |v: Vec<&str>| v.join("\n").trim().to_string();
    format!(
        "{q}\n\ninput:\n{}\n\n{}\n\noutput:\n{}\n\nShapes: gjk help shapes. The whole format: docs/cli.md.",
        trim(input),
        trim(optional),
        trim(output)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_has_its_input_and_output_fields() {
        for q in QUERIES {
            let t = topic(q).unwrap();
            let (input, output) = t.split_once("output:").unwrap();
            assert!(input.contains("\"query\": ") && input.contains(q), "{q}: {t}");
            assert!(output.contains(&format!("`{q}`")), "{q}: {t}");
            assert!(output.contains("\"status\"") || output.contains("status"), "{q}: {t}");
        }
        assert!(topic("shape_cast").unwrap().contains("angular_velocity_a"));
        assert!(topic("distance").unwrap().contains("point_b − point_a = distance · normal"));
        assert!(topic("shapes").unwrap().contains("minkowski_sum"));
        assert!(topic("limits").unwrap().contains("max-line-bytes"));
        assert!(topic("status").unwrap().contains("max_iterations"));
        assert!(topic("errors").unwrap().contains("never the file's contents"));
        assert!(topic("teleport").is_none());
    }
}
