//! `gjk serve`: builds the interactive page (the library compiled to WebAssembly, `crates/gjk-web`) if needed and
//! serves `web/` on 127.0.0.1 only.
//!
//! ```text
//! gjk serve [--port N] [--no-build] [--dir DIR] [--timeout SECONDS] [--max-connections N]
//! ```
//!
//! The build is two steps: `cargo build -p gjk-web --release --target wasm32-unknown-unknown`, then
//! `wasm-bindgen --target web` into `web/pkg/`. What they need is installed on first use (the rustup target, and
//! `wasm-bindgen-cli` at exactly the version of the `wasm-bindgen` crate in Cargo.lock: the two must match).
//!
//! The server answers GET and HEAD of static files and nothing else, so it is small, but every resource it spends
//! is bounded: a request's head is parsed by `httparse` from at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`]
//! headers, read before a deadline; at most `--max-connections` are served at once (one thread each; more are
//! turned away with 503); the Host header must name 127.0.0.1 or localhost (so a page elsewhere cannot reach the
//! server through a DNS name it controls); a path is resolved with its symbolic links and must stay inside the
//! folder.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lexopt::prelude::*;

use crate::{help, usage, Failure};

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The most bytes of a request's head (request line and headers) read.
const MAX_HEAD: usize = 8 << 10;

/// The most headers a request may have.
const MAX_HEADERS: usize = 32;

/// The source tree this binary was built from; the page and the web crate live there.
fn workspace() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// How the server runs.
struct Config {
    port: u16,
    /// Time allowed for one request, from the connection to the last byte of the answer.
    timeout: Duration,
    max_connections: usize,
}

/// Runs `gjk serve` with the arguments after `serve`. Returns only on an error.
pub fn run(mut args: lexopt::Parser) -> Result<(), Failure> {
    let bad = usage(help::SERVE);
    let mut config = Config { port: 8737, timeout: Duration::from_secs(10), max_connections: 32 };
    let mut build = true;
    let mut dir = workspace().join("web");
    while let Some(arg) = args.next().map_err(&bad)? {
        match arg {
            Long("port") => config.port = args.value().and_then(|v| v.parse()).map_err(&bad)?,
            Long("no-build") => build = false,
            Long("dir") => dir = PathBuf::from(args.value().map_err(&bad)?),
            Long("timeout") => {
                let secs: f64 = args.value().and_then(|v| v.parse()).map_err(&bad)?;
                config.timeout = Duration::try_from_secs_f64(secs)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| Failure::Usage(format!("--timeout {secs}: not a positive time"), help::SERVE))?;
            }
            Long("max-connections") => {
                config.max_connections = args.value().and_then(|v| v.parse()).map_err(&bad)?;
                if config.max_connections == 0 {
                    return Err(Failure::Usage("--max-connections must be at least 1".into(), help::SERVE));
                }
            }
            Short('h') | Long("help") => {
                println!("{}", help::SERVE);
                return Ok(());
            }
            other => return Err(bad(other.unexpected())),
        }
    }
    if build {
        build_page(&dir)?;
    }
    if !dir.join("pkg/gjk_web_bg.wasm").is_file() {
        return Err(Failure::Run(format!("{} holds no build: run gjk serve without --no-build", dir.display())));
    }
    Ok(serve(&dir, &config)?)
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

/// Serves the files under `dir` on 127.0.0.1 until the process is stopped.
fn serve(dir: &Path, config: &Config) -> io::Result<()> {
    let root = Arc::new(dir.canonicalize()?);
    let listener = TcpListener::bind(("127.0.0.1", config.port))?;
    let port = listener.local_addr()?.port();
    println!("gjk serve: http://127.0.0.1:{port}/  (serving {}; Ctrl-C stops)", root.display());
    io::stdout().flush()?;
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.load(Ordering::SeqCst) >= config.max_connections {
            // Turned away without a thread: one short answer, written without waiting.
            let _ = stream.set_nonblocking(true);
            let _ = respond(&mut stream, 503, "text/plain", Body::Text("busy: too many connections\n"), false);
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let guard = Active(Arc::clone(&active));
        let (root, timeout) = (Arc::clone(&root), config.timeout);
        std::thread::spawn(move || {
            let _guard = guard;
            // A client that goes away or runs out of time mid-answer is not the server's problem.
            let _ = answer(stream, &root, port, Instant::now() + timeout);
        });
    }
    Ok(())
}

/// Counts a connection being served; the count goes down when its thread ends, however it ends.
struct Active(Arc<AtomicUsize>);

