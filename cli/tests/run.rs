//! `skilldeck run`, `run-script` and `tools` end to end: exit codes, refusals before
//! anything runs (a marker file proves it), the JSON outcome, and the sandbox flag.
#![cfg(feature = "run")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skilldeck(project: &Path, args: &[&str]) -> Output {
    // The deck flags go right after the subcommand: after `--` they would be script args.
    let (command, rest) = args.split_first().expect("a subcommand");
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .arg(command)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(project.join("home"))
        .arg("--no-host-settings")
        .args(rest)
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilldeck")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A project with a command skill that touches a marker and echoes its input, and a script.
fn fixture() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let project = root.join("project");
    let skill = project.join(".agents/skills/echo");
    std::fs::create_dir_all(skill.join("scripts")).expect("mkdir");
    std::fs::create_dir_all(project.join("home")).expect("mkdir");
    let marker = root.join("marker");
    std::fs::write(
        skill.join("SKILL.md"),
        format!(
            "---\nname: echo\ndescription: Echo the input.\ncommand: sh -c 'touch {}; cat; exit ${{EXIT:-0}}'\nparameters:\n  text: {{type: string, required: true, description: What to echo.}}\n---\nBody.\n",
            marker.display()
        ),
    )
    .expect("write");
    std::fs::write(
        skill.join("scripts/write.sh"),
        "echo made > made.txt\necho \"$@\"\n",
    )
    .expect("write");
    std::fs::write(skill.join("scripts/outside.sh"), "echo x > \"$1\"\n").expect("write");
    (dir, project, marker)
}

#[test]
fn run_passes_the_input_as_json_on_stdin() {
    let (_dir, project, marker) = fixture();
    // Unsandboxed, so the marker outside the work directory can be written.
    let out = skilldeck(
        &project,
        &[
            "run",
            "echo",
            "--sandbox",
            "none",
            "--input",
            r#"{"text": "hi"}"#,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), r#"{"text":"hi"}"#);
    assert!(marker.exists());
}

#[test]
fn bad_input_is_a_usage_error_and_runs_nothing() {
    let (_dir, project, marker) = fixture();
    for (input, needle) in [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not an object"),
        ("{}", "text"),
        (r#"{"text": 5}"#, "string"),
    ] {
        let out = skilldeck(
            &project,
            &["run", "echo", "--sandbox", "none", "--input", input],
        );
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert!(
            text(&out.stderr).contains("INVALID_INPUT"),
            "{input}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(needle),
            "{input}: {}",
            text(&out.stderr)
        );
        assert!(!marker.exists(), "{input}: nothing may run");
    }
}

#[test]
fn json_output_carries_the_skills_exit_code() {
    let (_dir, project, _marker) = fixture();
    let out = skilldeck(
        &project,
        &["run", "echo", "--input", r#"{"text": "x"}"#, "--json"],
    );
    assert_eq!(out.status.code(), Some(0));
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(outcome["exit_code"], 0);
    assert_eq!(outcome["json"]["text"], "x");
    assert_eq!(outcome["sandboxed"], true);
    // A failing skill: its code in the JSON, and 1 from skilldeck.
    let out = skilldeck(
        &project,
        &[
            "run-script",
            "echo",
            "outside.sh",
            "--json",
            "--",
            "/proc/no-such-dir/x",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_ne!(outcome["exit_code"], 0);
    assert!(outcome["exit_code"].is_number());
}

#[test]
fn run_script_refuses_escaping_names_and_destinations() {
    let (_dir, project, _marker) = fixture();
    let out = skilldeck(&project, &["run-script", "echo", "../SKILL.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("SCRIPT_REFUSED"));
    let out = skilldeck(
        &project,
        &["run-script", "echo", "write.sh", "--destination", "../out"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("DESTINATION_REFUSED"));
    let out = skilldeck(
        &project,
        &[
            "run-script",
            "echo",
            "write.sh",
            "--destination",
            "out",
            "--",
            "a",
            "b",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "a b\n");
    assert!(project.join("out/made.txt").is_file());
    let out = skilldeck(
        &project,
        &["run-script", "echo", "write.sh", "--stdin", "{bad"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_sandbox_is_on_unless_opted_out() {
    let (dir, project, _marker) = fixture();
    let target = dir.path().join("outside.txt");
    let target_arg = target.to_string_lossy().into_owned();
    let out = skilldeck(
        &project,
        &["run-script", "echo", "outside.sh", "--", &target_arg],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(!target.exists());
    let out = skilldeck(
        &project,
        &[
            "run-script",
            "echo",
            "outside.sh",
            "--sandbox",
            "none",
            "--",
            &target_arg,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(target.exists());
}

#[test]
fn tools_prints_both_formats() {
    let (_dir, project, _marker) = fixture();
    let out = skilldeck(&project, &["tools"]);
    assert_eq!(out.status.code(), Some(0));
    let tools: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(tools[0]["function"]["name"], "run_skill_script");
    assert_eq!(tools[1]["function"]["name"], "echo");
    assert_eq!(
        tools[1]["function"]["parameters"]["required"],
        serde_json::json!(["text"])
    );
    let out = skilldeck(&project, &["tools", "--format", "anthropic"]);
    let tools: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        tools[1]["input_schema"]["properties"]["text"]["type"],
        "string"
    );
    let out = skilldeck(&project, &["tools", "--format", "gemini"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn input_file_and_standard_input() {
    let (dir, project, _marker) = fixture();
    let file = dir.path().join("input.json");
    std::fs::write(&file, r#"{"text": "from file"}"#).expect("write");
    let file_arg = file.to_string_lossy().into_owned();
    let out = skilldeck(&project, &["run", "echo", "--input-file", &file_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), r#"{"text":"from file"}"#);
    let out = skilldeck(
        &project,
        &["run", "echo", "--input-file", "/no/such/file.json"],
    );
    assert_eq!(out.status.code(), Some(2));
}
