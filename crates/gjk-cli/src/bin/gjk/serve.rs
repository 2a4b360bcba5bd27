//! `gjk serve`: builds the interactive page (the library compiled to WebAssembly, `crates/gjk-web`) if needed and
//! serves `web/` on 127.0.0.1 only.
//!
//! ```text
//! gjk serve [--port N] [--no-build] [--dir DIR]
//! ```
//!
//! The build is two steps: `cargo build -p gjk-web --release --target wasm32-unknown-unknown`, then
//! `wasm-bindgen --target web` into `web/pkg/`. What they need is installed on first use (the rustup target, and
//! `wasm-bindgen-cli` at exactly the version of the `wasm-bindgen` crate in Cargo.lock: the two must match).

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const USAGE: &str = "usage: gjk serve [--port N] [--no-build] [--dir DIR]
  --port N     port on 127.0.0.1 (default 8737; 0 picks a free one)
  --no-build   serve web/ as it is (web/pkg/ must hold a build)
  --dir DIR    the page's folder (default: web/ of this source tree)";

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The source tree this binary was built from; the page and the web crate live there.
fn workspace() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Runs `gjk serve` with the arguments after `serve`. Returns only on an error.
pub fn run(args: &[String]) -> io::Result<()> {
    let mut port: u16 = 8737;
    let mut build = true;
    let mut dir = workspace().join("web");
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |flag: &str| it.next().ok_or_else(|| io::Error::other(format!("{flag} needs a value\n{USAGE}")));
        match arg.as_str() {
            "--port" => {
                let v = value("--port")?;
                port = v.parse().map_err(|_| io::Error::other(format!("--port: not a port number: {v}")))?;
            }
            "--no-build" => build = false,
            "--dir" => dir = PathBuf::from(value("--dir")?),
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(io::Error::other(format!("unknown argument {other}\n{USAGE}"))),
        }
    }
    if build {
        build_page(&dir)?;
    }
    if !dir.join("pkg/gjk_web_bg.wasm").is_file() {
        return Err(io::Error::other(format!("{} holds no build: run gjk serve without --no-build", dir.display())));
    }
    serve(&dir, port)
}

/// Compiles `crates/gjk-web` to WebAssembly and writes its JavaScript bindings into `dir/pkg`.
fn build_page(dir: &Path) -> io::Result<()> {
    let root = workspace();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    ensure_wasm_target()?;
    let bindgen_version = locked_version(&root, "wasm-bindgen")?;
    ensure_wasm_bindgen(&cargo, &bindgen_version)?;

    eprintln!("gjk serve: building the page (cargo build -p gjk-web --release --target {WASM_TARGET})");
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    run_tool(
        Command::new(&cargo)
            .current_dir(&root)
            .args(["build", "-p", "gjk-web", "--release", "--target", WASM_TARGET])
            .env("CARGO_TARGET_DIR", &target_dir),
    )?;
    let wasm = target_dir.join(WASM_TARGET).join("release/gjk_web.wasm");
    run_tool(
        Command::new("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(dir.join("pkg"))
            .arg(&wasm),
    )
}

fn run_tool(cmd: &mut Command) -> io::Result<()> {
    let status = cmd.status().map_err(|e| io::Error::other(format!("cannot run {:?}: {e}", cmd.get_program())))?;
    if status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!("{:?} failed ({status})", cmd.get_program())))
    }
}

fn ensure_wasm_target() -> io::Result<()> {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(out) if String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == WASM_TARGET) => Ok(()),
        Ok(_) => {
            eprintln!("gjk serve: installing the {WASM_TARGET} target (rustup target add {WASM_TARGET})");
            run_tool(Command::new("rustup").args(["target", "add", WASM_TARGET]))
        }
        // No rustup: a toolchain installed otherwise may still have the target; cargo will say if not.
        Err(_) => Ok(()),
    }
}

/// `wasm-bindgen-cli` must be exactly the version of the `wasm-bindgen` crate the page was compiled with.
fn ensure_wasm_bindgen(cargo: &std::ffi::OsStr, version: &str) -> io::Result<()> {
    let have = Command::new("wasm-bindgen").arg("--version").output().ok();
    let have = have.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(version) {
        return Ok(());
    }
    eprintln!(
        "gjk serve: installing wasm-bindgen-cli {version} (found {:?}); this compiles for a few minutes, once",
        if have.is_empty() { "none" } else { have.as_str() }
    );
    run_tool(Command::new(cargo).args(["install", "wasm-bindgen-cli", "--version", version]))
}

/// The version of `package` in the workspace's Cargo.lock.
fn locked_version(root: &Path, package: &str) -> io::Result<String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{package}\"") {
            if let Some(v) = lines.next().and_then(|l| l.trim().strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    Err(io::Error::other(format!("{package} is not in Cargo.lock")))
}

/// Serves the files under `dir` on 127.0.0.1:`port` until the process is stopped.
fn serve(dir: &Path, port: u16) -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let addr = listener.local_addr()?;
    println!("gjk serve: http://{addr}/  (serving {}; Ctrl-C stops)", dir.display());
    io::stdout().flush()?;
    let dir = dir.to_path_buf();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let dir = dir.clone();
        std::thread::spawn(move || {
            // A client that goes away mid-answer is not the server's problem.
            let _ = answer(stream, &dir);
        });
    }
    Ok(())
}

/// Answers one HTTP/1.1 request (GET or HEAD of a file under `dir`) and closes the connection.
fn answer(stream: TcpStream, dir: &Path) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // The headers are read and ignored (bounded: a request may not send more than 100 lines of them).
    for _ in 0..100 {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return respond(&mut out, "405 Method Not Allowed", "text/plain", b"GET only\n", method == "HEAD");
    }
    match resolve(dir, target) {
        Some(path) if path.is_file() => {
            let body = std::fs::read(&path)?;
            respond(&mut out, "200 OK", content_type(&path), &body, method == "HEAD")
        }
        _ => respond(&mut out, "404 Not Found", "text/plain", b"not found\n", method == "HEAD"),
    }
}

/// The file a request path names, if it stays inside `dir` (no `..`, no absolute paths); `/` is `index.html`.
fn resolve(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let rel = Path::new(path);
    rel.components().all(|c| matches!(c, Component::Normal(_))).then(|| dir.join(rel))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &[u8], head_only: bool) -> io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )?;
    if !head_only {
        out.write_all(body)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_stay_inside_the_folder() {
        let dir = Path::new("/srv/page");
        assert_eq!(resolve(dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(dir, "/pkg/gjk_web.js?v=2"), Some(dir.join("pkg/gjk_web.js")));
        assert_eq!(resolve(dir, "/../secret"), None);
        assert_eq!(resolve(dir, "/pkg/../../secret"), None);
        // Leading slashes never make an absolute path.
        assert_eq!(resolve(dir, "//etc/passwd"), Some(dir.join("etc/passwd")));
    }

    #[test]
    fn the_bindgen_version_comes_from_the_lock_file() {
        let v = locked_version(&workspace(), "wasm-bindgen").expect("the web crate pins wasm-bindgen");
        assert!(v.starts_with("0.2."), "{v}");
    }
}
