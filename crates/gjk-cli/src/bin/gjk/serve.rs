//! `gjk serve`: serves the interactive page on 127.0.0.1 only.
//!
//! ```text
//! gjk serve [--port N] [--dir DIR] [--timeout SECONDS] [--max-connections N]
//! ```
//!
//! The page is built in: its files (`web/*.html`, `*.js`, `*.css` and the prebuilt WebAssembly module in
//! `web/pkg/`, which `web/build.sh` writes and CI checks against the source) are embedded in the binary when it
//! is compiled, so the server starts at once and needs no source tree (it works the same from `cargo install`).
//! `--dir DIR` serves a folder from disk instead (to try an edited page without recompiling).
//!
//! The server answers GET and HEAD of static files and nothing else, so it is small, but every resource it spends
//! is bounded: a request's head is parsed by `httparse` from at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`]
//! headers, read before a deadline; at most `--max-connections` are served at once (one thread each; more are
//! turned away with 503); the Host header must name 127.0.0.1 or localhost (so a page elsewhere cannot reach the
//! server through a DNS name it controls); an embedded page answers only the names in its table, and a folder's
//! path is resolved with its symbolic links and must stay inside the folder.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lexopt::prelude::*;

use crate::{help, usage, Failure};

/// The most bytes of a request's head (request line and headers) read.
const MAX_HEAD: usize = 8 << 10;

/// The most headers a request may have.
const MAX_HEADERS: usize = 32;

/// One embedded file of the page: its path in the URL (no leading slash) and its bytes.
struct Embedded {
    path: &'static str,
    bytes: &'static [u8],
}

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(Embedded { path: $path, bytes: include_bytes!(concat!("../../../../../web/", $path)) }),*]
    };
}

/// The page, as `web/` held it when this binary was compiled. A test checks that every file of the page is here.
static PAGE: &[Embedded] = embed![
    "index.html",
    "3d.html",
    "style.css",
    "app.js",
    "app3d.js",
    "steps.js",
    "pkg/gjk_web.js",
    "pkg/gjk_web_bg.wasm",
];

