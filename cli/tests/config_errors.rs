//! Configuration skilldeck reads on the user's word (`--rules`, `--profile-file`) fails
//! closed: an unknown key, a wrong type or a shape skilldeck does not read is a usage error
//! (exit 2) naming the file, the line and the key. The hosts' own permission shapes are
//! accepted in a rules file and decide with their host's semantics.

use std::path::Path;
use std::process::{Command, Output};

fn skilldeck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("OPENCODE_CONFIG_DIR")
        .output()
        .expect("run skilldeck")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn write(root: &Path, rel: &str, text: &str) -> String {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

/// A project with `pdf` and `internal-db`, and a home directory.
fn fixture() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    for name in ["pdf", "internal-db"] {
        write(
            &root,
            &format!("project/.agents/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody.\n"),
        );
    }
    std::fs::create_dir_all(root.join("home")).expect("mkdir");
    let project = root.join("project").to_string_lossy().into_owned();
    let home = root.join("home").to_string_lossy().into_owned();
    (dir, project, home)
}

fn list_with_rules(rules: &str, text: &str) -> (Output, String) {
    let (dir, project, home) = fixture();
    let path = write(dir.path(), rules, text);
    let out = skilldeck(&[
        "list",
        "--project",
        &project,
        "--home",
        &home,
        "--rules",
        &path,
        "--json",
        "--all",
    ]);
    (out, path)
}

#[test]
fn unknown_top_level_key_is_a_usage_error() {
    let (out, path) = list_with_rules("rules.json", "{\n  \"rulez\": 5\n}\n");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error[INVALID_OPTIONS]: {path}:2: `rulez`: unknown key"
        )),
        "{err}"
    );
    assert!(err.contains("OpenCode's {\"permission\""), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn opencode_skill_key_at_the_top_is_refused_with_the_fix() {
    let (out, _) = list_with_rules("rules.json", r#"{"skill": {"internal-*": "deny"}}"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("OpenCode's skill rules go inside `permission`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn wrong_type_names_key_and_line() {
    let text = "{\n  \"semantics\": \"deny-first\",\n  \"rules\": [\n    {\"pattern\": \"pdf\", \"decision\": \"block\"}\n  ]\n}\n";
    let (out, path) = list_with_rules("rules.json", text);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "{path}:4: `rules[0].decision`: expected \"allow\", \"ask\" or \"deny\", found \"block\""
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mixed_shapes_are_refused() {
    let (out, _) = list_with_rules(
        "rules.json",
        r#"{"permission": {"skill": "deny"}, "permissions": {"deny": ["Skill"]}}"#,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("mixes shapes"), "{}", stderr(&out));
}

#[test]
fn missing_rules_file_is_a_usage_error() {
    let (_dir, project, home) = fixture();
    let out = skilldeck(&[
        "list",
        "--project",
        &project,
        "--home",
        &home,
        "--rules",
        "/nonexistent/rules.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("IO_ERROR"), "{}", stderr(&out));
}

fn permissions(out: &Output) -> Vec<(String, String)> {
    let json: serde_json::Value = serde_json::from_str(&stdout(out)).expect("json");
    json["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap_or_default().to_string(),
                s["status"]["permission"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn opencode_permission_file_decides_last_match() {
    // opencode.json is JSONC; a copy of it keeps its comments.
    let (out, _) = list_with_rules(
        "opencode-rules.jsonc",
        "{\n  // from opencode.json\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {\"skill\": {\"*\": \"allow\", \"internal-*\": \"deny\"}},\n}\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        permissions(&out),
        vec![
            ("internal-db".to_string(), "deny".to_string()),
            ("pdf".to_string(), "allow".to_string())
        ]
    );
}

#[test]
fn claude_permissions_file_decides_deny_first() {
    let (out, _) = list_with_rules(
        "settings.json",
        r#"{"permissions": {"deny": ["Skill(internal-*)"], "allow": ["Skill", "Bash(ls)", "Read"]}}"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        permissions(&out),
        vec![
            ("internal-db".to_string(), "deny".to_string()),
            ("pdf".to_string(), "allow".to_string())
        ]
    );
}

#[test]
fn profile_file_unknown_key_is_a_usage_error() {
    let (dir, project, home) = fixture();
    let path = write(
        dir.path(),
        "mine.toml",
        "name = \"mine\"\n[walk]\nhiden = true\n[[sources]]\nscope = \"project\"\npaths = [\"{project}/.agents/skills\"]\n",
    );
    let out = skilldeck(&[
        "list",
        "--project",
        &project,
        "--home",
        &home,
        "--profile-file",
        &path,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("error[INVALID_OPTIONS]: {path}:3: `walk.hiden`: invalid profile: unknown field `hiden`")),
        "{err}"
    );
}
