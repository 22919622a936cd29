//! `skilldeck doctor` and `skilldeck list --compare` end to end on temporary trees: found,
//! too deep, hidden directory, refused name, shadowed, parse error with its line, outside
//! every root, and every built-in profile at once.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skilldeck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("GEMINI_CLI_TRUST_WORKSPACE")
        .env_remove("VIBE_HOME")
        .output()
        .expect("run skilldeck")
}

fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, text).expect("write");
    path
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: A skill.\n---\nBody.\n")
}

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: String,
    home: String,
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    std::fs::create_dir_all(root.join("p/.git")).expect("repo");
    std::fs::create_dir_all(root.join("home")).expect("home");
    write(&root, "p/.agents/skills/good/SKILL.md", &skill("good"));
    write(&root, "p/.claude/skills/good/SKILL.md", &skill("good"));
    write(
        &root,
        "p/.agents/skills/a/b/c/d/e/f/deep/SKILL.md",
        &skill("deep"),
    );
    write(
        &root,
        "p/.agents/skills/.hidden/hid/SKILL.md",
        &skill("hid"),
    );
    write(&root, "p/.agents/skills/bad/SKILL.md", &skill("Bad_Name"));
    write(
        &root,
        "p/.agents/skills/broken/SKILL.md",
        "---\nname: broken\ndescription: [unclosed\n---\n",
    );
    write(&root, "p/notes/out/SKILL.md", &skill("out"));
    Tree {
        project: root.join("p").display().to_string(),
        home: root.join("home").display().to_string(),
        root,
        _dir: dir,
    }
}

