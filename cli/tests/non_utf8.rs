//! The command in a process whose environment and directories are not UTF-8: it once
//! panicked (exit 101) reading the environment, and a non-UTF-8 project path lost its skills.
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A project and a home directory whose names are not UTF-8, with one skill each.
fn fixture() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = dir.path().join(OsStr::from_bytes(b"project-\xff"));
    let home = dir.path().join(OsStr::from_bytes(b"home-\xfe"));
    write(
        &project.join(".agents/skills/greet/SKILL.md"),
        "---\nname: greet\ndescription: Greet someone.\n---\nHello.\n",
    );
    write(
        &home.join(".agents/skills/homey/SKILL.md"),
        "---\nname: homey\ndescription: From home.\n---\nHi.\n",
    );
    (dir, project, home)
}

/// `skilldeck ARGS` run in `cwd` (also its `PWD`), with `HOME` and a variable whose name
/// and value are not UTF-8.
fn skilldeck(cwd: &Path, home: &Path, args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(args)
        .current_dir(cwd)
        .env("PWD", cwd)
        .env("HOME", home)
        .env(
            OsStr::from_bytes(b"SKILLDECK_ODD_\xff"),
            OsStr::from_bytes(b"\xfe"),
        )
        .env("NO_COLOR", "1")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("run skilldeck")
}

fn check(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("greet"), "{stdout}");
    assert!(stdout.contains("homey"), "{stdout}");
    stdout
}

#[test]
fn list_in_a_non_utf8_directory_with_a_non_utf8_environment() {
    let (_dir, project, home) = fixture();
    check(&skilldeck(&project, &home, &["list".as_ref()]));
    // JSON cannot hold the bytes: they come out as U+FFFD, and the output is still valid.
    let stdout = check(&skilldeck(
        &project,
        &home,
        &["list".as_ref(), "--json".as_ref()],
    ));
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let location = json["skills"][0]["location"].as_str().unwrap_or_default();
    assert!(location.contains("project-\u{fffd}"), "{location}");
}

#[test]
fn non_utf8_paths_as_arguments() {
    let (dir, project, home) = fixture();
    let args: [&OsStr; 5] = [
        "list".as_ref(),
        "--project".as_ref(),
        project.as_os_str(),
        "--home".as_ref(),
        home.as_os_str(),
    ];
    check(&skilldeck(dir.path(), &home, &args));
    let out = skilldeck(
        dir.path(),
        &home,
        &[
            "activate".as_ref(),
            "greet".as_ref(),
            "--project".as_ref(),
            project.as_os_str(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Hello."));
}
