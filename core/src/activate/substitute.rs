//! Argument and variable substitution in a skill body.
//!
//! Placeholders, scanned left to right in one pass (a substituted value is never scanned
//! again, so arguments cannot inject placeholders):
//! - `\$` is a literal `$`;
//! - `$ARGUMENTS` is the whole argument string, `$ARGUMENTS[N]` and `$N` the N-th argument
//!   (0-based, shell-style quoting); a missing indexed argument stays literal;
//! - `$name` for a name declared in the `arguments` frontmatter is the argument at that
//!   position, empty when missing;
//! - `${NAME}` is a known variable (`CLAUDE_SKILL_DIR`, `SKILL_DIR`, `CLAUDE_PROJECT_DIR`,
//!   `CLAUDE_SESSION_ID` when a session id is given, and the caller's variables); unknown
//!   names stay literal.
//!
//! When the body has no argument placeholder and the arguments are not blank, a final
//! `ARGUMENTS: <args>` paragraph is appended so the model still sees them.

use std::collections::BTreeMap;

/// Everything a substitution needs.
pub struct Context<'a> {
    pub args: &'a str,
    /// Names from the `arguments` frontmatter, in position order.
    pub names: &'a [String],
    pub vars: &'a BTreeMap<String, String>,
}

/// Split an argument string the way a POSIX shell would (without expansions): whitespace
/// separates words; single quotes keep everything; double quotes keep everything but `\"`
/// and `\\`; a backslash outside quotes escapes the next character. An unclosed quote runs
/// to the end of the string.
pub fn split_args(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"') | Some('\\')) => {
                            if let Some(n) = chars.next() {
                                word.push(n);
                            }
                        }
                        q => word.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Substitute `body`; returns the new text and whether any argument placeholder was seen.
pub fn substitute(body: &str, ctx: &Context<'_>) -> (String, bool) {
    let words = split_args(ctx.args);
    let mut out = String::with_capacity(body.len());
    let mut saw_argument = false;
    let mut rest = body;
    while let Some(at) = rest.find(['$', '\\']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("\\$") {
            out.push('$');
            rest = after;
            continue;
        }
        if let Some(after) = tail.strip_prefix('\\') {
            out.push('\\');
            rest = after;
            continue;
        }
        let (replacement, consumed, is_arg) = placeholder(&tail[1..], &words, ctx);
        match replacement {
            Some(text) => {
                out.push_str(&text);
                rest = &tail[1 + consumed..];
            }
            None => {
                out.push('$');
                rest = &tail[1..];
            }
        }
        saw_argument |= is_arg;
    }
    out.push_str(rest);
    (out, saw_argument)
}

/// Interpret the text after a `$`: (replacement or `None` to keep it literal, bytes
/// consumed after the `$`, whether it is an argument placeholder).
fn placeholder(s: &str, words: &[String], ctx: &Context<'_>) -> (Option<String>, usize, bool) {
    if let Some(after) = s.strip_prefix("ARGUMENTS") {
        if let Some(inner) = after.strip_prefix('[') {
            if let Some(close) = inner.find(']') {
                if let Ok(n) = inner[..close].parse::<usize>() {
                    let consumed = "ARGUMENTS[".len() + close + 1;
                    return (words.get(n).cloned(), consumed, true);
                }
            }
        }
        if !after.starts_with(is_ident) {
            return (Some(ctx.args.to_string()), "ARGUMENTS".len(), true);
        }
    }
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let n = s[..digits].parse::<usize>().ok();
        return (n.and_then(|n| words.get(n).cloned()), digits, true);
    }
    if let Some(inner) = s.strip_prefix('{') {
        if let Some(close) = inner.find('}') {
            let name = &inner[..close];
            return (ctx.vars.get(name).cloned(), close + 2, false);
        }
        return (None, 0, false);
    }
    let run: usize = s
        .chars()
        .take_while(|c| is_ident(*c))
        .map(char::len_utf8)
        .sum();
    // The longest declared name that the identifier run starts with, ending on a word
    // boundary (so `$file` does not eat the `-name` of `$file-name` unless declared).
    let best = ctx
        .names
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            !n.is_empty()
                && s[..run].starts_with(n.as_str())
                && !s[n.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .max_by_key(|(_, n)| n.len());
    match best {
        Some((i, n)) => (
            Some(words.get(i).cloned().unwrap_or_default()),
            n.len(),
            true,
        ),
        None => (None, 0, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str, args: &str, names: &[&str]) -> (String, bool) {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let vars = BTreeMap::from([("SKILL_DIR".to_string(), "/s".to_string())]);
        substitute(
            body,
            &Context {
                args,
                names: &names,
                vars: &vars,
            },
        )
    }

    #[test]
    fn shell_words() {
        assert_eq!(
            split_args(r#"a 'b c' "d \"e\"" f\ g  "#),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_args("''"), vec![""]);
        assert_eq!(split_args("'unclosed x"), vec!["unclosed x"]);
        assert!(split_args("   ").is_empty());
    }

    #[test]
    fn placeholders() {
        assert_eq!(
            run(
                "$ARGUMENTS|$0|$ARGUMENTS[1]|$2|${SKILL_DIR}",
                "x 'y z'",
                &[]
            )
            .0,
            "x 'y z'|x|y z|$2|/s"
        );
        assert_eq!(
            run("\\$ARGUMENTS costs \\$5", "a", &[]),
            ("$ARGUMENTS costs $5".into(), false)
        );
        assert_eq!(
            run("$file-name/$file/$other", "a b", &["file", "file-name"]).0,
            "b/a/$other"
        );
        assert_eq!(run("[$who]", "", &["who"]).0, "[]");
        assert_eq!(
            run("${UNKNOWN} $ $ARGUMENTSX", "a", &[]).0,
            "${UNKNOWN} $ $ARGUMENTSX"
        );
        assert_eq!(run("$0 then $ARGUMENTS", "'$1' b", &[]).0, "$1 then '$1' b");
    }
}
