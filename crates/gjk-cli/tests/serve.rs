//! `gjk serve` against hostile clients (issue 11, section 4): symbolic links out of the folder, long and many
//! headers, foreign Host names, slow clients and too many connections. Each test starts its own server on a free
//! port, over a small folder (`--dir`) or, for the built-in page, with no folder at all from a directory that holds
//! no page (as after `cargo install`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `gjk serve`, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A page folder (index.html, pkg/ with a stand-in build, a link inside, a link out) and a server on it.
fn server(name: &str, extra: &[&str]) -> Server {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let web = dir.join("web");
    std::fs::create_dir_all(web.join("pkg")).unwrap();
    std::fs::write(web.join("index.html"), "<h1>page</h1>").unwrap();
    std::fs::write(web.join("pkg/gjk_web_bg.wasm"), b"\0asm").unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("secret.txt"), web.join("out.txt")).unwrap();
        std::os::unix::fs::symlink(&dir, web.join("rootlink")).unwrap();
        std::os::unix::fs::symlink("index.html", web.join("in.html")).unwrap();
    }
    let mut args = vec!["--dir".into(), web.into_os_string()];
    args.extend(extra.iter().map(|a| (*a).into()));
    start(dir, &args)
}

/// `gjk serve --port 0 ARGS` run in `dir` (removed when the server is dropped), once it has said where it serves.
fn start(dir: PathBuf, args: &[std::ffi::OsString]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .args(["serve", "--port", "0"])
        .args(args)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gjk serve runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let port = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    Server { child, port, dir }
}

impl Server {
    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        s
    }

    /// Sends `request` as it is and returns the whole answer (the server closes the connection).
    fn send(&self, request: &[u8]) -> String {
        let mut s = self.connect();
        // The server may answer and close before reading everything (a head too large): ignore a reset here.
        let _ = s.write_all(request);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn get(&self, path: &str) -> String {
        String::from_utf8_lossy(&self.get_bytes(path)).into_owned()
    }

    /// The whole answer to a GET, as bytes.
    fn get_bytes(&self, path: &str) -> Vec<u8> {
        let mut s = self.connect();
        let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", self.port);
        s.write_all(request.as_bytes()).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        out
    }
}

/// The body of an answer (after its blank line).
fn body(answer: &[u8]) -> &[u8] {
    let at = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
    &answer[at..]
}

