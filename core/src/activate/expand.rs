//! Opt-in expansions of a skill body: `` !`command` `` blocks and `@path` file references.
//!
//! Both are left untouched unless the caller supplies a [`CommandRunner`] (and a
//! [`CommandPolicy`] that allows the command) or a [`FileReader`], because running commands
//! or inlining files on behalf of a skill someone else wrote is a decision for the host,
//! never a default. A `@path` must stay inside the skill directory or the project directory
//! after resolving `..` and symlinks; anything else stays literal.

use std::path::{Path, PathBuf};

/// Runs the command of a `` !`command` `` block in `cwd` (the skill directory) and returns
/// its output, or an error message that replaces the block.
pub trait CommandRunner: Send + Sync {
    fn run(&self, command: &str, cwd: &Path) -> Result<String, String>;
}

/// Reads a file referenced as `@path` (already checked to be inside an allowed directory).
pub trait FileReader: Send + Sync {
    fn read(&self, path: &Path) -> Result<String, String>;
}

/// Reads files from the local filesystem.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsReader;

impl FileReader for FsReader {
    fn read(&self, path: &Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Runs a command with the system shell (`sh -c`; `cmd /C` on Windows) in `cwd`; the
/// output is its standard output, a failure its status and standard error.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShellRunner;

impl CommandRunner for ShellRunner {
    fn run(&self, command: &str, cwd: &Path) -> Result<String, String> {
        let (shell, flag) = if cfg!(windows) {
            ("cmd", "/C")
        } else {
            ("sh", "-c")
        };
        let output = std::process::Command::new(shell)
            .arg(flag)
            .arg(command)
            .current_dir(cwd)
            .output()
            .map_err(|e| e.to_string())?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "{}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }
}

/// Which `` !`command` `` blocks may run; the default runs none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CommandPolicy {
    /// No command runs (the default).
    #[default]
    Deny,
    /// Commands whose first word is in this list.
    AllowPrograms(Vec<String>),
}

impl CommandPolicy {
    pub fn allows(&self, command: &str) -> bool {
        match self {
            CommandPolicy::Deny => false,
            CommandPolicy::AllowPrograms(list) => command
                .split_whitespace()
                .next()
                .is_some_and(|p| list.iter().any(|a| a == p)),
        }
    }
}

/// What the caller lets activation do beyond substitution.
#[derive(Clone, Copy, Default)]
pub struct Expansions<'a> {
    pub runner: Option<&'a dyn CommandRunner>,
    pub commands: Option<&'a CommandPolicy>,
    pub reader: Option<&'a dyn FileReader>,
}

impl std::fmt::Debug for Expansions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expansions")
            .field("runner", &self.runner.is_some())
            .field("commands", &self.commands)
            .field("reader", &self.reader.is_some())
            .finish()
    }
}

/// Replace allowed `` !`command` `` blocks with their output.
pub fn run_commands(
    body: &str,
    cwd: &Path,
    runner: &dyn CommandRunner,
    policy: &CommandPolicy,
) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("!`") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(close) = after.find('`') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let command = &after[..close];
        if !command.trim().is_empty() && !command.contains('\n') && policy.allows(command) {
            match runner.run(command, cwd) {
                Ok(output) => out.push_str(output.trim_end_matches('\n')),
                Err(message) => out.push_str(&format!("[command `{command}` failed: {message}]")),
            }
        } else {
            out.push_str(&rest[at..at + 2 + close + 1]);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Where `reference` (as written after `@`) points, if it stays inside one of `roots`.
/// Relative references are resolved against the skill directory; symlinks and `..` are
/// resolved before the check, so neither can lead outside.
pub fn contained(reference: &str, skill_dir: &Path, roots: &[&Path]) -> Option<PathBuf> {
    let candidate = Path::new(reference);
    let joined = if candidate.is_absolute() {
        candidate.to_path_buf()
    } else {
        skill_dir.join(candidate)
    };
    let real = std::fs::canonicalize(&joined).ok()?;
    let inside = roots.iter().any(|root| {
        std::fs::canonicalize(root)
            .map(|r| real.starts_with(r))
            .unwrap_or(false)
    });
    (inside && real.is_file()).then_some(real)
}

/// Replace `@path` references (at the start of a line or after whitespace) with the file's
/// contents, when the file is inside the skill or project directory.
pub fn read_files(
    body: &str,
    skill_dir: &Path,
    project_dir: &Path,
    reader: &dyn FileReader,
) -> String {
    let roots = [skill_dir, project_dir];
    let mut out = String::with_capacity(body.len());
    let mut prev_is_space = true;
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '@' && prev_is_space {
            let rest = &body[i + 1..];
            let len = rest
                .find(|ch: char| {
                    ch.is_whitespace() || matches!(ch, '`' | '"' | '\'' | ')' | ']' | ',' | ';')
                })
                .unwrap_or(rest.len());
            // A trailing period ends the sentence, not the file name.
            let reference = rest[..len].trim_end_matches(['.', ':']);
            if !reference.is_empty() {
                if let Some(path) = contained(reference, skill_dir, &roots) {
                    if let Ok(text) = reader.read(&path) {
                        out.push_str(&text);
                        let end = i + 1 + reference.len();
                        while chars.peek().is_some_and(|(j, _)| *j < end) {
                            chars.next();
                        }
                        prev_is_space = text.ends_with(char::is_whitespace);
                        continue;
                    }
                }
            }
        }
        out.push(c);
        prev_is_space = c.is_whitespace();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;
    impl CommandRunner for Echo {
        fn run(&self, command: &str, _: &Path) -> Result<String, String> {
            if command.starts_with("fail") {
                Err("boom".into())
            } else {
                Ok(format!("<{command}>\n"))
            }
        }
    }

    #[test]
    fn commands_need_a_policy() {
        let body = "a !`date -u` b !`rm -rf x` c !`fail` d !`open";
        let policy = CommandPolicy::AllowPrograms(vec!["date".into(), "fail".into()]);
        assert_eq!(
            run_commands(body, Path::new("/"), &Echo, &policy),
            "a <date -u> b !`rm -rf x` c [command `fail` failed: boom] d !`open"
        );
        assert_eq!(
            run_commands(body, Path::new("/"), &Echo, &CommandPolicy::Deny),
            body
        );
    }

    #[test]
    fn file_references_stay_inside() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        let skill = root.join("project/skills/s");
        std::fs::create_dir_all(skill.join("ref")).expect("mkdir");
        std::fs::write(skill.join("ref/a.md"), "A").expect("write");
        std::fs::write(root.join("project/notes.md"), "N").expect("write");
        std::fs::write(root.join("secret.txt"), "S").expect("write");
        std::os::unix::fs::symlink(root.join("secret.txt"), skill.join("link.txt")).expect("link");
        let project = root.join("project");
        let body = "see @ref/a.md. and @../../notes.md and @../../../secret.txt and @link.txt and a@ref/a.md";
        assert_eq!(
            read_files(body, &skill, &project, &FsReader),
            "see A. and N and @../../../secret.txt and @link.txt and a@ref/a.md"
        );
        let abs = format!("@{}", root.join("secret.txt").display());
        assert_eq!(read_files(&abs, &skill, &project, &FsReader), abs);
    }
}