impl Drop for Active {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What a request asks for, or why it gets an error status.
enum Asked {
    File { path: PathBuf, head_only: bool },
    Error(u16, &'static str, bool),
}

/// Reads one request (before `deadline`), answers it and closes the connection.
fn answer(mut stream: TcpStream, root: &Path, port: u16, deadline: Instant) -> io::Result<()> {
    let asked = match read_head(&mut stream, deadline)? {
        Some(head) => parse(&head, root, port),
        None => Asked::Error(431, "request head too large\n", false),
    };
    let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
    stream.set_write_timeout(Some(left))?;
    match asked {
        Asked::Error(code, text, head_only) => respond(&mut stream, code, "text/plain", Body::Text(text), head_only),
        Asked::File { path, head_only } => {
            let file = File::open(&path)?;
            let len = file.metadata()?.len();
            respond(&mut stream, 200, content_type(&path), Body::File(file, len), head_only)
        }
    }
}

/// The request's head (through its blank line), read before `deadline`; `None` if it is longer than [`MAX_HEAD`].
fn read_head(stream: &mut TcpStream, deadline: Instant) -> io::Result<Option<Vec<u8>>> {
    let mut buf = vec![0u8; MAX_HEAD];
    let mut len = 0;
    loop {
        if buf[..len].windows(4).any(|w| w == b"\r\n\r\n") || buf[..len].windows(2).any(|w| w == b"\n\n") {
            buf.truncate(len);
            return Ok(Some(buf));
        }
        if len == MAX_HEAD {
            return Ok(None);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "request not complete before the deadline"));
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut buf[len..])? {
            0 => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "connection closed mid-request")),
            n => len += n,
        }
    }
}

/// What a complete request head asks for.
fn parse(head: &[u8], root: &Path, port: u16) -> Asked {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Err(httparse::Error::TooManyHeaders) => return Asked::Error(431, "too many headers\n", false),
        _ => return Asked::Error(400, "bad request\n", false),
    }
    let head_only = request.method == Some("HEAD");
    if !matches!(request.method, Some("GET" | "HEAD")) {
        return Asked::Error(405, "GET and HEAD only\n", false);
    }
    let host = request.headers.iter().find(|h| h.name.eq_ignore_ascii_case("host")).map(|h| h.value);
    match host.and_then(|h| std::str::from_utf8(h).ok()) {
        None => return Asked::Error(400, "a Host header is required\n", head_only),
        Some(h) if !local_host(h, port) => {
            return Asked::Error(403, "Host must be 127.0.0.1 or localhost\n", head_only)
        }
        Some(_) => {}
    }
    match resolve(root, request.path.unwrap_or("")) {
        Some(path) => Asked::File { path, head_only },
        None => Asked::Error(404, "not found\n", head_only),
    }
}

/// True for `127.0.0.1` or `localhost`, with no port or this server's.
fn local_host(host: &str, port: u16) -> bool {
    let (name, p) = match host.rsplit_once(':') {
        Some((name, p)) => (name, Some(p)),
        None => (host, None),
    };
    let name_ok = name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost");
    name_ok && p.is_none_or(|p| p.parse::<u16>() == Ok(port))
}

/// The regular file a request path names, if it is inside `root` (the canonical folder) once every symbolic link
/// is followed; `/` is `index.html`. The path's parts must be plain names (no `..`, no absolute path).
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let rel = Path::new(path);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let file = root.join(rel).canonicalize().ok()?;
    (file.starts_with(root) && file.is_file()).then_some(file)
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

/// An answer's body: a short text or a file of known length (copied, never read whole into memory).
enum Body {
    Text(&'static str),
    File(File, u64),
}

fn respond(out: &mut TcpStream, code: u16, kind: &str, body: Body, head_only: bool) -> io::Result<()> {
    let reason = match code {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    let len = match &body {
        Body::Text(t) => t.len() as u64,
        Body::File(_, len) => *len,
    };
    write!(
        out,
        "HTTP/1.1 {code} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {len}\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n"
    )?;
    if !head_only {
        match body {
            Body::Text(t) => out.write_all(t.as_bytes())?,
            Body::File(f, len) => {
                io::copy(&mut f.take(len), out)?;
            }
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_stay_inside_the_folder() {
        let dir = std::env::temp_dir().join(format!("gjk-serve-unit-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "page").unwrap();
        std::fs::write(dir.join("pkg/gjk_web.js"), "js").unwrap();
        let root = dir.canonicalize().unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/pkg/gjk_web.js?v=2"), Some(root.join("pkg/gjk_web.js")));
        assert_eq!(resolve(&root, "/../secret"), None);
        assert_eq!(resolve(&root, "/pkg/../../secret"), None);
        assert_eq!(resolve(&root, "//etc/passwd"), None);
        assert_eq!(resolve(&root, "/pkg"), None, "a folder is not a file");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn only_loopback_hosts_are_answered() {
        assert!(local_host("127.0.0.1:8737", 8737));
        assert!(local_host("localhost", 8737));
        assert!(local_host("LocalHost:8737", 8737));
        assert!(!local_host("localhost:9999", 8737));
        assert!(!local_host("evil.example:8737", 8737));
        assert!(!local_host("127.0.0.1.evil.example", 8737));
        assert!(!local_host("", 8737));
    }

    #[test]
    fn the_bindgen_version_comes_from_the_lock_file() {
        let v = locked_version(&workspace(), "wasm-bindgen").expect("the web crate pins wasm-bindgen");
        assert!(v.starts_with("0.2."), "{v}");
    }
}
