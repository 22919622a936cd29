//! `skilldeck add | installed | verify | update | remove | install --frozen` end to end,
//! including `github:` shorthand resolved offline through `url.<base>.insteadOf` given in
//! `GIT_CONFIG_*` variables (never the user's config).

#![cfg(feature = "install")]

use std::path::Path;
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn skilldeck(project: &Path, args: &[&str], env: &[(&str, String)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilldeck"));
    command
        .args(args)
        .current_dir(project)
        .env_remove("XDG_CONFIG_HOME");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("run skilldeck")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A bare-ish repository at `<root>/github/acme/tools` with two skills, tagged v1.
fn fake_github(root: &Path) -> (String, Vec<(&'static str, String)>) {
    let repo = root.join("github/acme/tools");
    write(&repo.join("skills/pdf/SKILL.md"), &skill_md("pdf"));
    write(&repo.join("skills/csv/SKILL.md"), &skill_md("csv"));
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    git(&repo, &["tag", "v1"]);
    let commit = git(&repo, &["rev-parse", "HEAD"]);
    // github: URLs become https://github.com/acme/tools.git; send them to the local copy.
    let env = vec![
        ("GIT_CONFIG_COUNT", "1".to_string()),
        (
            "GIT_CONFIG_KEY_0",
            format!("url.file://{}/github/.insteadOf", root.display()),
        ),
        ("GIT_CONFIG_VALUE_0", "https://github.com/".to_string()),
    ];
    // `tools.git` must resolve: make the path with the suffix a link to the repository.
    std::os::unix::fs::symlink(&repo, root.join("github/acme/tools.git")).expect("link");
    (commit, env)
}

#[cfg(unix)]
#[test]
fn github_shorthand_add_installed_verify_remove() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (commit, env) = fake_github(tmp.path());
    let project = tmp.path().join("project");
    std::fs::create_dir(&project).expect("mkdir");

    let out = skilldeck(
        &project,
        &["add", "github:acme/tools/skills/pdf@v1", "--json"],
        &env,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let entry = &report["installed"][0]["entry"];
    assert_eq!(report["installed"][0]["name"], "pdf");
    assert_eq!(entry["sourceType"], "github");
    assert_eq!(
        entry["source"], "acme/tools",
        "owner/repo, as the skills CLI records"
    );
    assert_eq!(entry["ref"], "v1");
    assert_eq!(entry["commit"], commit.as_str());
    assert_eq!(entry["url"], "https://github.com/acme/tools.git");
    assert!(!project.join(".agents/skills/csv").exists());

    let out = skilldeck(
        &project,
        &["add", "github:acme/tools", "--skill", "csv"],
        &env,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("installed csv"));

    let out = skilldeck(&project, &["installed"], &[]);
    assert!(text(&out.stdout).contains("csv") && text(&out.stdout).contains("pdf"));

    let out = skilldeck(&project, &["verify"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    write(&project.join(".agents/skills/pdf/SKILL.md"), "edited");
    write(&project.join(".agents/skills/pdf/notes.md"), "mine");
    std::fs::remove_file(project.join(".agents/skills/csv/SKILL.md")).expect("rm");
    let out = skilldeck(&project, &["verify"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("changed: .agents/skills/pdf/SKILL.md"),
        "{stdout}"
    );
    assert!(
        stdout.contains("added: .agents/skills/pdf/notes.md"),
        "{stdout}"
    );
    assert!(
        stdout.contains("missing: .agents/skills/csv/SKILL.md"),
        "{stdout}"
    );
    let out = skilldeck(&project, &["verify", "--json"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["clean"], false);

    // Frozen restores both from the recorded commit.
    let out = skilldeck(&project, &["install", "--frozen"], &env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = skilldeck(&project, &["verify"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let out = skilldeck(&project, &["update", "--dry-run"], &env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("up to date"));

    let out = skilldeck(&project, &["remove", "pdf", "csv"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lock = std::fs::read_to_string(project.join("skills-lock.json")).expect("lock");
    assert_eq!(lock, "{\n  \"version\": 1,\n  \"skills\": {}\n}\n");
}

#[test]
fn errors_have_codes_and_exit_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = skilldeck(tmp.path(), &["add", "./does-not-exist"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("BAD_SOURCE"),
        "{}",
        text(&out.stderr)
    );
    let out = skilldeck(tmp.path(), &["remove", "ghost"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("NOT_FOUND"));
    let out = skilldeck(tmp.path(), &["install"], &[]);
    assert_eq!(out.status.code(), Some(2), "--frozen is required");
}

#[test]
fn relative_local_sources_are_relative_to_the_current_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    write(&tmp.path().join("src/alpha/SKILL.md"), &skill_md("alpha"));
    let project = tmp.path().join("project");
    std::fs::create_dir(&project).expect("mkdir");
    let out = skilldeck(
        tmp.path(),
        &[
            "add",
            "src/alpha",
            "--project",
            project.to_str().expect("utf-8"),
            "--json",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(project.join(".agents/skills/alpha/SKILL.md").is_file());
    // Inside the project the lock records a portable relative path.
    write(&project.join("vendor/beta/SKILL.md"), &skill_md("beta"));
    let out = skilldeck(&project, &["add", "vendor/beta", "--json"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["installed"][0]["entry"]["source"], "vendor/beta");
}
