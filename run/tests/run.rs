//! The runner end to end: every bad input is refused before anything runs (a marker file
//! proves nothing executed), the process group dies on timeout and cancel, output is
//! capped, the environment is an allowlist, and the sandbox really denies a write outside
//! the work directory, a change to the skill, and a loopback TCP connect.

use serde_json::{json, Map, Value};
use skilldeck::{Deck, DeckOptions, Event};
use skilldeck_run::{
    run_command, run_script, CancelHandle, CommandRequest, ExecEvent, RunControl, RunError,
    RunOptions, SandboxMode, ScriptRequest,
};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        let project = root.join("project");
        std::fs::create_dir_all(project.join(".agents/skills")).expect("mkdir");
        std::fs::create_dir_all(root.join("home")).expect("mkdir");
        Fixture {
            _dir: dir,
            root,
            project,
        }
    }

    fn skill(&self, name: &str, frontmatter: &str) -> PathBuf {
        let dir = self.project.join(".agents/skills").join(name);
        std::fs::create_dir_all(dir.join("scripts")).expect("mkdir");
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Test skill {name}.\n{frontmatter}---\nBody.\n"
            ),
        )
        .expect("write");
        dir
    }

    fn script(&self, skill: &str, name: &str, text: &str) {
        let path = self
            .project
            .join(".agents/skills")
            .join(skill)
            .join("scripts")
            .join(name);
        std::fs::write(path, text).expect("write");
    }

    fn deck(&self) -> Deck {
        self.deck_with(|_| {})
    }

    fn deck_with(&self, edit: impl FnOnce(&mut DeckOptions)) -> Deck {
        let mut options = DeckOptions {
            project_dir: self.project.clone(),
            home_dir: Some(self.root.join("home")),
            read_host_settings: false,
            ..Default::default()
        };
        edit(&mut options);
        let deck = Deck::new(options).expect("deck");
        deck.load().expect("load");
        deck
    }

    fn marker(&self) -> PathBuf {
        self.root.join("marker")
    }
}

fn unsandboxed() -> RunOptions {
    RunOptions {
        sandbox: SandboxMode::None,
        ..Default::default()
    }
}

