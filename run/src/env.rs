//! The child's environment: an allowlist, never the caller's whole environment.

use std::ffi::OsString;
use std::path::Path;

/// Locale variables passed through (formatting and encodings, no secrets).
const LOCALE: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_COLLATE",
    "LC_MESSAGES",
    "LC_MONETARY",
    "LC_NUMERIC",
    "LC_TIME",
    "TZ",
];

/// `PATH`, locale and the skill's `requires.env` from `caller`; `HOME` and `TMPDIR` point
/// into the work directory; `SKILL_DIR` is the skill's directory. Nothing else.
pub fn child_env(
    caller: impl Fn(&str) -> Option<OsString>,
    declared: &[String],
    work: &Path,
    tmp: &Path,
    skill_dir: &Path,
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = Vec::new();
    for name in ["PATH"]
        .iter()
        .chain(LOCALE)
        .copied()
        .chain(declared.iter().map(String::as_str))
    {
        if matches!(name, "HOME" | "TMPDIR" | "SKILL_DIR") {
            continue;
        }
        if let Some(value) = caller(name) {
            env.push((name.into(), value));
        }
    }
    env.push(("HOME".into(), work.into()));
    env.push(("TMPDIR".into(), tmp.into()));
    env.push(("SKILL_DIR".into(), skill_dir.into()));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_allowlist_passes() {
        let caller = |name: &str| match name {
            "PATH" | "LANG" | "API_TOKEN" | "SECRET" | "HOME" => Some(OsString::from("v")),
            _ => None,
        };
        let env = child_env(
            caller,
            &["API_TOKEN".into(), "HOME".into()],
            Path::new("/w"),
            Path::new("/w/.tmp"),
            Path::new("/s"),
        );
        let names: Vec<_> = env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["PATH", "LANG", "API_TOKEN", "HOME", "TMPDIR", "SKILL_DIR"]
        );
        assert_eq!(env[3].1, OsString::from("/w"));
    }
}
