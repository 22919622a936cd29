//! What to execute: a script named inside `scripts/` (links resolved, never outside), a
//! command skill's `command` line, and the interpreter for a file (shebang, else extension).

use crate::error::RunError;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

/// A program and its leading arguments (the interpreter and the script, or the command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// Resolve `name` inside `skill_dir/scripts`: relative, no `..`, and after resolving links
/// still inside `scripts/` and a regular file.
pub fn resolve_script(skill_dir: &Path, name: &str) -> Result<PathBuf, RunError> {
    let refuse = |reason: &str| RunError::ScriptRefused {
        path: PathBuf::from(name),
        reason: reason.to_string(),
    };
    let rel = Path::new(name);
    if name.is_empty() {
        return Err(refuse("empty script name"));
    }
    if rel.is_absolute() || rel.has_root() {
        return Err(refuse(
            "an absolute path; name a file inside the skill's scripts/",
        ));
    }
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(refuse(
            "`..` leaves the skill's scripts/; name a file inside it",
        ));
    }
    let scripts = skill_dir
        .join("scripts")
        .canonicalize()
        .map_err(|_| refuse("the skill has no scripts/ directory"))?;
    let path = scripts
        .join(rel)
        .canonicalize()
        .map_err(|_| refuse("no such script in the skill's scripts/"))?;
    if !path.starts_with(&scripts) {
        return Err(refuse("a link that points outside the skill's scripts/"));
    }
    if !path.is_file() {
        return Err(refuse("not a file"));
    }
    Ok(path)
}

/// How to run the file `path` with `search_path` as `PATH`: its shebang (`#!/usr/bin/env
/// python3`, `#!/bin/sh -e`), else its extension (`.py`, `.sh`, `.js`, `.ts`), else the file
/// itself when executable.
pub fn interpreter_for(path: &Path, search_path: Option<&OsStr>) -> Result<Invocation, RunError> {
    let no = |message: String| RunError::NoInterpreter {
        path: path.to_path_buf(),
        message,
    };
    let script = path.to_string_lossy().into_owned();
    if let Some(line) = shebang(path) {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        let mut rest: Vec<String> = words.map(str::to_string).collect();
        let (program, args) = if Path::new(first).file_name() == Some(OsStr::new("env")) {
            // `#!/usr/bin/env -S python3 -u` and `#!/usr/bin/env python3`.
            if rest.first().map(String::as_str) == Some("-S") {
                rest.remove(0);
            }
            if rest.is_empty() {
                return Err(no("the shebang names `env` without a program".into()));
            }
            let program = rest.remove(0);
            (find_program(&program, search_path), rest)
        } else {
            (Some(PathBuf::from(first)), rest)
        };
        let program = program.ok_or_else(|| {
            no(format!(
                "the shebang's interpreter `{line}` is not installed or not on PATH"
            ))
        })?;
        let mut args = args;
        args.push(script);
        return Ok(Invocation { program, args });
    }
    let ext = path.extension().and_then(OsStr::to_str).unwrap_or_default();
    let candidates: &[(&str, &[&str])] = match ext {
        "py" => &[("python3", &[]), ("python", &[])],
        "sh" => &[("bash", &[]), ("sh", &[])],
        "js" | "mjs" | "cjs" => &[("node", &[]), ("bun", &[]), ("deno", &["run"])],
        "ts" | "mts" => &[("bun", &[]), ("deno", &["run"]), ("tsx", &[])],
        _ => {
            if is_executable(path) {
                return Ok(Invocation {
                    program: path.to_path_buf(),
                    args: Vec::new(),
                });
            }
            return Err(no(
                "no shebang line and no known extension (.py, .sh, .js, .ts); add a `#!` line"
                    .into(),
            ));
        }
    };
    for (name, pre) in candidates {
        if let Some(program) = find_program(name, search_path) {
            let mut args: Vec<String> = pre.iter().map(|s| s.to_string()).collect();
            args.push(script);
            return Ok(Invocation { program, args });
        }
    }
    let names: Vec<&str> = candidates.iter().map(|(n, _)| *n).collect();
    Err(no(format!(
        "no runtime for `.{ext}` on PATH (looked for {}); install one",
        names.join(", ")
    )))
}

