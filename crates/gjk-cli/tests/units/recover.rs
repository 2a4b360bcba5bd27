//! Tests of `gjk_cli::recover`'s parts (integration tests rather than unit tests: the library is then built once, not
//! a second time for its own tests).

use gjk_cli::recover::recover_id;
use serde_json::json;
use serde_json::Value;

#[test]
fn the_top_level_id_is_found_around_what_the_parser_rejects() {
    assert_eq!(recover_id(br#"{"id": 7, "a": {"radius": 1e400}}"#), json!(7));
    assert_eq!(recover_id(br#"{"a": {"id": 1, "r": 1e400}, "id": "x"}"#), json!("x"));
    assert_eq!(recover_id(br#"{"query": "distance", "id": {"k": [1, "}"]}, "a": [[[["#), json!({"k": [1, "}"]}));
    assert_eq!(recover_id(b"{\"id\": \"caf\xc3\xa9\", \"x\": \"\xff\"}"), json!("café"));
    assert_eq!(recover_id(br#"{"name": "id", "id": 3}"#), json!(3));
    assert_eq!(recover_id(br#"{"x": "\"id\": 5", "id": 6}"#), json!(6));
}

#[test]
fn no_readable_id_is_null() {
    assert_eq!(recover_id(b"not json"), Value::Null);
    assert_eq!(recover_id(br#"{"id": 1e400}"#), Value::Null);
    assert_eq!(recover_id(br#"{"id": "unterminated"#), Value::Null);
    assert_eq!(recover_id(br#"[{"id": 1}]"#), Value::Null);
    let deep = format!("{{\"a\": {}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(recover_id(deep.as_bytes()), Value::Null);
    let deep_after = format!("{{\"a\": {}1{}, \"id\": 9}}", "[".repeat(200), "]".repeat(200));
    assert_eq!(recover_id(deep_after.as_bytes()), json!(9));
}