fn input(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn command(
    deck: &Deck,
    skill: &str,
    value: Value,
    options: &RunOptions,
) -> Result<skilldeck_run::RunOutcome, RunError> {
    let request = CommandRequest {
        skill: skill.into(),
        input: input(value),
    };
    run_command(deck, &request, options, &RunControl::default())
}

fn script(
    deck: &Deck,
    skill: &str,
    name: &str,
    args: &[&str],
    options: &RunOptions,
) -> Result<skilldeck_run::RunOutcome, RunError> {
    let request = ScriptRequest {
        skill: skill.into(),
        script: name.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    run_script(deck, &request, options, &RunControl::default())
}

/// A command skill that touches the marker, then echoes its standard input.
fn marker_skill(f: &Fixture) {
    f.skill(
        "calc",
        &format!(
            "command: sh -c 'touch {}; cat'\nparameters:\n  count: {{type: integer, required: true, minimum: 1, maximum: 10}}\n  mode: {{type: string, enum: [fast, slow], default: fast}}\n",
            f.marker().display()
        ),
    );
}

#[test]
fn a_valid_input_reaches_stdin_as_json_with_defaults() {
    let f = Fixture::new();
    marker_skill(&f);
    let outcome = command(&f.deck(), "calc", json!({"count": 2}), &unsandboxed()).expect("run");
    assert!(outcome.success(), "{outcome:?}");
    assert_eq!(outcome.json, Some(json!({"count": 2, "mode": "fast"})));
    assert!(f.marker().exists(), "the command ran");
}

#[test]
fn bad_inputs_are_refused_and_nothing_runs() {
    let f = Fixture::new();
    marker_skill(&f);
    let deck = f.deck();
    let cases = [
        (json!({}), "count"),
        (json!({"count": "two"}), "integer"),
        (json!({"count": 1, "mode": "medium"}), "mode"),
        (json!({"count": 1, "colour": "red"}), "colour"),
        (json!({"count": 11}), "maximum"),
    ];
    for (value, needle) in cases {
        let err = command(&deck, "calc", value.clone(), &unsandboxed()).expect_err("refused");
        assert_eq!(err.code(), "INVALID_INPUT", "{value}: {err}");
        assert!(err.to_string().contains(needle), "{value}: {err}");
        assert!(!f.marker().exists(), "{value}: nothing may run");
    }
}

#[test]
fn missing_requirements_are_named_with_install_hints() {
    let f = Fixture::new();
    f.skill(
        "needs",
        &format!(
            "command: sh -c 'touch {}'\nrequires:\n  bins: [no-such-tool-xyz]\n  env: [SKILLDECK_RUN_TEST_UNSET_VAR]\ninstall:\n  - {{kind: brew, formula: no-such-tool-xyz}}\n",
            f.marker().display()
        ),
    );
    let err = command(&f.deck(), "needs", json!({}), &unsandboxed()).expect_err("refused");
    assert_eq!(err.code(), "REQUIREMENTS_MISSING");
    let text = err.to_string();
    assert!(
        text.contains("no-such-tool-xyz") && text.contains("brew install no-such-tool-xyz"),
        "{text}"
    );
    assert!(text.contains("SKILLDECK_RUN_TEST_UNSET_VAR"), "{text}");
    assert!(!f.marker().exists());
}

#[test]
fn script_names_cannot_leave_scripts() {
    let f = Fixture::new();
    let dir = f.skill("tools", "");
    f.script("tools", "ok.sh", "echo ok\n");
    std::fs::write(
        f.root.join("outside.sh"),
        format!("touch {}\n", f.marker().display()),
    )
    .expect("write");
    std::os::unix::fs::symlink(f.root.join("outside.sh"), dir.join("scripts/escape.sh"))
        .expect("symlink");
    let deck = f.deck();
    let outside = f.root.join("outside.sh");
    for name in [
        "../SKILL.md",
        "../../../../outside.sh",
        outside.to_str().unwrap_or("/"),
        "escape.sh",
    ] {
        let err = script(&deck, "tools", name, &[], &unsandboxed()).expect_err(name);
        assert_eq!(err.code(), "SCRIPT_REFUSED", "{name}: {err}");
    }
    assert!(!f.marker().exists());
    let ok = script(&deck, "tools", "ok.sh", &[], &unsandboxed()).expect("ok");
    assert_eq!(ok.stdout, "ok\n");
}

#[test]
fn artifacts_go_inside_the_workspace_only() {
    let f = Fixture::new();
    f.skill("make", "");
    f.script(
        "make",
        "make.sh",
        &format!(
            "touch {}\nmkdir -p out\necho data > out/result.txt\n",
            f.marker().display()
        ),
    );
    let deck = f.deck();
    let request = |destination: &str| ScriptRequest {
        skill: "make".into(),
        script: "make.sh".into(),
        destination: Some(PathBuf::from(destination)),
        ..Default::default()
    };
    for bad in ["../elsewhere", "/tmp/skilldeck-run-test-out"] {
        let err = run_script(&deck, &request(bad), &unsandboxed(), &RunControl::default())
            .expect_err(bad);
        assert_eq!(err.code(), "DESTINATION_REFUSED", "{bad}: {err}");
        assert!(!f.marker().exists(), "{bad}: nothing may run");
    }
    let outcome = run_script(
        &deck,
        &request("build"),
        &unsandboxed(),
        &RunControl::default(),
    )
    .expect("run");
    assert_eq!(outcome.artifacts, [f.project.join("build/out/result.txt")]);
    assert_eq!(
        std::fs::read_to_string(f.project.join("build/out/result.txt"))
            .ok()
            .as_deref(),
        Some("data\n")
    );
}

fn alive(pid: i32) -> bool {
    // A killed process may linger as a zombie until its new parent reaps it.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

fn wait_dead(pid: i32) -> bool {
    for _ in 0..200 {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn a_timeout_kills_the_whole_group_grandchild_included() {
    let f = Fixture::new();
    f.skill("slow", "");
    f.script("slow", "slow.sh", "sh -c 'sleep 60' &\necho $!\nwait\n");
    let options = RunOptions {
        timeout: Some(Duration::from_millis(500)),
        ..unsandboxed()
    };
    let outcome = script(&f.deck(), "slow", "slow.sh", &[], &options).expect("run");
    assert!(outcome.timed_out && !outcome.success(), "{outcome:?}");
    assert_eq!(outcome.exit_code, None);
    let pid: i32 = outcome.stdout.trim().parse().expect("grandchild pid");
    assert!(wait_dead(pid), "grandchild {pid} survived the timeout");
}

#[test]
fn cancel_from_another_thread_kills_the_group() {
    let f = Fixture::new();
    f.skill("slow", "");
    f.script("slow", "slow.sh", "sleep 60 &\necho $!\nwait\n");
    let deck = f.deck();
    let cancel = CancelHandle::new();
    let seen = Arc::new(Mutex::new(String::new()));
    let (sink, trigger) = (seen.clone(), cancel.clone());
    let control = RunControl {
        cancel,
        on_event: Some(Arc::new(move |event: &ExecEvent| {
            if let ExecEvent::Stdout { text } = event {
                if let Ok(mut s) = sink.lock() {
                    s.push_str(text);
                }
                // Output means the grandchild exists: cancel now, from this other thread.
                trigger.cancel();
            }
        })),
    };
    let request = ScriptRequest {
        skill: "slow".into(),
        script: "slow.sh".into(),
        ..Default::default()
    };
    let outcome = run_script(&deck, &request, &unsandboxed(), &control).expect("run");
    assert!(outcome.cancelled && !outcome.timed_out, "{outcome:?}");
    let pid: i32 = outcome.stdout.trim().parse().expect("pid");
    assert!(wait_dead(pid));
    assert_eq!(
        seen.lock().map(|s| s.clone()).unwrap_or_default(),
        outcome.stdout
    );
}

#[test]
fn output_beyond_the_cap_is_dropped_and_reported() {
    let f = Fixture::new();
    f.skill("loud", "");
    f.script(
        "loud",
        "loud.sh",
        "head -c 100000 /dev/zero | tr '\\0' a\necho done >&2\n",
    );
    let options = RunOptions {
        output_limit: Some(1000),
        ..unsandboxed()
    };
    let outcome = script(&f.deck(), "loud", "loud.sh", &[], &options).expect("run");
    assert!(outcome.success(), "{outcome:?}");
    assert_eq!(outcome.stdout.len(), 1000);
    assert!(outcome.truncated);
    assert_eq!(outcome.stderr, "done\n");
}

#[test]
fn the_environment_is_an_allowlist() {
    let f = Fixture::new();
    f.skill("env", "requires:\n  env: [SKILLDECK_RUN_DECLARED]\n");
    f.script("env", "env.sh", "env\n");
    let mut env: std::collections::BTreeMap<_, _> = std::env::vars_os().collect();
    env.insert("SKILLDECK_RUN_LEAK".into(), "caller-secret".into());
    env.insert("SKILLDECK_RUN_DECLARED".into(), "declared-value".into());
    let deck = f.deck_with(|o| o.env = Some(env));
    let outcome = script(&deck, "env", "env.sh", &[], &unsandboxed()).expect("run");
    assert!(
        !outcome.stdout.contains("caller-secret"),
        "{}",
        outcome.stdout
    );
    assert!(outcome
        .stdout
        .contains("SKILLDECK_RUN_DECLARED=declared-value"));
    assert!(outcome.stdout.contains("PATH="));
    let home = outcome
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("HOME="))
        .expect("HOME");
    assert!(
        home.contains("skilldeck-run-"),
        "HOME is the work dir: {home}"
    );
}

#[test]
fn permission_rules_apply_before_running() {
    let f = Fixture::new();
    marker_skill(&f);
    let rules = |decision: skilldeck::Decision| {
        Some(skilldeck::PermissionRules {
            rules: vec![skilldeck::Rule::new("calc", decision)],
            ..Default::default()
        })
    };
    let deny = f.deck_with(|o| o.rules = rules(skilldeck::Decision::Deny));
    let err = command(&deny, "calc", json!({"count": 1}), &unsandboxed()).expect_err("denied");
    assert_eq!(err.code(), "PERMISSION_DENIED");
    let ask = f.deck_with(|o| o.rules = rules(skilldeck::Decision::Ask));
    let err = command(&ask, "calc", json!({"count": 1}), &unsandboxed()).expect_err("ask");
    assert_eq!(err.code(), "APPROVAL_REQUIRED");
    assert!(!f.marker().exists());
    let approved = RunOptions {
        approved: true,
        ..unsandboxed()
    };
    assert!(command(&ask, "calc", json!({"count": 1}), &approved)
        .expect("approved")
        .success());
    let err = command(&f.deck(), "nope", json!({}), &unsandboxed()).expect_err("unknown");
    assert_eq!(err.code(), "NOT_FOUND");
}

#[test]
fn the_deck_reports_exec_events() {
    let f = Fixture::new();
    marker_skill(&f);
    let deck = f.deck();
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    deck.subscribe(move |e: &Event| {
        if let Ok(mut v) = sink.lock() {
            v.push(e.clone());
        }
    });
    command(&deck, "calc", json!({"count": 1}), &unsandboxed()).expect("run");
    let events = events.lock().map(|v| v.clone()).unwrap_or_default();
    assert!(
        matches!(&events[0], Event::ExecStarted { id, kind: skilldeck::ExecKind::Command, .. } if id == "calc"),
        "{events:?}"
    );
    assert!(
        matches!(
            &events[1],
            Event::ExecFinished {
                exit_code: Some(0),
                timed_out: false,
                ..
            }
        ),
        "{events:?}"
    );
}

// --- the sandbox: each denial proved, and the same action allowed without it ---

fn sandbox_fixture() -> (Fixture, PathBuf) {
    let f = Fixture::new();
    let dir = f.skill("probe", "");
    f.script("probe", "write.sh", "echo pwned > \"$1\"\n");
    f.script(
        "probe",
        "self.sh",
        "echo pwned >> \"$SKILL_DIR/SKILL.md\"\n",
    );
    f.script(
        "probe",
        "work.sh",
        "echo inside > here.txt && cat here.txt\n",
    );
    f.script(
        "probe",
        "connect.sh",
        "echo hello > /dev/tcp/127.0.0.1/$1\n",
    );
    (f, dir)
}

#[test]
fn sandbox_denies_a_write_outside_the_work_dir() {
    let (f, _) = sandbox_fixture();
    let deck = f.deck();
    let target = f.root.join("outside.txt");
    let arg = target.to_string_lossy().into_owned();
    let outcome = script(&deck, "probe", "write.sh", &[&arg], &RunOptions::default()).expect("run");
    assert!(outcome.sandboxed);
    let report = outcome.sandbox.clone().expect("report");
    assert!(report.landlock_abi >= 1 && report.filesystem && report.network_denied);
    assert_ne!(outcome.exit_code, Some(0), "{outcome:?}");
    assert!(!target.exists(), "the sandbox let a write outside through");
    let inside = script(&deck, "probe", "work.sh", &[], &RunOptions::default()).expect("run");
    assert_eq!(
        inside.stdout, "inside\n",
        "the work dir stays writable: {inside:?}"
    );
    let open = script(&deck, "probe", "write.sh", &[&arg], &unsandboxed()).expect("run");
    assert!(open.success() && target.exists(), "{open:?}");
}

#[test]
fn sandbox_denies_changing_the_skill() {
    let (f, dir) = sandbox_fixture();
    let deck = f.deck();
    let before = std::fs::read_to_string(dir.join("SKILL.md")).expect("read");
    let outcome = script(&deck, "probe", "self.sh", &[], &RunOptions::default()).expect("run");
    assert_ne!(outcome.exit_code, Some(0), "{outcome:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).expect("read"),
        before
    );
    let open = script(&deck, "probe", "self.sh", &[], &unsandboxed()).expect("run");
    assert!(open.success());
    assert_ne!(
        std::fs::read_to_string(dir.join("SKILL.md")).expect("read"),
        before
    );
}

fn connected(listener: &std::net::TcpListener) -> bool {
    listener.set_nonblocking(true).expect("nonblocking");
    for _ in 0..100 {
        if listener.accept().is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn sandbox_denies_a_loopback_connect() {
    let (f, _) = sandbox_fixture();
    let deck = f.deck();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("addr").port().to_string();
    let outcome = script(
        &deck,
        "probe",
        "connect.sh",
        &[&port],
        &RunOptions::default(),
    )
    .expect("run");
    assert_ne!(outcome.exit_code, Some(0), "{outcome:?}");
    assert!(
        !connected(&listener),
        "the sandbox let a TCP connect through"
    );
    let open = script(&deck, "probe", "connect.sh", &[&port], &unsandboxed()).expect("run");
    assert!(open.success(), "{open:?}");
    assert!(connected(&listener));
    let allowed = RunOptions {
        allow_network: true,
        ..Default::default()
    };
    let net = script(&deck, "probe", "connect.sh", &[&port], &allowed).expect("run");
    assert!(net.success() && net.sandboxed, "{net:?}");
    assert!(connected(&listener));
}

#[test]
fn sandbox_keeps_a_group_it_cannot_leave() {
    let f = Fixture::new();
    f.skill("escape", "");
    f.script(
        "escape",
        "setsid.sh",
        "setsid sleep 60 &\nwait $!\necho status=$?\n",
    );
    let outcome = script(
        &f.deck(),
        "escape",
        "setsid.sh",
        &[],
        &RunOptions::default(),
    )
    .expect("run");
    assert!(outcome.success(), "{outcome:?}");
    assert_ne!(
        outcome.stdout.trim(),
        "status=0",
        "setsid must fail in the sandbox: {outcome:?}"
    );
}

#[test]
fn sandbox_can_hide_everything_but_the_system_dirs() {
    let (f, _) = sandbox_fixture();
    f.script(
        "probe",
        "read.sh",
        "cat \"$1\"\ncat \"$SKILL_DIR/SKILL.md\" > /dev/null && echo skill-readable\n",
    );
    std::fs::write(f.root.join("private.txt"), "private-data").expect("write");
    let deck = f.deck();
    let arg = f.root.join("private.txt").to_string_lossy().into_owned();
    let hidden = RunOptions {
        fs_view: skilldeck_run::FsView::Only(
            ["/usr", "/bin", "/lib", "/lib64", "/etc"]
                .iter()
                .map(PathBuf::from)
                .collect(),
        ),
        ..Default::default()
    };
    let outcome = script(&deck, "probe", "read.sh", &[&arg], &hidden).expect("run");
    assert!(!outcome.stdout.contains("private-data"), "{outcome:?}");
    assert!(outcome.stdout.contains("skill-readable"), "{outcome:?}");
    let open = script(&deck, "probe", "read.sh", &[&arg], &RunOptions::default()).expect("run");
    assert!(open.stdout.contains("private-data"), "{open:?}");
}

#[test]
fn sandbox_caps_the_file_size() {
    let f = Fixture::new();
    f.skill("big", "");
    f.script(
        "big",
        "big.sh",
        "head -c 65536 /dev/zero > big.bin\nwc -c < big.bin\n",
    );
    let options = RunOptions {
        limits: skilldeck_run::Limits {
            file_size_bytes: 4096,
            ..Default::default()
        },
        ..Default::default()
    };
    let outcome = script(&f.deck(), "big", "big.sh", &[], &options).expect("run");
    let written: u64 = outcome.stdout.trim().parse().expect("size");
    assert_eq!(written, 4096, "{outcome:?}");
    let open = script(&f.deck(), "big", "big.sh", &[], &unsandboxed()).expect("run");
    assert_eq!(open.stdout.trim(), "65536");
}

#[test]
fn tool_calls_dispatch_to_the_script_runner_and_command_skills() {
    let f = Fixture::new();
    marker_skill(&f);
    f.skill("tools", "");
    f.script("tools", "args.sh", "echo \"$@\"\n");
    let deck = f.deck();
    let call = |name: &str, arguments: Value| {
        skilldeck_run::call_tool(
            &deck,
            name,
            &arguments,
            &unsandboxed(),
            &RunControl::default(),
        )
    };
    let outcome = call(
        "run_skill_script",
        json!({"skill_name": "tools", "script_name": "args.sh", "args": ["a", "b"]}),
    )
    .expect("script");
    assert_eq!(outcome.stdout, "a b\n");
    let outcome = call("calc", json!({"count": 3})).expect("command");
    assert_eq!(outcome.json, Some(json!({"count": 3, "mode": "fast"})));
    let err = call("run_skill_script", json!({"skill": "tools"})).expect_err("bad args");
    assert_eq!(err.code(), "INVALID_INPUT");
    let err = call("no_such_tool", json!({})).expect_err("unknown");
    assert_eq!(err.code(), "NOT_FOUND");
    let err = call("calc", json!([1])).expect_err("not an object");
    assert_eq!(err.code(), "INVALID_INPUT");
}

// The example agent loop (examples/agent-loop) is compiled into this test and run on its own
// project, so the example keeps working.
#[allow(dead_code)]
#[path = "../examples/agent_loop.rs"]
mod example;

#[test]
fn the_example_agent_loop_reaches_the_answer() {
    let project = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/agent-loop/project"
    );
    let answer = example::agent_loop(project).expect("the loop finishes");
    assert_eq!(
        answer,
        r#"The tool says: {"words": 9, "lines": 2, "chars": 43}"#
    );
}
