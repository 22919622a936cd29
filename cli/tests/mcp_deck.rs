//! `--mcp-server` / `--mcp-url` on list, render, activate and show: skilldeck's own MCP
//! server (another `skilldeck mcp` process, or `--http`) as a deck root of the CLI.
#![cfg(feature = "mcp")]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// Remote skills `alpha` (a name the local deck also has) and `gamma`; local `alpha`.
fn fixture(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let remote = dir.join("remote");
    write(
        &remote.join("alpha/SKILL.md"),
        b"---\nname: alpha\ndescription: Remote alpha.\nallowed-tools: Bash\n---\nremote alpha body\n",
    );
    write(&remote.join("alpha/scripts/run.sh"), b"echo hi\n");
    write(
        &remote.join("gamma/SKILL.md"),
        b"---\nname: gamma\ndescription: Remote gamma fills PDF forms.\n---\ngamma got $ARGUMENTS\n",
    );
    let local = dir.join("local");
    write(
        &local.join("alpha/SKILL.md"),
        b"---\nname: alpha\ndescription: Local alpha.\n---\nlocal alpha body\n",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    (remote, local, empty)
}

fn server_command(remote: &Path, empty: &Path) -> String {
    format!(
        "srv={} mcp --no-watch --no-host-settings --project {} --home {} --root {}",
        env!("CARGO_BIN_EXE_skilldeck"),
        empty.display(),
        empty.display(),
        remote.display()
    )
}

fn skilldeck(args: &[&str], local: &Path, empty: &Path, cache: &Path, remote: &[&str]) -> Output {
    let (command, rest) = args.split_first().expect("a subcommand");
    Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .arg(command)
        .args(rest)
        .args(["--no-host-settings", "--project"])
        .arg(empty)
        .arg("--home")
        .arg(empty)
        .arg("--root")
        .arg(local)
        .arg("--mcp-cache")
        .arg(cache)
        .args(remote)
        .env("NO_COLOR", "1")
        .output()
        .expect("run skilldeck")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn mcp_server_skills_join_list_render_activate_and_show() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (remote, local, empty) = fixture(tmp.path());
    let cache = tmp.path().join("cache");
    let server = server_command(&remote, &empty);
    let flags = ["--mcp-server", server.as_str()];

    let out = skilldeck(&["list", "--json"], &local, &empty, &cache, &flags);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listing: Value = serde_json::from_slice(&out.stdout).expect("json");
    let skills = listing["skills"].as_array().expect("skills");
    let ids: Vec<&str> = skills
        .iter()
        .map(|s| s["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["alpha", "srv:alpha", "srv:gamma"]);
    assert_eq!(skills[2]["source"], "mcp://srv");
    assert_eq!(skills[2]["name"], "srv:gamma");
    let diagnostics = listing["diagnostics"].as_array().expect("diagnostics");
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "REMOTE_NAME_COLLISION"
                && d["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("`alpha`, `srv:alpha`")),
        "{diagnostics:?}"
    );
    assert!(!cache.join("srv").exists(), "listing fetches no file");

    let out = skilldeck(
        &["render", "--format", "xml"],
        &local,
        &empty,
        &cache,
        &flags,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rendered = text(&out.stdout);
    assert!(rendered.contains("<name>srv:gamma</name>"), "{rendered}");
    assert!(rendered.contains("<name>alpha</name>"), "{rendered}");

    let out = skilldeck(
        &["activate", "srv:gamma", "--args", "form.pdf"],
        &local,
        &empty,
        &cache,
        &flags,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let activated = text(&out.stdout);
    assert!(
        activated.starts_with("Origin: MCP server `srv` (skill `srv:gamma`)."),
        "{activated}"
    );
    assert!(activated.contains("gamma got form.pdf"), "{activated}");

    // `alpha` is the local skill; the remote one answers only to its id.
    let out = skilldeck(&["activate", "alpha"], &local, &empty, &cache, &flags);
    assert!(
        text(&out.stdout).contains("local alpha body"),
        "{}",
        text(&out.stdout)
    );
    let out = skilldeck(&["activate", "gamma"], &local, &empty, &cache, &flags);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));

    let out = skilldeck(
        &["show", "srv:alpha", "--json"],
        &local,
        &empty,
        &cache,
        &flags,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(shown["skill"]["manifest"]["name"], "alpha");
    assert!(
        shown["skill"]["manifest"]["allowed_tools"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "a remote allowed-tools grant is dropped: {shown}"
    );
    assert!(shown["skill"]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .any(|d| d["code"] == "REMOTE_FIELD_IGNORED"));
}

#[test]
fn the_cache_may_not_sit_in_a_discovery_path_and_a_dead_server_fails() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (remote, local, empty) = fixture(tmp.path());
    let server = server_command(&remote, &empty);
    let out = skilldeck(
        &["list"],
        &local,
        &empty,
        &local.join("cache"),
        &["--mcp-server", server.as_str()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("overlaps the skill discovery path"));

    let out = skilldeck(
        &["list"],
        &local,
        &empty,
        &tmp.path().join("cache"),
        &["--mcp-server", "gone=/nonexistent/server"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("gone: cannot start or reach the MCP server"));
}

#[test]
fn a_server_command_is_split_like_a_shell_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (remote, local, empty) = fixture(&tmp.path().join("a dir"));
    let server = format!(
        "srv='{}' mcp --no-watch --no-host-settings --project \"{}\" --home {} --root '{}'",
        env!("CARGO_BIN_EXE_skilldeck"),
        empty.display(),
        empty.display().to_string().replace(' ', "\\ "),
        remote.display()
    );
    let cache = tmp.path().join("cache");
    let out = skilldeck(
        &["activate", "srv:gamma", "--args", "q"],
        &local,
        &empty,
        &cache,
        &["--mcp-server", server.as_str()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("gamma got q"));

    let unbalanced = format!(
        "srv={} mcp --root '{}",
        env!("CARGO_BIN_EXE_skilldeck"),
        remote.display()
    );
    let out = skilldeck(
        &["list"],
        &local,
        &empty,
        &cache,
        &["--mcp-server", unbalanced.as_str()],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("unbalanced quote"),
        "{}",
        text(&out.stderr)
    );
}

#[cfg(feature = "http")]
#[test]
fn mcp_url_reaches_a_streamable_http_server() {
    use std::io::{BufRead, BufReader};
    let tmp = tempfile::tempdir().expect("tmp");
    let (remote, local, empty) = fixture(tmp.path());
    let mut server = Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args([
            "mcp",
            "--no-watch",
            "--no-host-settings",
            "--http",
            "127.0.0.1:0",
        ])
        .arg("--project")
        .arg(&empty)
        .arg("--home")
        .arg(&empty)
        .arg("--root")
        .arg(&remote)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the HTTP server");
    let mut line = String::new();
    BufReader::new(server.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("the endpoint line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line}"))
        .to_string();
    let labelled = format!("web={url}");
    let out = skilldeck(
        &["activate", "web:gamma", "--args", "x"],
        &local,
        &empty,
        &tmp.path().join("cache"),
        &["--mcp-url", labelled.as_str()],
    );
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let activated = text(&out.stdout);
    assert!(
        activated.starts_with("Origin: MCP server `web`"),
        "{activated}"
    );
    assert!(activated.contains("gamma got x"), "{activated}");
}

/// Waits for `done` (a server's watcher and a notification are asynchronous), giving up
/// after a generous bound so a broken notification path fails instead of hanging.
#[cfg(feature = "watch")]
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// skilldeck's own server reloads when a skill appears and says so (`list_changed`, on the
/// `subscriptions/listen` stream of a 2026-07-28 session): the deck's remote catalog goes
/// stale, the next `load()` lists again, and a watching deck reloads by itself.
#[cfg(feature = "watch")]
#[test]
fn a_servers_list_changed_makes_the_deck_list_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (remote, local, empty) = fixture(tmp.path());
    let spec = skilldeck_mcp::ServerSpec::Command {
        program: env!("CARGO_BIN_EXE_skilldeck").into(),
        args: [
            "mcp",
            "--no-host-settings",
            "--project",
            &empty.to_string_lossy(),
            "--home",
            &empty.to_string_lossy(),
            "--root",
            &remote.to_string_lossy(),
        ]
        .map(str::to_string)
        .to_vec(),
    };
    let source = std::sync::Arc::new(
        skilldeck_mcp::McpDeckSource::connect("srv", spec, &tmp.path().join("cache"))
            .expect("connect"),
    );
    let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
        project_dir: empty.clone(),
        home_dir: Some(empty.clone()),
        roots: vec![skilldeck::RootSpec::new(local.clone())],
        read_host_settings: false,
        ..Default::default()
    })
    .expect("deck");
    deck.add_remote_source(source.clone());
    let ids = |catalog: &skilldeck::Catalog| -> Vec<String> {
        catalog.listed().map(|s| s.id.to_string()).collect()
    };
    assert_eq!(
        ids(&deck.load().expect("load")),
        ["alpha", "srv:alpha", "srv:gamma"]
    );
    assert!(!source.is_stale());
    // Nothing changed: the snapshot stands.
    assert_eq!(deck.load().expect("load").skills.len(), 3);

    write(
        &remote.join("delta/SKILL.md"),
        b"---\nname: delta\ndescription: Appears later.\n---\ndelta body\n",
    );
    eventually("the server's list_changed marks the source stale", || {
        source.is_stale()
    });
    assert_eq!(
        ids(&deck.load().expect("load")),
        ["alpha", "srv:alpha", "srv:delta", "srv:gamma"],
        "a plain load lists again once the source is stale"
    );
    let activated = deck
        .activate("srv:delta", &skilldeck::ActivateOptions::default())
        .expect("the new skill activates");
    assert!(activated.text.contains("delta body"), "{}", activated.text);

    // A watching deck reloads on its own and reports the change.
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    deck.subscribe(move |event| {
        if let skilldeck::Event::Changed { diff } = event {
            let _ = tx.lock().map(|tx| tx.send(diff.added.clone()));
        }
    });
    let _watcher = deck
        .watch(std::time::Duration::from_millis(50))
        .expect("watch");
    write(
        &remote.join("epsilon/SKILL.md"),
        b"---\nname: epsilon\ndescription: Appears while watched.\n---\n",
    );
    let added = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a changed event from the remote source");
    assert_eq!(added, ["srv:epsilon"]);
}