fn doctor(t: &Tree, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec![
        "doctor",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = skilldeck(&args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    (out.status.code(), json)
}

/// The codes of the first file's findings.
fn codes(report: &Value) -> Vec<String> {
    report["target"]["files"][0]["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn found_by_name_with_id_scope_and_location() {
    let t = tree();
    let (code, r) = doctor(&t, &["good"]);
    assert_eq!(code, Some(0));
    assert_eq!(r["profile"], "universal");
    assert_eq!(r["target"]["found"], true);
    let found = &r["target"]["files"][0]["found"];
    assert_eq!(found["id"], "good");
    assert_eq!(found["scope"], "project");
    assert_eq!(
        found["location"],
        t.root
            .join("p/.agents/skills/good/SKILL.md")
            .display()
            .to_string()
    );
}

#[test]
fn shadowed_names_the_winner_and_the_reason() {
    let t = tree();
    let loser = t.root.join("p/.claude/skills/good");
    let (code, r) = doctor(&t, &[&loser.display().to_string()]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&r), ["shadowed"]);
    let message = r["target"]["files"][0]["findings"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains(".agents/skills/good/SKILL.md"),
        "{message}"
    );
    assert!(message.contains("earlier root"), "{message}");
}

#[test]
fn too_deep_for_codex_depth_six() {
    let t = tree();
    let (code, r) = doctor(&t, &["--profile", "codex", "deep"]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&r), ["too-deep"]);
    let f = &r["target"]["files"][0]["findings"][0];
    assert!(f["message"]
        .as_str()
        .unwrap_or_default()
        .contains("at most 6"));
    assert!(f["fix"].is_string());
    // The same file loads with a deeper limit.
    let (code, r) = doctor(&t, &["deep"]);
    assert_eq!(code, Some(0));
    assert_eq!(codes(&r), ["found"]);
}

#[test]
fn hidden_directory_for_codex() {
    let t = tree();
    let (_, r) = doctor(&t, &["--profile", "codex", "hid"]);
    assert_eq!(codes(&r), ["hidden-dir"]);
    assert!(r["target"]["files"][0]["findings"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("`.hidden`"));
}

#[test]
fn name_refused_by_mistral_vibe_pattern() {
    let t = tree();
    let (code, r) = doctor(&t, &["--profile", "mistral-vibe", "bad"]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&r), ["name-refused"]);
    let d = &r["target"]["files"][0]["findings"][0]["diagnostics"][0];
    assert_eq!(d["code"], "invalid-name");
    // Human output names the rule too.
    let out = skilldeck(&[
        "doctor",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--profile",
        "mistral-vibe",
        "bad",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("name-refused"), "{text}");
    assert!(text.contains("fix:"), "{text}");
}

#[test]
fn parse_error_with_its_line() {
    let t = tree();
    let (_, r) = doctor(&t, &["broken"]);
    assert_eq!(codes(&r), ["parse-error"]);
    let d = &r["target"]["files"][0]["findings"][0]["diagnostics"][0];
    assert_eq!(d["code"], "invalid-yaml");
    assert_eq!(d["line"], 3);
    let out = skilldeck(&[
        "doctor",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "broken",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("line 3"), "{text}");
}

#[test]
fn outside_every_root_by_path_and_by_name() {
    let t = tree();
    let dir = t.root.join("p/notes/out");
    let (code, r) = doctor(&t, &[&dir.display().to_string()]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&r), ["outside-roots"]);
    let fix = r["target"]["files"][0]["findings"][0]["fix"]
        .as_str()
        .unwrap_or_default();
    assert!(fix.contains(".agents/skills"), "{fix}");
    // By name: the project is searched for a directory of that name.
    let (_, r) = doctor(&t, &["out"]);
    assert_eq!(codes(&r), ["outside-roots"]);
    // A name nothing knows.
    let (code, r) = doctor(&t, &["nothing-here"]);
    assert_eq!(code, Some(1));
    assert_eq!(r["target"]["files"].as_array().map(Vec::len), Some(0));
}

#[test]
fn per_root_report_without_a_target() {
    let t = tree();
    let (code, r) = doctor(&t, &["--profile", "codex"]);
    assert_eq!(code, Some(0));
    let roots = r["roots"].as_array().cloned().unwrap_or_default();
    let agents = roots
        .iter()
        .find(|x| x["path"] == t.root.join("p/.agents/skills").display().to_string())
        .expect("the .agents/skills root");
    assert_eq!(agents["exists"], true);
    assert_eq!(agents["scope"], "project");
    assert_eq!(agents["walk"]["max_depth"], 6);
    assert_eq!(agents["walk"]["hidden"], false);
    assert_eq!(agents["walk"]["skip_symlinked_files"], true);
    let out = skilldeck(&[
        "doctor",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--profile",
        "codex",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("depth 6, hidden dirs skipped"), "{text}");
}

#[test]
fn every_profile_at_once() {
    let t = tree();
    let (code, r) = doctor(&t, &["--profile", "all", "deep"]);
    assert_eq!(code, Some(0), "found by some profile");
    let reports = r.as_array().cloned().unwrap_or_default();
    assert_eq!(reports.len(), skilldeck::Profile::builtin_names().count());
    let by = |p: &str| {
        reports
            .iter()
            .find(|x| x["profile"] == p)
            .map(codes)
            .unwrap_or_default()
    };
    assert_eq!(by("universal"), ["found"]);
    assert_eq!(by("codex"), ["too-deep"]);
    assert_eq!(by("claude-code"), ["outside-roots"]);
}

#[test]
fn list_compare_is_a_skill_by_profile_table() {
    let t = tree();
    let out = skilldeck(&[
        "list",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--profile",
        "all",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        v["profiles"].as_array().map(Vec::len),
        Some(skilldeck::Profile::builtin_names().count())
    );
    let row = |id: &str, location: &str| {
        v["rows"]
            .as_array()
            .and_then(|rows| {
                rows.iter().find(|r| {
                    r["id"] == id
                        && r["location"]
                            .as_str()
                            .unwrap_or_default()
                            .contains(location)
                })
            })
            .cloned()
            .unwrap_or_default()
    };
    let cell = |row: &Value, p: &str| {
        row["cells"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["profile"] == p))
            .cloned()
            .unwrap_or_default()
    };
    let deep = row("deep", "deep");
    assert_eq!(cell(&deep, "universal")["ok"], true);
    assert_eq!(cell(&deep, "codex")["code"], "too-deep");
    let bad = row("Bad_Name", "bad");
    assert_eq!(cell(&bad, "mistral-vibe")["code"], "name-refused");
    let loser = row("good", ".claude/skills");
    assert_eq!(cell(&loser, "universal")["code"], "shadowed");
    assert_eq!(cell(&loser, "claude-code")["ok"], true);
    let broken = row("broken", "broken");
    assert_eq!(cell(&broken, "universal")["code"], "parse-error");
    // The human table: ✓ or the reason, then why.
    let out = skilldeck(&[
        "list",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--compare",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains('✓'), "{text}");
    assert!(text.contains("too-deep"), "{text}");
    assert!(text.contains("why not:"), "{text}");
}

#[test]
fn doctor_names_missing_requirements_with_install_hints() {
    let t = tree();
    write(
        &t.root,
        "p/.agents/skills/needs/SKILL.md",
        "---\nname: needs\ndescription: A skill.\nrequires:\n  bins: [no-such-tool-xyz]\n  env: [SKILLDECK_DOCTOR_UNSET]\ninstall:\n  - {kind: brew, formula: no-such-tool-xyz}\n---\nBody.\n",
    );
    let args = [
        "doctor",
        "needs",
        "--project",
        &t.project,
        "--home",
        &t.home,
    ];
    let out = skilldeck(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("missing: `no-such-tool-xyz` is not on PATH"),
        "{text}"
    );
    assert!(
        text.contains("install: brew install no-such-tool-xyz"),
        "{text}"
    );
    assert!(text.contains("SKILLDECK_DOCTOR_UNSET"), "{text}");
    let out = skilldeck(&[&args[..], &["--json"]].concat());
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    let missing = &json["target"]["files"][0]["found"]["missing"];
    assert_eq!(missing[0]["kind"], "bin");
    assert_eq!(missing[0]["hints"][0], "brew install no-such-tool-xyz");
    assert_eq!(missing[1]["kind"], "env");
}

#[test]
fn cline_plugin_without_managed_json_is_explained_human_and_json() {
    let t = tree();
    let file = write(
        &t.root,
        "p/.cline/plug/skills/plugged/SKILL.md",
        &skill("plugged"),
    );
    let path = file.display().to_string();
    let (code, r) = doctor(&t, &["--profile", "cline", &path]);
    assert_eq!(code, Some(1));
    assert_eq!(codes(&r), ["source-skipped"]);
    let finding = &r["target"]["files"][0]["findings"][0];
    let fix = finding["fix"].as_str().unwrap_or_default();
    assert!(fix.contains("managed.json"), "{finding}");
    assert!(r["skipped"][0]["fix"]
        .as_str()
        .unwrap_or_default()
        .contains("managed.json"));

    let out = skilldeck(&[
        "doctor",
        "--project",
        &t.project,
        "--home",
        &t.home,
        "--profile",
        "cline",
        &path,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("holds no `managed.json` that is a JSON object or list"),
        "{text}"
    );
    assert!(
        text.contains("fix: write the plugin's `managed.json`"),
        "{text}"
    );

    write(&t.root, "p/.cline/plug/managed.json", "{}");
    let (code, r) = doctor(&t, &["--profile", "cline", &path]);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(r["target"]["found"], true);
}
