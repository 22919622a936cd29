//! `skill://` URIs: building them from a skill's path and parsing requests back into
//! decoded segments, refusing anything that could leave a skill (`..`, `.`, empty
//! segments, and the same hidden behind percent-encoding).

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The scheme prefix of every URI this server serves.
pub const SCHEME: &str = "skill://";
/// The file every skill has at its root.
pub const SKILL_MD: &str = "SKILL.md";

/// Characters left as they are in a segment: RFC 3986 unreserved.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// One segment percent-encoded for a URI (`.` and `..` encoded whole, so a name can never
/// be read back as a relative step).
pub fn encode_segment(segment: &str) -> String {
    match segment {
        "." => "%2E".to_string(),
        ".." => "%2E%2E".to_string(),
        _ => utf8_percent_encode(segment, SEGMENT).to_string(),
    }
}

/// `skill://a/b` for decoded segments `["a", "b"]`.
pub fn join(segments: &[String]) -> String {
    let encoded: Vec<String> = segments.iter().map(|s| encode_segment(s)).collect();
    format!("{SCHEME}{}", encoded.join("/"))
}

/// Why a URI was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UriError {
    #[error("{uri} is not a skill:// URI")]
    Scheme { uri: String },
    #[error("{uri} has an empty, `.` or `..` segment (also when percent-encoded); skill URIs never leave a skill")]
    Escape { uri: String },
    #[error("{uri} has a segment that is not UTF-8 or holds `/`, `\\` or NUL once decoded")]
    BadSegment { uri: String },
}

/// The decoded segments of `uri` (`skill://a/b/SKILL.md` → `["a", "b", "SKILL.md"]`), or
/// why it can never name something this server serves. A query or fragment is refused as
/// a bad segment.
pub fn parse(uri: &str) -> Result<Vec<String>, UriError> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return Err(UriError::Scheme { uri: uri.into() });
    };
    let mut out = Vec::new();
    for raw in rest.split('/') {
        if raw.contains(['?', '#']) {
            return Err(UriError::BadSegment { uri: uri.into() });
        }
        let decoded = percent_decode_str(raw)
            .decode_utf8()
            .map_err(|_| UriError::BadSegment { uri: uri.into() })?;
        if decoded.is_empty() || decoded == "." || decoded == ".." {
            return Err(UriError::Escape { uri: uri.into() });
        }
        if decoded.contains(['/', '\\', '\0']) {
            return Err(UriError::BadSegment { uri: uri.into() });
        }
        out.push(decoded.into_owned());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let segs = vec![
            "acme".to_string(),
            "ünï code".to_string(),
            SKILL_MD.to_string(),
        ];
        let uri = join(&segs);
        assert_eq!(uri, "skill://acme/%C3%BCn%C3%AF%20code/SKILL.md");
        assert_eq!(parse(&uri).expect("parse"), segs);
    }

    #[test]
    fn escapes_are_refused_plain_and_encoded() {
        for uri in [
            "skill://a/../b/SKILL.md",
            "skill://a/%2e%2e/SKILL.md",
            "skill://a/%2E%2E/SKILL.md",
            "skill://a/./SKILL.md",
            "skill://a//SKILL.md",
            "skill://a/",
            "skill://",
        ] {
            assert!(matches!(parse(uri), Err(UriError::Escape { .. })), "{uri}");
        }
        for uri in [
            "skill://a/..%2fb/SKILL.md",
            "skill://a/%5c/SKILL.md",
            "skill://a/%00/SKILL.md",
            "skill://a/%ff/SKILL.md",
            "skill://a/SKILL.md?x=1",
        ] {
            assert!(
                matches!(parse(uri), Err(UriError::BadSegment { .. })),
                "{uri}"
            );
        }
        assert!(matches!(
            parse("file:///etc/passwd"),
            Err(UriError::Scheme { .. })
        ));
    }

    #[test]
    fn dot_segments_are_encoded_whole() {
        assert_eq!(join(&["..".into(), "x".into()]), "skill://%2E%2E/x");
    }
}
