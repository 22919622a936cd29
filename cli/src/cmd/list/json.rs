//! `list --json` written by hand in serde_json's pretty format, byte for byte.
//!
//! serde_json checks every byte of every string against its escape table (~8 instructions
//! per byte: 5% of a 10,000-skill listing, bench/PROFILE.md item 101). Here a string with
//! nothing to escape — nearly all of them: ids, names, paths, most descriptions — is found
//! with one branch-free pass and written in one piece; any other string, and every nested
//! value (`status`, the diagnostics), still goes through serde_json, so the output cannot
//! differ from `serde_json::to_writer_pretty` (the tests compare both).

use super::{ListJson, ListedSkill, ShadowedEntry};
use serde::Serialize;
use std::io::{self, Write};
use std::path::Path;

/// Write `json` as `serde_json::to_writer_pretty` would.
pub fn write<W: Write>(out: &mut W, json: &ListJson<'_>) -> io::Result<()> {
    let mut top = Object::open(out, 0)?;
    top.key(b"profile")?;
    string(top.out, json.profile)?;
    top.key(b"skills")?;
    array(top.out, 1, &json.skills, skill)?;
    top.key(b"shadowed")?;
    array(top.out, 1, &json.shadowed, shadowed)?;
    top.key(b"diagnostics")?;
    nested(top.out, 1, &json.diagnostics)?;
    top.close()
}

fn skill<W: Write>(out: &mut W, depth: usize, s: &ListedSkill<'_>) -> io::Result<()> {
    let mut o = Object::open(out, depth)?;
    o.key(b"id")?;
    string(o.out, s.id)?;
    o.key(b"name")?;
    string(o.out, s.name)?;
    o.key(b"description")?;
    string(o.out, s.description)?;
    o.key(b"location")?;
    path(o.out, s.location)?;
    o.key(b"base_dir")?;
    path(o.out, s.base_dir)?;
    o.key(b"scope")?;
    // Its serde name (a test checks every scope): `nested` serialised it into a fresh
    // buffer per skill.
    string(o.out, s.scope.as_str())?;
    o.key(b"source")?;
    path(o.out, s.source)?;
    o.key(b"plugin")?;
    match s.plugin {
        Some(plugin) => string(o.out, plugin)?,
        None => o.out.write_all(b"null")?,
    }
    if let Some(kind) = &s.kind {
        o.key(b"kind")?;
        nested(o.out, depth + 1, kind)?;
    }
    if let Some(listed) = s.listed {
        o.key(b"listed")?;
        o.out.write_all(if listed { b"true" } else { b"false" })?;
    }
    if let Some(status) = s.status {
        o.key(b"status")?;
        nested(o.out, depth + 1, status)?;
    }
    o.close()
}

fn shadowed<W: Write>(out: &mut W, depth: usize, s: &ShadowedEntry<'_>) -> io::Result<()> {
    let mut o = Object::open(out, depth)?;
    o.key(b"id")?;
    string(o.out, s.id)?;
    o.key(b"location")?;
    path(o.out, s.location)?;
    o.key(b"winner")?;
    path(o.out, s.winner)?;
    o.key(b"reason")?;
    string(o.out, s.reason)?;
    o.close()
}

/// A pretty object at nesting `depth` (its members are one level deeper).
struct Object<'w, W: Write> {
    out: &'w mut W,
    depth: usize,
    empty: bool,
}

impl<'w, W: Write> Object<'w, W> {
    fn open(out: &'w mut W, depth: usize) -> io::Result<Self> {
        out.write_all(b"{")?;
        Ok(Object {
            out,
            depth,
            empty: true,
        })
    }

    /// `,` (after the first member), a new line, the indentation and `"key": `. Keys are
    /// field names, which need no escaping.
    fn key(&mut self, key: &[u8]) -> io::Result<()> {
        if !self.empty {
            self.out.write_all(b",")?;
        }
        self.empty = false;
        newline(self.out, self.depth + 1)?;
        self.out.write_all(b"\"")?;
        self.out.write_all(key)?;
        self.out.write_all(b"\": ")
    }

    fn close(self) -> io::Result<()> {
        if !self.empty {
            newline(self.out, self.depth)?;
        }
        self.out.write_all(b"}")
    }
}

fn newline<W: Write>(out: &mut W, depth: usize) -> io::Result<()> {
    const SPACES: &[u8] = &[b' '; 64];
    out.write_all(b"\n")?;
    let mut left = depth * 2;
    while left > 0 {
        let n = left.min(SPACES.len());
        out.write_all(&SPACES[..n])?;
        left -= n;
    }
    Ok(())
}

/// A pretty array at nesting `depth` of items written by `item` (one level deeper).
fn array<W: Write, T>(
    out: &mut W,
    depth: usize,
    items: &[T],
    item: fn(&mut W, usize, &T) -> io::Result<()>,
) -> io::Result<()> {
    if items.is_empty() {
        return out.write_all(b"[]");
    }
    out.write_all(b"[")?;
    for (n, value) in items.iter().enumerate() {
        if n > 0 {
            out.write_all(b",")?;
        }
        newline(out, depth + 1)?;
        item(out, depth + 1, value)?;
    }
    newline(out, depth)?;
    out.write_all(b"]")
}

