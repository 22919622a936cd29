//! A root's pattern matched against each walked file.
//!
//! Profiles' patterns are nearly all `**/SKILL.md`, `*/SKILL.md`, `SKILL.md` or a `{..,..}`
//! of those. globset runs a regex for each file (~780 instructions, 2.6% of a 10,000-skill
//! `list`, bench/PROFILE.md item 103); those shapes are decided here from the path's bytes,
//! and every other pattern still goes to globset. The test compares both on every path of
//! up to five pieces.

use globset::GlobMatcher;
use std::path::Path;

/// A compiled root pattern.
#[derive(Clone, Debug)]
pub(super) struct RootGlob {
    glob: GlobMatcher,
    /// The pattern's alternatives when each is one of the shapes read by bytes.
    names: Option<Vec<Alternative>>,
}

/// How many directories may come before the file name.
#[derive(Clone, Copy, Debug)]
enum Dirs {
    /// `NAME`: none.
    None,
    /// `*/NAME`: one (whose name has no `/`, possibly empty).
    One,
    /// `**/NAME`: any number.
    Any,
}

#[derive(Clone, Debug)]
struct Alternative {
    dirs: Dirs,
    name: Box<[u8]>,
}

impl RootGlob {
    pub(super) fn new(glob: GlobMatcher) -> Self {
        let names = alternatives(glob.glob().glob());
        RootGlob { glob, names }
    }

    pub(super) fn is_match(&self, path: &Path) -> bool {
        #[cfg(unix)]
        if let Some(names) = &self.names {
            use std::os::unix::ffi::OsStrExt;
            let bytes = path.as_os_str().as_bytes();
            return names.iter().any(|a| a.matches(bytes));
        }
        self.glob.is_match(path)
    }
}

impl Alternative {
    /// globset's regex for each shape (with `literal_separator`): `^NAME$`,
    /// `^[^/]*/NAME$` and `^(?:/?|.*/)NAME$`.
    fn matches(&self, path: &[u8]) -> bool {
        let Some(dirs) = path.strip_suffix(&*self.name) else {
            return false;
        };
        match self.dirs {
            Dirs::None => dirs.is_empty(),
            Dirs::One => dirs
                .split_last()
                .is_some_and(|(last, before)| *last == b'/' && !before.contains(&b'/')),
            Dirs::Any => dirs.is_empty() || dirs.ends_with(b"/"),
        }
    }
}

/// The alternatives of `pattern` if every one is `NAME`, `*/NAME` or `**/NAME` with a
/// NAME of letters, digits, `.`, `_` and `-` (nothing globset reads as syntax).
fn alternatives(pattern: &str) -> Option<Vec<Alternative>> {
    let inner = pattern.strip_prefix('{').and_then(|p| p.strip_suffix('}'));
    let parts: Vec<&str> = match inner {
        Some(inner) => inner.split(',').collect(),
        None => vec![pattern],
    };
    parts
        .into_iter()
        .map(|part| {
            let (dirs, name) = if let Some(name) = part.strip_prefix("**/") {
                (Dirs::Any, name)
            } else if let Some(name) = part.strip_prefix("*/") {
                (Dirs::One, name)
            } else {
                (Dirs::None, part)
            };
            let plain = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
            plain.then(|| Alternative {
                dirs,
                name: name.as_bytes().into(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_answers_as_globset() {
        let patterns = [
            "**/SKILL.md",
            "*/SKILL.md",
            "SKILL.md",
            "{SKILL.md,**/SKILL.md}",
            "{SKILL.md,*/SKILL.md}",
            "{*/SKILL.md,**/a.md}",
            "**/*.md",
            "{SKILL.md,{a,b}}",
            "{,SKILL.md}",
            "**/S?ILL.md",
            "a/**/SKILL.md",
        ];
        let pieces = [
            "SKILL.md",
            "a",
            "/",
            "//",
            ".",
            "x.md",
            "SKILL.mdx",
            "a.md",
            "sKILL.md",
        ];
        let mut paths = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|p| pieces.iter().map(move |x| format!("{p}{x}")))
                .collect();
            paths.extend(last.iter().cloned());
        }
        let mut shortcut = 0;
        for pattern in patterns {
            let glob = super::super::matcher(pattern).expect("compiles");
            let ours = RootGlob::new(glob.clone());
            shortcut += usize::from(ours.names.is_some());
            for path in &paths {
                assert_eq!(
                    ours.is_match(Path::new(path)),
                    glob.is_match(Path::new(path)),
                    "{pattern} {path:?}"
                );
            }
        }
        assert_eq!(shortcut, 6, "the shapes read by bytes");
    }
}
