//! `skilldeck search` and `render --query` end to end: ranking, JSON shape, hybrid input,
//! and usage errors (exit 2) for what cannot be a search.

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

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn fixture() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    for (name, description, body) in [
        ("pdf", "Fill PDF forms and extract text.", "Use pdftotext."),
        (
            "xlsx",
            "Edit spreadsheets with formulas.",
            "Pivot tables and charts.",
        ),
        ("translate", "把文档翻译成中文。", "Translation."),
    ] {
        write(
            &root,
            &format!("project/.agents/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n"),
        );
    }
    std::fs::create_dir_all(root.join("home")).expect("home");
    let project = root.join("project").display().to_string();
    let home = root.join("home").display().to_string();
    (dir, project, home)
}

#[test]
fn ranks_and_prints_json() {
    let (_dir, project, home) = fixture();
    let out = skilldeck(&[
        "search",
        "pdf form",
        "--project",
        &project,
        "--home",
        &home,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["hits"][0]["id"], "pdf");
    assert_eq!(
        json["hits"][0]["matched"],
        serde_json::json!(["name", "description"])
    );
    assert_eq!(json["searched"], 3);
    // CJK text, and the body only with --body.
    let out = skilldeck(&[
        "search",
        "翻译",
        "--project",
        &project,
        "--home",
        &home,
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["hits"][0]["id"], "translate");
    let out = skilldeck(&[
        "search",
        "pivot",
        "--project",
        &project,
        "--home",
        &home,
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["matched"], 0);
    let out = skilldeck(&[
        "search",
        "pivot",
        "--body",
        "--project",
        &project,
        "--home",
        &home,
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["hits"][0]["id"], "xlsx");
    assert_eq!(json["hits"][0]["matched"], serde_json::json!(["body"]));
}

#[test]
fn hybrid_embeddings_and_usage_errors() {
    let (dir, project, home) = fixture();
    let file = dir.path().join("emb.json");
    std::fs::write(
        &file,
        r#"{"query": [1, 0], "skills": {"xlsx": [1, 0], "pdf": [0, 1]}}"#,
    )
    .expect("write");
    let emb = file.display().to_string();
    let out = skilldeck(&[
        "search",
        "spreadsheet",
        "--embeddings",
        &emb,
        "--project",
        &project,
        "--home",
        &home,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["hits"][0]["id"], "xlsx");
    assert_eq!(json["hits"][0]["similarity"], 1.0);
    std::fs::write(&file, r#"{"query": [1, 0], "skills": {"xlsx": [1]}}"#).expect("write");
    let out = skilldeck(&["search", "x", "--embeddings", &emb, "--project", &project]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("dimensions"));
    let out = skilldeck(&["search", "x", "--limit", "0", "--project", &project]);
    assert_eq!(out.status.code(), Some(2));
    let out = skilldeck(&["search", "--tool-definition", "ignored"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--tool-definition takes no query"
    );
    let out = skilldeck(&["search", "--tool-definition"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let tool: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(tool["name"], "search_skills");
    assert_eq!(tool["parameters"]["required"], serde_json::json!(["query"]));
}

#[test]
fn render_for_a_query() {
    let (_dir, project, home) = fixture();
    let out = skilldeck(&[
        "render",
        "--query",
        "spreadsheet formulas",
        "--pin",
        "pdf",
        "--format",
        "markdown",
        "--report",
        "--project",
        &project,
        "--home",
        &home,
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("**xlsx**") && text.contains("**pdf**"));
    assert!(!text.contains("translate"));
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(
        report.contains("omitted translate: does not match the query"),
        "{report}"
    );
}