/// Any value at nesting `depth`, by serde_json: its pretty form starts at depth 0, so every
/// line after the first is indented by `depth` more levels (JSON text holds no raw line
/// break inside a string, so every `\n` is one of the formatter's).
fn nested<W: Write, T: Serialize + ?Sized>(out: &mut W, depth: usize, value: &T) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(value).map_err(io::Error::from)?;
    let mut lines = text.split(|b| *b == b'\n');
    if let Some(first) = lines.next() {
        out.write_all(first)?;
    }
    for line in lines {
        newline(out, depth)?;
        out.write_all(line)?;
    }
    Ok(())
}

/// A JSON string: in one piece when nothing in it needs escaping, else serde_json's own.
fn string<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    if needs_escape(text.as_bytes()) {
        return serde_json::to_writer(out, text).map_err(io::Error::from);
    }
    out.write_all(b"\"")?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\"")
}

/// A path as `skilldeck::serialize_path_lossy` writes it.
fn path<W: Write>(out: &mut W, path: &Path) -> io::Result<()> {
    match path.to_str() {
        Some(text) => string(out, text),
        None => string(out, &path.to_string_lossy()),
    }
}

/// Whether serde_json would escape any byte: `"`, `\` and the C0 controls. Without an
/// early exit, so that the compiler can check many bytes per instruction.
fn needs_escape(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |any, &b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours<T>(value: &T, write: fn(&mut Vec<u8>, &T) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&mut out, value).unwrap_or_default();
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn scopes_as_serde_json_writes_them() {
        use skilldeck::Scope;
        for scope in [
            Scope::Managed,
            Scope::Admin,
            Scope::System,
            Scope::Project,
            Scope::User,
            Scope::Plugin,
            Scope::Extra,
        ] {
            let got = ours(&scope, |out, s| string(out, s.as_str()));
            let mut want = Vec::new();
            serde_json::to_writer_pretty(&mut want, &scope).unwrap_or_default();
            assert_eq!(got.as_bytes(), want, "{scope:?}");
        }
    }

    #[test]
    fn strings_as_serde_json_writes_them() {
        // Every byte serde_json treats specially, next to plain and multi-byte text.
        let mut texts: Vec<String> = (0u8..0x80).map(|b| format!("a{}b", b as char)).collect();
        texts.extend(["", "é", "技能 \u{7f} \u{2028}", "\"", "\\\\", "x\ny\tz"].map(String::from));
        for text in &texts {
            let got = ours(text, |out, t| string(out, t));
            assert_eq!(
                got,
                serde_json::to_string(text).unwrap_or_default(),
                "{text:?}"
            );
        }
    }

    /// Every field, odd text in each string, a path that is not UTF-8, with and without
    /// `--all`'s fields, empty and non-empty lists: the same bytes as serde_json.
    #[test]
    fn listing_as_serde_json_writes_it() {
        use skilldeck::{Diagnostic, Scope, SkillKind, Status};
        use std::os::unix::ffi::OsStrExt;
        let odd = Path::new(std::ffi::OsStr::from_bytes(b"/p/\xff\"q\"/SKILL.md"));
        let status = Status {
            enabled: false,
            reasons: vec!["disabled by \"option\"".into()],
            ..Default::default()
        };
        let skill = |id: &'static str, description: &'static str, all: bool| ListedSkill {
            id,
            name: id,
            description,
            location: Path::new("/p/a/SKILL.md"),
            base_dir: odd,
            scope: Scope::Project,
            source: Path::new("/p"),
            plugin: all.then_some("plug\u{1}in"),
            kind: all.then_some(SkillKind::Skill),
            listed: all.then_some(false),
            status: all.then_some(&status),
        };
        let diagnostics = [
            Diagnostic::warning("yaml-repaired", "read \"as\" text").at(3, Some(1)),
            Diagnostic::error("invalid-yaml", "tab\there"),
        ];
        for all in [false, true] {
            for n in [0, 1, 3] {
                let json = ListJson {
                    profile: "univ\\ersal",
                    skills: (0..n)
                        .map(|i| skill(["a", "b\n", "技能"][i], ["D.", "", "x\u{1f}y é"][i], all))
                        .collect(),
                    shadowed: (0..n)
                        .map(|_| ShadowedEntry {
                            id: "s",
                            location: odd,
                            winner: Path::new("/w"),
                            reason: "project beats user",
                        })
                        .collect(),
                    diagnostics: &diagnostics[..n.min(2)],
                };
                let mut want = Vec::new();
                serde_json::to_writer_pretty(&mut want, &json).unwrap_or_default();
                let got = ours(&json, |out, j| write(out, j));
                assert_eq!(got, String::from_utf8_lossy(&want), "all {all}, n {n}");
            }
        }
    }
}
