//! The `gjk query` stream: input bytes split into lines, each answered in order, answers written as soon as the
//! input has nothing more to give.
//!
//! * A line ends at `\n`, `\r\n` or a lone `\r`; the last line needs no line break. Blank lines are skipped.
//! * Bytes are not required to be UTF-8 across the stream: a line that is not UTF-8 gets an error line and the
//!   next lines are answered as usual.
//! * A line longer than [`Limits::max_line_bytes`] is never held whole: its first bytes are kept (to find its
//!   `id`), the rest is skipped up to the next line break, and it is answered with an error line.
//! * Answers are buffered while more input is already at hand and written out (flushed) before any read that
//!   may wait, so a client that sends one line and waits gets its answer, and bulk input costs one write per
//!   input buffer rather than one per line.

use std::io::{self, BufRead, BufReader, Read, Write};

use crate::query::{write_answer, write_line, Settings};
use crate::recover::recover_id;

/// The longest line answered by default: 16 MiB (a hull of about 250,000 points written in full precision).
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// How much of an over-long line is kept to find its `id`.
const KEPT_PREFIX: usize = 64 << 10;

/// Input is read in blocks of this size; answers are written out at least this often.
pub const BLOCK: usize = 64 << 10;

/// The stream's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest line answered, in bytes (without its line break).
    pub max_line_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_line_bytes: DEFAULT_MAX_LINE_BYTES }
    }
}

/// Answers every line of `input` on `output`, in order, one output line per non-blank input line. Returns when
/// the input ends (or on an I/O error of either side).
pub fn answer_stream(input: impl Read, mut output: impl Write, settings: &Settings, limits: Limits) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(BLOCK, input);
    let mut line = Line::new(limits.max_line_bytes);
    let mut out: Vec<u8> = Vec::with_capacity(2 * BLOCK);
    loop {
        if reader.buffer().is_empty() || out.len() >= BLOCK {
            // The next read may wait for the client: everything answered so far goes out first.
            output.write_all(&out)?;
            output.flush()?;
            out.clear();
        }
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            line.finish(settings, &mut out);
            break;
        }
        match memchr::memchr2(b'\n', b'\r', buf) {
            Some(end) => {
                line.push(&buf[..end]);
                reader.consume(end + 1);
                line.finish(settings, &mut out);
            }
            None => {
                let n = buf.len();
                line.push(buf);
                reader.consume(n);
            }
        }
    }
    output.write_all(&out)?;
    output.flush()
}

/// The line being read: its bytes while within the limit, only its first bytes once past it.
struct Line {
    bytes: Vec<u8>,
    /// Bytes seen in all (more than `bytes.len()` once over the limit).
    len: usize,
    max: usize,
}

impl Line {
    fn new(max: usize) -> Self {
        Self { bytes: Vec::new(), len: 0, max }
    }

    fn push(&mut self, chunk: &[u8]) {
        let before = self.len;
        self.len = self.len.saturating_add(chunk.len());
        if self.len <= self.max {
            self.bytes.extend_from_slice(chunk);
            return;
        }
        if before <= self.max {
            // Just went over: keep the prefix only, and give the memory back.
            self.bytes.truncate(KEPT_PREFIX);
            self.bytes.shrink_to(KEPT_PREFIX);
        }
        let room = KEPT_PREFIX.saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&chunk[..room.min(chunk.len())]);
    }

    /// Answers the line (if it is not blank) and starts the next one.
    fn finish(&mut self, settings: &Settings, out: &mut Vec<u8>) {
        if self.len > self.max {
            let error = format!(
                "the line is {} bytes long, over the limit of {} (gjk query --max-line-bytes); it was skipped",
                self.len, self.max
            );
            write_line(out, &recover_id(&self.bytes), Err(error));
        } else if !self.bytes.iter().all(u8::is_ascii_whitespace) {
            write_answer(&self.bytes, settings, out);
        }
        self.bytes.clear();
        self.len = 0;
    }
}