/// Where the files come from.
enum Source {
    /// The page built into the binary.
    Embedded,
    /// A folder on disk (canonical path).
    Dir(PathBuf),
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
    let mut dir: Option<PathBuf> = None;
    while let Some(arg) = args.next().map_err(&bad)? {
        match arg {
            Long("port") => config.port = args.value().and_then(|v| v.parse()).map_err(&bad)?,
            // Nothing is built any more (the page is prebuilt); the flag is still accepted so scripts keep working.
            Long("no-build") => {}
            Long("dir") => dir = Some(PathBuf::from(args.value().map_err(&bad)?)),
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
    let source = match dir {
        None => Source::Embedded,
        Some(dir) => {
            let dir = dir.canonicalize().map_err(|e| Failure::Run(format!("{}: {e}", dir.display())))?;
            if !dir.join("index.html").is_file() {
                return Err(Failure::Run(format!("{} holds no index.html", dir.display())));
            }
            Source::Dir(dir)
        }
    };
    Ok(serve(source, &config)?)
}

/// Serves the page on 127.0.0.1 until the process is stopped.
fn serve(source: Source, config: &Config) -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", config.port))?;
    let port = listener.local_addr()?.port();
    let what = match &source {
        Source::Embedded => format!("the page built into gjk {}", env!("CARGO_PKG_VERSION")),
        Source::Dir(dir) => dir.display().to_string(),
    };
    println!("gjk serve: http://127.0.0.1:{port}/  (serving {what}; Ctrl-C stops)");
    io::stdout().flush()?;
    let source = Arc::new(source);
    let active = Arc::new(AtomicUsize::new(0));
    let turning_away = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.load(Ordering::SeqCst) >= config.max_connections {
            if turning_away.load(Ordering::SeqCst) >= config.max_connections {
                // Far over the cap: one short answer, written without waiting, and the connection dropped.
                let _ = stream.set_nonblocking(true);
                let _ = respond(&mut stream, 503, "text/plain", Body::Text("busy: too many connections\n"), false);
                continue;
            }
            // Over the cap: a 503 from a short-lived thread (as many at most as the cap) that reads the request
            // first. Closing a socket with an unread request resets the connection, and the client would lose the
            // answer it was given.
            turning_away.fetch_add(1, Ordering::SeqCst);
            let guard = Active(Arc::clone(&turning_away));
            std::thread::spawn(move || {
                let _guard = guard;
                let _ = turn_away(stream);
            });
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let guard = Active(Arc::clone(&active));
        let (source, timeout) = (Arc::clone(&source), config.timeout);
        std::thread::spawn(move || {
            let _guard = guard;
            // A client that goes away or runs out of time mid-answer is not the server's problem.
            let _ = answer(stream, &source, port, Instant::now() + timeout);
        });
    }
    Ok(())
}

/// Reads what the client sent (its request head, for a second at most) and answers 503.
fn turn_away(mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(1)))?;
    let (mut head, mut buf) = (Vec::new(), [0u8; 1024]);
    while head.len() < 16 * 1024 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    respond(&mut stream, 503, "text/plain", Body::Text("busy: too many connections\n"), false)?;
    stream.shutdown(std::net::Shutdown::Write)
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
    Embedded { file: &'static Embedded, head_only: bool },
    Error(u16, &'static str, bool),
}

/// Reads one request (before `deadline`), answers it and closes the connection.
fn answer(mut stream: TcpStream, source: &Source, port: u16, deadline: Instant) -> io::Result<()> {
    let asked = match read_head(&mut stream, deadline)? {
        Some(head) => parse(&head, source, port),
        None => Asked::Error(431, "request head too large\n", false),
    };
    let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
    stream.set_write_timeout(Some(left))?;
    let refused = matches!(asked, Asked::Error(..));
    let answered = match asked {
        Asked::Error(code, text, head_only) => respond(&mut stream, code, "text/plain", Body::Text(text), head_only),
        Asked::File { path, head_only } => {
            let file = File::open(&path)?;
            let len = file.metadata()?.len();
            respond(&mut stream, 200, content_type(&path), Body::File(file, len), head_only)
        }
        Asked::Embedded { file, head_only } => {
            respond(&mut stream, 200, content_type(Path::new(file.path)), Body::Bytes(file.bytes), head_only)
        }
    };
    answered?;
    if refused {
        close_after_refusal(stream, deadline)?;
    }
    Ok(())
}

/// Half-closes a refused connection and reads what the client still sends (until it closes, for a second and
/// 4 MiB at most). A request refused mid-head (431) leaves bytes unread, and closing a socket with unread bytes
/// makes the kernel reset the connection, which can throw away the answer before the client reads it.
fn close_after_refusal(mut stream: TcpStream, deadline: Instant) -> io::Result<()> {
    stream.shutdown(std::net::Shutdown::Write)?;
    let until = deadline.min(Instant::now() + Duration::from_secs(1));
    let (mut drained, mut buf) = (0usize, [0u8; 16 * 1024]);
    while drained < 4 << 20 {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
    Ok(())
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
fn parse(head: &[u8], source: &Source, port: u16) -> Asked {
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
    let target = request.path.unwrap_or("");
    let found = match source {
        Source::Embedded => embedded(target).map(|file| Asked::Embedded { file, head_only }),
        Source::Dir(root) => resolve(root, target).map(|path| Asked::File { path, head_only }),
    };
    found.unwrap_or(Asked::Error(404, "not found\n", head_only))
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

/// A request path without its query or fragment and its leading slashes; `/` is `index.html`.
fn request_path(target: &str) -> &str {
    let path = target.split(['?', '#']).next().unwrap_or("").trim_start_matches('/');
    if path.is_empty() {
        "index.html"
    } else {
        path
    }
}

/// The embedded file a request path names: an exact name from the table, nothing else.
fn embedded(target: &str) -> Option<&'static Embedded> {
    let path = request_path(target);
    PAGE.iter().find(|f| f.path == path)
}

/// The regular file a request path names, if it is inside `root` (the canonical folder) once every symbolic link
/// is followed; `/` is `index.html`. The path's parts must be plain names (no `..`, no absolute path).
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let rel = Path::new(request_path(target));
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

/// An answer's body: a short text, an embedded file, or a file of known length (copied, never read whole into
/// memory).
enum Body {
    Text(&'static str),
    Bytes(&'static [u8]),
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
        Body::Bytes(b) => b.len() as u64,
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
            Body::Bytes(b) => out.write_all(b)?,
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
    fn the_embedded_page_answers_its_own_names_only() {
        assert_eq!(embedded("/").map(|f| f.path), Some("index.html"));
        assert_eq!(embedded("/3d.html?x=1").map(|f| f.path), Some("3d.html"));
        assert_eq!(embedded("/pkg/gjk_web_bg.wasm").map(|f| f.path), Some("pkg/gjk_web_bg.wasm"));
        for missing in ["/../Cargo.toml", "/pkg/../index.html", "/pkg", "/pkg/", "/STAMP", "/pkg/STAMP", "/build.sh"] {
            assert!(embedded(missing).is_none(), "{missing}");
        }
        let wasm = embedded("/pkg/gjk_web_bg.wasm").unwrap();
        assert!(wasm.bytes.starts_with(b"\0asm"), "a WebAssembly module");
    }

    /// Every file of the page in web/ (not its tests, build script or stamp) is built into the binary, byte for
    /// byte: a page file added but not embedded would be missing from an installed gjk.
    #[test]
    fn every_page_file_is_embedded() {
        let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk = Vec::new();
        for (folder, prefix) in [(web.clone(), ""), (web.join("pkg"), "pkg/")] {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                let page_file = [".html", ".js", ".css", ".wasm"].iter().any(|e| name.ends_with(e));
                if page_file {
                    on_disk.push(format!("{prefix}{name}"));
                }
            }
        }
        on_disk.sort();
        let mut embedded: Vec<String> = PAGE.iter().map(|f| f.path.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        for f in PAGE {
            assert_eq!(f.bytes, std::fs::read(web.join(f.path)).unwrap(), "{}", f.path);
        }
    }
}
