//! `skilldeck validate` end to end: exit codes, JSON shape, human output, and hostile files
//! (invalid UTF-8, NUL bytes, a 50 MB file, a directory named SKILL.md, permission denied).

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

fn skilldeck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilldeck")
}

fn json(out: &Output) -> Vec<Value> {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn skill(root: &Path, dir: &str, bytes: &[u8]) -> std::path::PathBuf {
    let d = root.join(dir);
    std::fs::create_dir_all(&d).expect("mkdir");
    std::fs::write(d.join("SKILL.md"), bytes).expect("write");
    d
}

fn codes(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .map(|ds| {
            ds.iter()
                .map(|d| d["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn valid_skill_exits_zero_with_json_array() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = skill(
        tmp.path(),
        "pdf",
        b"---\nname: pdf\ndescription: Extract text from PDFs.\n---\n# PDF\n",
    );
    let out = skilldeck(&[
        "validate",
        "--strict",
        "--json",
        dir.to_str().expect("utf8"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let reports = json(&out);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["name"], "pdf");
    assert_eq!(reports[0]["valid"], true);
    assert_eq!(reports[0]["diagnostics"], Value::Array(vec![]));
}

#[test]
fn invalid_skill_exits_one_and_json_has_every_field() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = skill(tmp.path(), "pdf", b"---\nname: PDF\ndescription: d\n---\n");
    let out = skilldeck(&[
        "validate",
        "--strict",
        "--json",
        dir.to_str().expect("utf8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let reports = json(&out);
    let d = &reports[0]["diagnostics"][0];
    for key in [
        "code", "severity", "path", "line", "column", "message", "hint",
    ] {
        assert!(d.get(key).is_some(), "missing {key} in {d}");
    }
    assert_eq!(d["code"], "name-not-lowercase");
    assert_eq!(d["line"], 2);
}

#[test]
fn human_output_shows_the_line_and_a_caret() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = skill(
        tmp.path(),
        "pdf",
        b"---\nname: Pdf Tool\ndescription: d\n---\n",
    );
    let out = skilldeck(&["validate", "--strict", dir.to_str().expect("utf8")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAIL Pdf Tool"), "{text}");
    assert!(text.contains("error[name-invalid-chars]"), "{text}");
    assert!(text.contains("2 | name: Pdf Tool"), "{text}");
    assert!(text.contains('^'), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(skilldeck(&["validate"]).status.code(), Some(2));
    assert_eq!(
        skilldeck(&["validate", "--no-such-flag", "."])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn hostile_files_never_panic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    skill(
        root,
        "latin1",
        b"---\nname: latin1\ndescription: caf\xe9\n---\n",
    );
    skill(root, "nul", b"---\nname: nul\0\ndescription: d\n---\n");
    let mut big = b"---\nname: big\ndescription: d\n---\n".to_vec();
    big.resize(50 * 1024 * 1024, b'x');
    skill(root, "big", &big);
    std::fs::create_dir_all(root.join("dir-named/SKILL.md")).expect("mkdir");
    let locked = skill(root, "locked", b"---\nname: locked\ndescription: d\n---\n");
    let locked_md = locked.join("SKILL.md");
    std::fs::set_permissions(&locked_md, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root reads through permission bits; the case then only checks "no panic".
    let denied = std::fs::read(&locked_md).is_err();

    let out = skilldeck(&["validate", "--json", root.to_str().expect("utf8")]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reports = json(&out);
    let by_dir = |dir: &str| -> Vec<String> {
        reports
            .iter()
            .find(|r| {
                r["path"]
                    .as_str()
                    .is_some_and(|p| p.contains(&format!("/{dir}/")))
            })
            .map(codes)
            .unwrap_or_else(|| panic!("no report for {dir}: {reports:?}"))
    };
    assert_eq!(by_dir("latin1"), ["invalid-utf8"]);
    assert_eq!(by_dir("nul"), ["nul-byte"]);
    assert_eq!(by_dir("big"), ["file-too-large"]);
    assert_eq!(by_dir("dir-named"), ["not-a-file"]);
    if denied {
        assert_eq!(by_dir("locked"), ["permission-denied"]);
    }
    for r in &reports {
        for d in r["diagnostics"].as_array().into_iter().flatten() {
            assert!(d["path"].is_string(), "diagnostic without path: {d}");
        }
    }

    // Each hostile path given directly, in human mode too.
    for dir in ["latin1", "nul", "big", "dir-named", "locked"] {
        let path = root.join(dir);
        let out = skilldeck(&["validate", path.to_str().expect("utf8")]);
        let expected = if dir == "locked" && !denied { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(expected), "{dir}");
    }
    let missing = root.join("missing");
    let out = skilldeck(&["validate", missing.to_str().expect("utf8")]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::set_permissions(&locked_md, std::fs::Permissions::from_mode(0o644)).expect("chmod");
}
