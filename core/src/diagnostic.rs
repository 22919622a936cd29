//! Diagnostics: every problem the engine finds in a user's files becomes one of these,
//! never a panic and never a silent drop.

use crate::shared_path::SharedPath;
use crate::shared_str::SharedStr;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::path::Path;

/// How bad a diagnostic is. `Error` makes a skill invalid (strict) or unloadable (lenient).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one file. `code` is a stable kebab-case identifier (e.g. `name-mismatch`)
/// that tests and hosts may match on; `message` is for humans and may change.
///
/// A loaded deck keeps the lenient diagnostics of every file (most real-world files have
/// some), so they are compact: `code` and `hint` borrow the engine's static text when they
/// are one (nearly always), and `path` is shared with the skill's location and with the
/// other diagnostics of the same file instead of a copy each. `message` is a [`SharedStr`]
/// (reads as a `&str`) so that the warnings thousands of files repeat ("unknown
/// frontmatter key `source`") share one buffer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: Cow<'static, str>,
    pub severity: Severity,
    pub path: Option<SharedPath>,
    /// 1-based line in the file, when known.
    pub line: Option<u32>,
    /// 1-based column (in characters), when known.
    pub column: Option<u32>,
    pub message: SharedStr,
    /// What to do about it.
    pub hint: Option<Cow<'static, str>>,
}

impl Diagnostic {
    pub fn new(
        code: impl Into<Cow<'static, str>>,
        severity: Severity,
        message: impl Into<SharedStr>,
    ) -> Self {
        // A `String` becomes a block of its exact length (`format!` reserves about twice
        // its literal text, `bench/PROFILE.md` item 112); a message that many files repeat
        // is passed as a `SharedStr::interned` and shares its buffer.
        Diagnostic {
            code: code.into(),
            severity,
            path: None,
            line: None,
            column: None,
            message: message.into(),
            hint: None,
        }
    }

    pub fn error(code: impl Into<Cow<'static, str>>, message: impl Into<SharedStr>) -> Self {
        Self::new(code, Severity::Error, message)
    }

    pub fn warning(code: impl Into<Cow<'static, str>>, message: impl Into<SharedStr>) -> Self {
        Self::new(code, Severity::Warning, message)
    }

    pub fn info(code: impl Into<Cow<'static, str>>, message: impl Into<SharedStr>) -> Self {
        Self::new(code, Severity::Info, message)
    }

    /// The file it is about (copied; see [`Diagnostic::with_shared_path`]).
    pub fn with_path(mut self, path: impl AsRef<Path>) -> Self {
        self.path = Some(SharedPath::from(path.as_ref()));
        self
    }

    /// The file it is about, sharing the caller's buffer: how the many diagnostics of a
    /// loaded deck point at their skill's location without a copy of the path each.
    pub fn with_shared_path(mut self, path: SharedPath) -> Self {
        self.path = Some(path);
        self
    }

    pub fn at(mut self, line: u32, column: Option<u32>) -> Self {
        self.line = Some(line);
        self.column = column;
        self
    }

    pub fn with_hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `diagnostics` as a shared slice, as a skill and the deck's parse cache hold them.
    /// Every empty list is one buffer: most files have no diagnostics, and an empty
    /// `Arc<[T]>` is still an allocation.
    pub fn shared(diagnostics: Vec<Diagnostic>) -> std::sync::Arc<[Diagnostic]> {
        static EMPTY: std::sync::OnceLock<std::sync::Arc<[Diagnostic]>> =
            std::sync::OnceLock::new();
        if diagnostics.is_empty() {
            std::sync::Arc::clone(EMPTY.get_or_init(|| std::sync::Arc::from([])))
        } else {
            diagnostics.into()
        }
    }

    /// Point every diagnostic whose path is `path` at the one shared buffer (dropping their
    /// own copies): what a deck does before keeping a file's diagnostics.
    pub fn share_path(diagnostics: &mut [Diagnostic], path: &SharedPath) {
        for d in diagnostics {
            if let Some(own) = &mut d.path {
                if !own.ptr_eq(path) && own.as_os_str() == path.as_os_str() {
                    *own = path.clone();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_text_is_borrowed_and_json_is_unchanged() {
        let d = Diagnostic::warning("unknown-key", format!("unknown key `{}`", "x"))
            .with_path("/p/SKILL.md")
            .at(2, Some(1))
            .with_hint("remove it");
        assert!(matches!(d.code, Cow::Borrowed(_)));
        assert!(matches!(d.hint, Some(Cow::Borrowed(_))));
        let json = serde_json::to_string(&d).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"code":"unknown-key","severity":"warning","path":"/p/SKILL.md","line":2,"column":1,"message":"unknown key `x`","hint":"remove it"}"#
        );
        let back: Result<Diagnostic, _> = serde_json::from_str(&json);
        assert_eq!(back.ok(), Some(d));
    }

    #[test]
    fn an_interned_message_is_shared() {
        let key = "source";
        let text = format!("unknown frontmatter key `{key}`");
        let a = Diagnostic::warning("unknown-key", SharedStr::interned(&text));
        let b = Diagnostic::warning("unknown-key", SharedStr::interned(&text));
        assert!(a.message.ptr_eq(&b.message));
        assert_eq!(a.message, text);
    }

    #[test]
    fn paths_equal_to_the_shared_one_share_its_buffer() {
        let shared = SharedPath::from(Path::new("/p/SKILL.md"));
        let mut ds = vec![
            Diagnostic::warning("a", "m").with_path("/p/SKILL.md"),
            Diagnostic::warning("b", "m").with_path("/q/SKILL.md"),
            Diagnostic::warning("c", "m"),
        ];
        Diagnostic::share_path(&mut ds, &shared);
        assert!(ds[0].path.as_ref().is_some_and(|p| p.ptr_eq(&shared)));
        assert_eq!(ds[1].path.as_deref(), Some(Path::new("/q/SKILL.md")));
        assert_eq!(ds[2].path, None);
    }
}
