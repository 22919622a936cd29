//! Paths in the canonical JSON form. JSON strings are Unicode and a path need not be (a
//! directory whose name holds bytes that are not UTF-8): serde's own `Path` serializer then
//! fails the whole document, so one odd directory name would make `list --json`,
//! `to_dict()` or `toJSON()` fail. Such a path is written with U+FFFD in place of the bytes
//! instead; the engine itself keeps and uses the exact path.

use serde::Serializer;
use std::path::Path;

pub fn lossy<P: AsRef<Path>, S: Serializer>(path: &P, serializer: S) -> Result<S::Ok, S::Error> {
    // `to_str` first: checking UTF-8 is cheaper than `to_string_lossy`'s chunked scan, and
    // nearly every path is UTF-8 (three per skill in `list --json`).
    match path.as_ref().to_str() {
        Some(text) => serializer.serialize_str(text),
        None => serializer.serialize_str(&path.as_ref().to_string_lossy()),
    }
}

pub fn lossy_opt<P: AsRef<Path>, S: Serializer>(
    path: &Option<P>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match path {
        Some(path) => serializer.serialize_some(&*path.as_ref().to_string_lossy()),
        None => serializer.serialize_none(),
    }
}
