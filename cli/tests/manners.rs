//! CLI manners: completions, `--color`, tables that fit, helpful number errors.

use std::path::Path;
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// `skilldeck ARGS` with a clean colour environment plus `env`.
fn skilldeck(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilldeck"));
    command
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env("TERM", "xterm-256color");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("run skilldeck")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A project with one skill with a long description and one with a warning.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let long = "Extract text and tables from PDF files, fill PDF forms, merge and split \
                documents, and convert scanned pages with OCR when the text layer is missing.";
    write(
        &dir.path().join("project/.agents/skills/pdf/SKILL.md"),
        &format!("---\nname: pdf\ndescription: {long}\n---\nBody.\n"),
    );
    write(
        &dir.path().join("project/.agents/skills/odd/SKILL.md"),
        "---\nname: odd\ndescription: [unclosed\n---\nBody.\n",
    );
    std::fs::create_dir_all(dir.path().join("home")).expect("home");
    dir
}

fn list(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let project = dir.join("project");
    let home = dir.join("home");
    let mut args = vec![
        "list",
        "--project",
        project.to_str().expect("utf-8"),
        "--home",
        home.to_str().expect("utf-8"),
        "--no-host-settings",
    ];
    args.extend_from_slice(extra);
    skilldeck(&args, env)
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = skilldeck(&["completions", shell], &[]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(script.contains("skilldeck"), "{shell}: {script}");
        assert!(script.contains("validate"), "{shell}: no subcommands");
        assert!(script.contains("color"), "{shell}: no global flag");
    }
    let out = skilldeck(&["completions", "tcsh"], &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn piped_output_is_plain_and_full() {
    let dir = fixture();
    let out = list(dir.path(), &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains('\x1b'), "{stdout}");
    assert!(
        stdout.contains("when the text layer is missing."),
        "piped output cuts descriptions: {stdout}"
    );
    assert!(!stdout.contains('…'), "{stdout}");
}

#[test]
fn list_diagnostics_look_like_validate() {
    let dir = fixture();
    let out = list(dir.path(), &[], &[]);
    let stdout = text(&out.stdout);
    // The level, the code in brackets, the path, the source line and a caret, as
    // `validate` renders them.
    assert!(stdout.contains("diagnostics:"), "{stdout}");
    assert!(stdout.contains("error[invalid-yaml]"), "{stdout}");
    assert!(
        stdout.contains("--> .agents/skills/odd/SKILL.md:3"),
        "{stdout}"
    );
    assert!(stdout.contains("3 | description: [unclosed"), "{stdout}");
    let colored = list(dir.path(), &["--color", "always"], &[]);
    assert!(
        text(&colored.stdout).contains("\x1b["),
        "coloured diagnostics"
    );
}

#[test]
fn color_always_and_the_environment() {
    let dir = fixture();
    let always = list(dir.path(), &["--color", "always"], &[("NO_COLOR", "1")]);
    assert!(text(&always.stdout).contains('\x1b'), "--color always");
    let forced = list(dir.path(), &[], &[("CLICOLOR_FORCE", "1")]);
    assert!(text(&forced.stdout).contains('\x1b'), "CLICOLOR_FORCE");
    let dumb = list(
        dir.path(),
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert!(!text(&dumb.stdout).contains('\x1b'), "NO_COLOR wins");
    let never = list(dir.path(), &["--color=never"], &[("CLICOLOR_FORCE", "1")]);
    assert!(!text(&never.stdout).contains('\x1b'), "--color never");
    // Diagnostics on stderr follow the same choice.
    let err = skilldeck(
        &[
            "--color",
            "always",
            "activate",
            "nope",
            "--project",
            "/nonexistent-skilldeck",
        ],
        &[],
    );
    assert!(
        text(&err.stderr).contains("\x1b[1;31merror"),
        "{}",
        text(&err.stderr)
    );
    let err = skilldeck(
        &["activate", "nope", "--project", "/nonexistent-skilldeck"],
        &[],
    );
    assert!(!text(&err.stderr).contains('\x1b'), "{}", text(&err.stderr));
    let bad = skilldeck(&["--color", "sometimes", "list"], &[]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn negative_numbers_get_a_helpful_message() {
    for (flag, unit) in [
        ("--budget-chars", "characters"),
        ("--budget-tokens", "tokens"),
    ] {
        let out = skilldeck(&["render", flag, "-1"], &[]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("must be a positive number of {unit}")),
            "{stderr}"
        );
        assert!(!stderr.contains("unexpected argument"), "{stderr}");
    }
    let out = skilldeck(&["search", "pdf", "--limit", "-3"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("positive number of results"));
}

/// Output into a pipe the reader already closed (`skilldeck show pdf | head -0`) ends the
/// command quietly instead of panicking with an internal error.
#[cfg(unix)]
#[test]
fn a_closed_pipe_is_not_an_internal_error() {
    use std::process::Stdio;
    let dir = fixture();
    let project = dir.path().join("project");
    let home = dir.path().join("home");
    for args in [
        vec!["show", "pdf"],
        vec!["list"],
        vec!["search", "pdf"],
        vec!["activate", "pdf"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skilldeck"))
            .args(&args)
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn skilldeck");
        // Closed before the command has loaded its deck, so every write meets EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = text(&out.stderr);
        assert!(
            !stderr.contains("INTERNAL") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn relative_home_and_roots_are_relative_to_the_current_directory() {
    // As any command line tool reads a path: `--project /abs --home home --root extra` run in
    // `base` means `base/home` and `base/extra`, not `/home` or `/abs/extra`.
    let t = tempfile::tempdir().expect("tempdir");
    let base = t.path();
    for (dir, name) in [
        ("project/.agents/skills", "p"),
        ("home/.agents/skills", "h"),
        ("extra", "x"),
    ] {
        write(
            &base.join(dir).join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: d\n---\n"),
        );
    }
    let project = base.join("project");
    let project = project.to_str().expect("utf-8 temp path");
    let out = Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(["list", "--json", "--no-host-settings", "--project", project])
        .args(["--home", "home", "--root", "extra"])
        .current_dir(base)
        .output()
        .expect("run skilldeck");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut scopes: Vec<(String, String)> = listed["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or("").into(),
                s["scope"].as_str().unwrap_or("").into(),
            )
        })
        .collect();
    scopes.sort();
    let want = [("h", "user"), ("p", "project"), ("x", "extra")];
    assert_eq!(scopes, want.map(|(n, s)| (n.to_string(), s.to_string())));
}