/// A command skill's `command`: split like a shell would (quotes, no expansion); a first
/// word that names a file in the skill directory is that file (through its interpreter),
/// else a program on `PATH`.
pub fn command_invocation(
    skill_dir: &Path,
    command: &str,
    search_path: Option<&OsStr>,
) -> Result<Invocation, RunError> {
    let not_runnable = |message: String| RunError::NotRunnable {
        skill: skill_dir.display().to_string(),
        message,
    };
    let words = shlex::split(command)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| not_runnable(format!("`command: {command}` has an unclosed quote")))?;
    let Some((first, rest)) = words.split_first() else {
        return Err(not_runnable("`command` is empty".into()));
    };
    let rest = rest.to_vec();
    let local = skill_dir.join(first);
    if !Path::new(first).is_absolute() && local.is_file() {
        let base = skill_dir
            .canonicalize()
            .map_err(|e| RunError::io(skill_dir, e))?;
        let path = local.canonicalize().map_err(|e| RunError::io(&local, e))?;
        if !path.starts_with(&base) {
            return Err(RunError::ScriptRefused {
                path: PathBuf::from(first),
                reason: "the command leaves the skill directory".into(),
            });
        }
        let mut invocation = interpreter_for(&path, search_path)?;
        invocation.args.extend(rest);
        return Ok(invocation);
    }
    let program = find_program(first, search_path).ok_or_else(|| {
        not_runnable(format!(
            "`{first}` (from `command: {command}`) is neither a file in the skill directory nor a program on PATH"
        ))
    })?;
    Ok(Invocation {
        program,
        args: rest,
    })
}

fn shebang(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let mut file = std::fs::File::open(path).ok()?;
    let n = file.read(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head[..n]);
    let line = text.strip_prefix("#!")?.lines().next()?.trim().to_string();
    (!line.is_empty()).then_some(line)
}

/// `name` on `search_path` (a name with a `/` is taken as a path).
pub fn find_program(name: &str, search_path: Option<&OsStr>) -> Option<PathBuf> {
    if name.contains('/') {
        let path = PathBuf::from(name);
        return is_executable(&path).then_some(path);
    }
    std::env::split_paths(search_path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("scripts/sub")).expect("mkdir");
        std::fs::write(dir.path().join("scripts/a.sh"), "echo hi\n").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "x").expect("write");
        dir
    }

    #[test]
    fn dotdot_absolute_and_missing_are_refused() {
        let dir = skill();
        for name in [
            "../secret.txt",
            "sub/../../secret.txt",
            "/etc/passwd",
            "",
            "nope.sh",
        ] {
            assert!(
                matches!(
                    resolve_script(dir.path(), name),
                    Err(RunError::ScriptRefused { .. })
                ),
                "{name}"
            );
        }
        assert!(resolve_script(dir.path(), "a.sh").is_ok());
        assert!(resolve_script(dir.path(), "./a.sh").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_pointing_out_is_refused() {
        let dir = skill();
        std::os::unix::fs::symlink(
            dir.path().join("secret.txt"),
            dir.path().join("scripts/link"),
        )
        .expect("symlink");
        let err = resolve_script(dir.path(), "link");
        assert!(
            matches!(&err, Err(RunError::ScriptRefused { reason, .. }) if reason.contains("link")),
            "{err:?}"
        );
    }

    #[test]
    fn shebang_then_extension() {
        let dir = skill();
        let path = std::env::var_os("PATH");
        let sh = dir.path().join("scripts/a.sh");
        let inv = interpreter_for(&sh, path.as_deref()).expect("sh");
        assert!(inv.program.ends_with("bash") || inv.program.ends_with("sh"));
        let env_sh = dir.path().join("scripts/b");
        std::fs::write(&env_sh, "#!/usr/bin/env sh\necho\n").expect("write");
        let inv = interpreter_for(&env_sh, path.as_deref()).expect("env sh");
        assert!(inv.program.ends_with("sh"));
        assert_eq!(inv.args.last().map(String::as_str), env_sh.to_str());
        let unknown = dir.path().join("scripts/c.xyz");
        std::fs::write(&unknown, "data").expect("write");
        assert!(matches!(
            interpreter_for(&unknown, path.as_deref()),
            Err(RunError::NoInterpreter { .. })
        ));
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let dir = skill();
        let path = std::env::var_os("PATH");
        let inv =
            command_invocation(dir.path(), "sh -c 'echo two words'", path.as_deref()).expect("sh");
        assert_eq!(inv.args, ["-c", "echo two words"]);
        let inv = command_invocation(dir.path(), "scripts/a.sh --x", path.as_deref()).expect("a");
        assert_eq!(inv.args.last().map(String::as_str), Some("--x"));
        assert!(command_invocation(dir.path(), "no-such-program-xyz", path.as_deref()).is_err());
        assert!(command_invocation(dir.path(), "sh 'unclosed", path.as_deref()).is_err());
    }
}
