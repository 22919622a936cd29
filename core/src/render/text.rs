//! Small text helpers shared by the formats: escaping, `file://` URLs, char-safe cutting.

use std::path::Path;

/// XML escaping for element content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Python's `html.escape(s, quote=True)`: `&`, `<`, `>`, `"` → `&quot;`, `'` → `&#x27;`.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// `file://` URL of an absolute path, percent-encoded the way Node's `pathToFileURL` does
/// (the WHATWG path set plus `%` and `\`), so OpenCode-format output matches the host.
pub fn file_url(path: &Path) -> String {
    let raw = path.to_string_lossy();
    let mut out = String::from("file://");
    for b in raw.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'/' | b'-'
                    | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'['
                    | b']'
                    | b'|'
                    | b'^'
            );
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The first `n` characters of `s` (never splits a character).
pub fn take_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

/// Character count (what budgets and reports measure).
pub fn chars(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(xml_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(html_escape("it's \"x\""), "it&#x27;s &quot;x&quot;");
    }

    #[test]
    fn urls() {
        assert_eq!(
            file_url(Path::new("/a b/ü#?%.md")),
            "file:///a%20b/%C3%BC%23%3F%25.md"
        );
    }

    #[test]
    fn cutting() {
        assert_eq!(take_chars("héllo", 2), "hé");
        assert_eq!(take_chars("hi", 5), "hi");
    }
}
