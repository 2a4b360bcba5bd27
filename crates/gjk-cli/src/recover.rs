//! The `id` of a line the JSON parser rejected (a number out of range such as 1e400, nesting deeper than 127,
//! invalid UTF-8 elsewhere in the line, a line cut at the length limit): a scan for the top-level `"id"` key, and
//! its value read alone. The scan keeps a depth count and no stack, so it is linear in the line and cannot run out
//! of memory or recursion on hostile nesting.

use serde_json::Value;

/// The value of the last top-level `"id"` key that reads as JSON on its own, else `null`.
pub fn recover_id(line: &[u8]) -> Value {
    let mut found = Value::Null;
    let mut depth = 0usize;
    // At depth 1, whether the next string is a key (after `{` or `,`) and whether the last key was "id".
    let mut expect_key = false;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'"' => {
                let end = string_end(line, i);
                if depth == 1 && expect_key {
                    expect_key = false;
                    if &line[i..end] == b"\"id\"" {
                        if let Some((value, next)) = value_after_colon(line, end) {
                            if let Ok(v) = serde_json::from_slice::<Value>(value) {
                                found = v;
                            }
                            i = next;
                            continue;
                        }
                    }
                }
                i = end;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                expect_key = depth == 1 && line[i] == b'{';
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
        i += 1;
    }
    found
}

/// The index just past the string starting at `start` (a `"`), or the end of the line if it is not closed.
fn string_end(line: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

/// The bytes of the value after a key ending at `at` (`: value`), and the index past them.
fn value_after_colon(line: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let mut i = skip_space(line, at);
    if line.get(i) != Some(&b':') {
        return None;
    }
    i = skip_space(line, i + 1);
    let start = i;
    let end = match line.get(i)? {
        b'"' => string_end(line, i),
        b'{' | b'[' => {
            // A nested id: to its matching bracket, strings skipped.
            let mut depth = 0usize;
            loop {
                match line.get(i) {
                    None => break line.len(),
                    Some(b'"') => {
                        i = string_end(line, i);
                        continue;
                    }
                    Some(b'{' | b'[') => depth += 1,
                    Some(b'}' | b']') => {
                        depth -= 1;
                        if depth == 0 {
                            break i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            while i < line.len() && !matches!(line[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            i
        }
    };
    Some((&line[start..end], end))
}

fn skip_space(line: &[u8], mut i: usize) -> usize {
    while i < line.len() && matches!(line[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}