/// The page is built into the binary: served with no source tree around (the server runs in an empty folder, as
/// an installed gjk would), each file the one in web/ byte for byte, with its type, and nothing else.
#[test]
fn the_built_in_page_needs_no_source_tree() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-built-in-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = start(dir, &[]);
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    for (path, file, kind) in [
        ("/", "index.html", "text/html"),
        ("/3d.html", "3d.html", "text/html"),
        ("/app.js", "app.js", "text/javascript"),
        ("/pkg/gjk_web.js", "pkg/gjk_web.js", "text/javascript"),
        ("/pkg/gjk_web_bg.wasm?v=1", "pkg/gjk_web_bg.wasm", "application/wasm"),
        ("/style.css", "style.css", "text/css"),
    ] {
        let answer = s.get_bytes(path);
        let text = String::from_utf8_lossy(&answer);
        assert_eq!(status(&text), 200, "{path}");
        assert!(text.contains(&format!("Content-Type: {kind}")), "{path}");
        assert_eq!(body(&answer), std::fs::read(web.join(file)).unwrap(), "{path}");
    }
    for missing in ["/pkg/STAMP", "/build.sh", "/test/page.test.mjs", "/../Cargo.toml", "/pkg", "/index.htm"] {
        assert_eq!(status(&s.get(missing)), 404, "{missing}");
    }
    assert_eq!(status(&s.send(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")), 403);
}

fn status(answer: &str) -> u16 {
    answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("no status in {answer:?}"))
}

#[test]
fn files_in_the_folder_are_served() {
    let s = server("files", &[]);
    let index = s.get("/");
    assert_eq!(status(&index), 200);
    assert!(index.ends_with("<h1>page</h1>"), "{index}");
    assert!(index.contains("Content-Type: text/html"));
    assert_eq!(status(&s.get("/pkg/gjk_web_bg.wasm?v=1")), 200);
    let head = s.send(format!("HEAD / HTTP/1.1\r\nHost: localhost:{}\r\n\r\n", s.port).as_bytes());
    assert_eq!(status(&head), 200);
    assert!(!head.contains("<h1>"), "HEAD has no body");
    assert_eq!(status(&s.get("/missing.html")), 404);
    assert_eq!(status(&s.get("/pkg")), 404, "a folder is not a file");
    let post = s.send(format!("POST / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\n\r\n", s.port).as_bytes());
    assert_eq!(status(&post), 405);
}

/// `/rootlink/etc/shadow` once answered 200: a symbolic link inside the folder led anywhere.
#[cfg(unix)]
#[test]
fn symbolic_links_do_not_lead_out_of_the_folder() {
    let s = server("links", &[]);
    assert_eq!(status(&s.get("/out.txt")), 404);
    assert_eq!(status(&s.get("/rootlink/secret.txt")), 404);
    // Out through a link and back in: the file itself is in the folder, so it is served.
    assert_eq!(status(&s.get("/rootlink/web/index.html")), 200);
    assert_eq!(status(&s.get("/../secret.txt")), 404);
    assert_eq!(status(&s.get("/pkg/../../secret.txt")), 404);
    let inside = s.get("/in.html");
    assert_eq!(status(&inside), 200, "a link that stays inside is fine");
    assert!(inside.ends_with("<h1>page</h1>"));
}

/// Only requests naming the server itself are answered: a page elsewhere could otherwise reach it through a DNS
/// name it controls (DNS rebinding).
#[test]
fn the_host_must_be_loopback() {
    let s = server("host", &[]);
    let with_host = |h: &str| status(&s.send(format!("GET / HTTP/1.1\r\nHost: {h}\r\n\r\n").as_bytes()));
    assert_eq!(with_host(&format!("localhost:{}", s.port)), 200);
    assert_eq!(with_host("localhost"), 200);
    assert_eq!(with_host(&format!("127.0.0.1:{}", s.port)), 200);
    assert_eq!(with_host("evil.example"), 403);
    assert_eq!(with_host(&format!("evil.example:{}", s.port)), 403);
    assert_eq!(with_host("localhost:1"), 403);
    assert_eq!(status(&s.send(b"GET / HTTP/1.1\r\n\r\n")), 400, "no Host");
}

/// A 200 MB header once grew the server to 204 MB: a head is read into 8 KiB at most.
/// Under load the 431 once arrived cut to `HTTP/1.1 `: the server closed with the rest of the header unread, and
/// the kernel's reset threw the answer away. Refused connections are now half-closed and drained first.
#[test]
fn long_and_many_headers_are_refused() {
    let s = server("headers", &[]);
    let mut request = format!("GET / HTTP/1.1\r\nHost: localhost:{}\r\nX-Long: ", s.port).into_bytes();
    request.extend(std::iter::repeat_n(b'a', 1 << 20));
    request.extend_from_slice(b"\r\n\r\n");
    let start = Instant::now();
    assert_eq!(status(&s.send(&request)), 431);
    assert!(start.elapsed() < Duration::from_secs(5));
    let long_line = format!("GET /{} HTTP/1.1\r\nHost: localhost\r\n\r\n", "a".repeat(20_000));
    assert_eq!(status(&s.send(long_line.as_bytes())), 431);
    let many: String = (0..40).map(|i| format!("X-{i}: 1\r\n")).collect();
    assert_eq!(status(&s.send(format!("GET / HTTP/1.1\r\nHost: localhost\r\n{many}\r\n").as_bytes())), 431);
    assert_eq!(status(&s.get("/")), 200, "the server goes on");
}

/// A client that connects and sends nothing (or too slowly) is dropped at the deadline.
#[test]
fn slow_clients_are_dropped_at_the_deadline() {
    let s = server("slow", &["--timeout", "1"]);
    let mut idle = s.connect();
    let start = Instant::now();
    idle.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let mut buf = Vec::new();
    let _ = idle.read_to_end(&mut buf);
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(900) && waited < Duration::from_secs(5), "closed after {waited:?}");
    assert!(buf.is_empty(), "no answer to an incomplete request");
}

/// 300 slow connections once made 301 threads: past the cap, a connection is answered 503 at once.
#[test]
fn connections_beyond_the_cap_are_turned_away() {
    let s = server("cap", &["--max-connections", "2", "--timeout", "2"]);
    let held: Vec<TcpStream> = (0..2).map(|_| s.connect()).collect();
    // Give the server time to accept both.
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    assert_eq!(status(&s.get("/")), 503);
    assert!(start.elapsed() < Duration::from_secs(1), "turned away at once");
    drop(held);
    // The held connections end (closed by us, or at their deadline): served again.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = s.get("/");
        if status(&answer) == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still busy: {answer}");
        std::thread::sleep(Duration::from_millis(200));
    }
}
