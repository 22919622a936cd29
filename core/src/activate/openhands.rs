//! The OpenHands SDK's `invoke_skill` answer (`openhands-sdk` 1.44.1,
//! `openhands/sdk/tool/builtins/invoke_skill.py` `InvokeSkillExecutor`): the skill's content
//! (python-frontmatter's body, stripped) and a footer naming the skill's directory.
//! Recorded with the SDK's own executor: `tests/vectors/activate/oracle-openhands-format-*`.

use crate::catalog::Skill;
use std::path::Path;

/// The content, then `_append_skill_location_footer`. The host also runs `` !`command` ``
/// blocks (`render_content_with_commands`) in the working directory; this format leaves them
/// as written, since skilldeck runs no command the caller did not allow.
pub(super) fn invoke_skill(skill: &Skill, raw: &str, project_dir: &Path) -> String {
    // `open(path, encoding="utf-8")` reads with universal newlines.
    let content = raw.replace("\r\n", "\n").replace('\r', "\n");
    let content = content.trim_matches(is_py_space);
    match location(&skill.location, project_dir) {
        Some(dir) => format!(
            "{content}\n\n---\nThis skill is located at `{dir}`. Any files it references (e.g. under `scripts/`, `references/`, `assets/`) are relative to that directory."
        ),
        None => content.to_string(),
    }
}

/// Python's `str.isspace` (what `str.strip()` removes): Unicode white space plus the
/// separators U+001C..U+001F, which Rust's `char::is_whitespace` leaves out.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The resolved skill directory, relative to the resolved working directory when it lies
/// inside it (so no home path reaches the model), else absolute; `None` when the SKILL.md
/// cannot be resolved (the host then adds no footer).
fn location(skill_md: &Path, project_dir: &Path) -> Option<String> {
    let resolved = std::fs::canonicalize(skill_md).ok()?;
    let dir = resolved.parent()?;
    let shown = std::fs::canonicalize(project_dir)
        .ok()
        .and_then(|work| dir.strip_prefix(work).ok().map(Path::to_path_buf))
        .map(|rel| {
            if rel.as_os_str().is_empty() {
                ".".into()
            } else {
                rel
            }
        })
        .unwrap_or_else(|| dir.to_path_buf());
    Some(shown.to_string_lossy().into_owned())
}
