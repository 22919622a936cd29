//! `skilldeck render` and `skilldeck activate` end to end: output, exit codes, the budget
//! report, permission errors, and the opt-in expansions staying inside their directories.

use std::path::Path;
use std::process::{Command, Output};

fn skilldeck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("run skilldeck")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A project with two skills, a home directory, and a file outside both.
fn fixture() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    write(
        &root,
        "project/.agents/skills/greet/SKILL.md",
        "---\nname: greet\ndescription: Greet someone by name.\narguments: [who]\n---\nHello, $who! Notes: @notes.md and @../../../../secret.txt. Date: !`echo ran` !`touch pwned`\n",
    );
    write(&root, "project/.agents/skills/greet/notes.md", "NOTES");
    write(
        &root,
        "project/.agents/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploy the service to production environments.\n---\nDeploy.\n",
    );
    write(&root, "secret.txt", "SECRET");
    write(
        &root,
        "rules.json",
        r#"{"semantics": "last-match", "rules": [{"pattern": "*", "decision": "allow"}, {"pattern": "deploy", "decision": "deny"}]}"#,
    );
    std::fs::create_dir_all(root.join("home")).expect("mkdir");
    let project = root.join("project").to_string_lossy().into_owned();
    let home = root.join("home").to_string_lossy().into_owned();
    (dir, project, home)
}

#[test]
fn render_prints_text_and_report() {
    let (_dir, project, home) = fixture();
    let out = skilldeck(&[
        "render",
        "--project",
        &project,
        "--home",
        &home,
        "--format",
        "claude-code",
        "--budget-chars",
        "45",
        "--report",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "The following skills are available for use with the Skill tool:\n\n- deploy\n- greet: Greet someone by name.\n"
    );
    assert!(stderr(&out).starts_with("render: 2 included, 1 truncated, 0 omitted"));
    assert!(stderr(&out).contains("truncated deploy (-46 chars)"));
}

#[test]
fn render_rejects_unknown_format_and_respects_rules() {
    let (dir, project, home) = fixture();
    let out = skilldeck(&[
        "render",
        "--project",
        &project,
        "--home",
        &home,
        "--format",
        "html",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("INVALID_OPTIONS"), "{}", stderr(&out));
    let rules = dir.path().join("rules.json");
    let out = skilldeck(&[
        "render",
        "--project",
        &project,
        "--home",
        &home,
        "--format",
        "opencode-tool",
        "--rules",
        rules.to_str().expect("utf-8"),
    ]);
    assert_eq!(
        stdout(&out),
        "## Available Skills\n- **greet**: Greet someone by name.\n"
    );
}

#[test]
fn activate_denied_names_the_rule() {
    let (dir, project, home) = fixture();
    let rules = dir.path().join("rules.json");
    let out = skilldeck(&[
        "activate",
        "deploy",
        "--project",
        &project,
        "--home",
        &home,
        "--rules",
        rules.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error[PERMISSION_DENIED]: skill `deploy` is denied by permission rule `deploy -> deny`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn activate_expansions_are_opt_in_and_contained() {
    let (_dir, project, home) = fixture();
    let base = [
        "activate",
        "greet",
        "--project",
        &project,
        "--home",
        &home,
        "--args",
        "Ada",
    ];
    let plain = skilldeck(&base);
    assert_eq!(
        stdout(&plain),
        "Hello, Ada! Notes: @notes.md and @../../../../secret.txt. Date: !`echo ran` !`touch pwned`\n"
    );
    let mut args = base.to_vec();
    args.extend(["--read-files", "--allow-command", "echo"]);
    let expanded = skilldeck(&args);
    assert_eq!(
        out_ok(&expanded),
        "Hello, Ada! Notes: NOTES and @../../../../secret.txt. Date: ran !`touch pwned`\n"
    );
    assert!(!Path::new(&project)
        .join(".agents/skills/greet/pwned")
        .exists());
}

fn out_ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
}
