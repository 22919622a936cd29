//! `skilldeck mcp --allow-run`: the `run_skill_script` tool over a raw JSON-RPC stdio
//! session. Offered only with the flag; runs through skilldeck-run; the deck's permission
//! rules decide (a denied skill is not served, an `ask` one is refused for want of an
//! approval nobody can give over MCP); a script outside `scripts/` is refused.
#![cfg(all(feature = "mcp", feature = "run"))]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    next_id: u64,
}

impl Session {
    fn start(dir: &Path, extra: &[&str]) -> Session {
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_skilldeck"))
            .arg("mcp")
            .arg("--no-watch")
            .arg("--no-host-settings")
            .arg("--project")
            .arg(&empty)
            .arg("--home")
            .arg(&empty)
            .arg("--root")
            .arg(dir.join("skills"))
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn skilldeck mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line).expect("every line is JSON");
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut session = Session {
            child,
            stdin,
            lines,
            next_id: 1,
        };
        session.call(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "1"}}),
        );
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.lines.recv_timeout(WAIT).expect("a response in time");
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
        }
    }

    fn tool_names(&mut self) -> Vec<String> {
        let listed = self.call("tools/list", json!({}));
        listed["result"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_string())
            .collect()
    }

    /// `(isError, text)` of a `run_skill_script` call.
    fn run(&mut self, arguments: Value) -> (bool, String) {
        let response = self.call(
            "tools/call",
            json!({"name": "run_skill_script", "arguments": arguments}),
        );
        let result = &response["result"];
        (
            result["isError"].as_bool().unwrap_or(false),
            result["content"][0]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("{response}"))
                .to_string(),
        )
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Skills `tool`, `asked` and `hidden`, each with `scripts/hello.sh`; rules: `hidden`
/// denied, `asked` needs confirmation.
fn fixture(dir: &Path) -> std::path::PathBuf {
    for name in ["tool", "asked", "hidden"] {
        let base = dir.join("skills").join(name);
        std::fs::create_dir_all(base.join("scripts")).expect("mkdir");
        std::fs::write(
            base.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: The {name} skill.\n---\nbody\n"),
        )
        .expect("write");
        std::fs::write(
            base.join("scripts/hello.sh"),
            "echo \"hello $1 from $(basename \"$(dirname \"$(dirname \"$0\")\")\")\"\n",
        )
        .expect("write");
        std::fs::write(base.join("notes.sh"), "echo outside scripts\n").expect("write");
    }
    let rules = dir.join("rules.json");
    std::fs::write(
        &rules,
        br#"{"semantics": "last-match", "rules": [{"pattern": "*", "decision": "allow"},
            {"pattern": "hidden", "decision": "deny"}, {"pattern": "asked", "decision": "ask"}]}"#,
    )
    .expect("write");
    rules
}

#[test]
fn run_skill_script_is_absent_without_allow_run() {
    let tmp = tempfile::tempdir().expect("tmp");
    fixture(tmp.path());
    let mut s = Session::start(tmp.path(), &[]);
    let names = s.tool_names();
    assert!(names.contains(&"load_skill".to_string()), "{names:?}");
    assert!(
        !names.contains(&"run_skill_script".to_string()),
        "{names:?}"
    );
    let response = s.call(
        "tools/call",
        json!({"name": "run_skill_script", "arguments": {"skill_name": "tool", "script_name": "hello.sh"}}),
    );
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[test]
fn run_skill_script_runs_allowed_skills_and_refuses_denied_ones() {
    let tmp = tempfile::tempdir().expect("tmp");
    let rules = fixture(tmp.path());
    let mut s = Session::start(
        tmp.path(),
        &[
            "--rules",
            rules.to_str().expect("utf8"),
            "--allow-run",
            // The refusals below come before any sandbox; the run itself is not about
            // confinement (skilldeck-run's own tests cover that), and CI hosts may lack
            // Landlock.
            "--run-sandbox",
            "none",
        ],
    );
    let names = s.tool_names();
    assert!(names.contains(&"run_skill_script".to_string()), "{names:?}");

    let (is_error, text) =
        s.run(json!({"skill_name": "tool", "script_name": "hello.sh", "args": ["mcp"]}));
    assert!(!is_error, "{text}");
    let outcome: Value = serde_json::from_str(&text).expect("the outcome as JSON");
    assert_eq!(outcome["exit_code"], 0, "{outcome}");
    assert_eq!(outcome["stdout"], "hello mcp from tool\n");
    assert_eq!(outcome["skill"], "tool");

    let (is_error, text) = s.run(json!({"skill_name": "asked", "script_name": "hello.sh"}));
    assert!(is_error, "{text}");
    assert!(text.starts_with("APPROVAL_REQUIRED"), "{text}");

    let (is_error, text) = s.run(json!({"skill_name": "hidden", "script_name": "hello.sh"}));
    assert!(is_error, "{text}");
    assert!(text.contains("no skill `hidden` is served"), "{text}");

    let (is_error, text) = s.run(json!({"skill_name": "tool", "script_name": "../notes.sh"}));
    assert!(is_error, "{text}");
    assert!(text.starts_with("SCRIPT_REFUSED"), "{text}");
}
