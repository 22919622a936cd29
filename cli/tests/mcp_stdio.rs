//! `skilldeck mcp` driven by a raw JSON-RPC client over stdio: every normative statement of
//! the Skills extension (SEP-2640) the server implements, checked on the wire.
#![cfg(feature = "mcp")]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const EXT: &str = "io.modelcontextprotocol/skills";
const WAIT: Duration = Duration::from_secs(20);

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    next_id: u64,
    /// `_meta` for 2026-07-28 requests; `None` on an `initialize` session.
    meta: Option<Value>,
    notifications: Vec<Value>,
}

impl Session {
    fn start(skills: &Path, extra: &[&str], modern: bool) -> Session {
        let empty = skills.parent().expect("parent").join("empty");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_skilldeck"))
            .arg("mcp")
            .args([
                "--project",
                empty.to_str().expect("utf8"),
                "--home",
                empty.to_str().expect("utf8"),
            ])
            .args([
                "--root",
                skills.to_str().expect("utf8"),
                "--no-host-settings",
            ])
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
            meta: None,
            notifications: Vec::new(),
        };
        if modern {
            session.meta = Some(json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"}
            }));
        }
        session
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Send a request and wait for its response (result or error object).
    fn call(&mut self, method: &str, mut params: Value) -> Value {
        if let (Some(meta), Some(obj)) = (&self.meta, params.as_object_mut()) {
            obj.insert("_meta".into(), meta.clone());
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.lines.recv_timeout(WAIT).expect("a response in time");
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            self.notifications.push(message);
        }
    }

    fn ok(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params.clone());
        response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method} {params}: {response}"))
    }

    fn error_code(&mut self, method: &str, params: Value) -> i64 {
        let response = self.call(method, params.clone());
        response["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{method} {params} should fail: {response}"))
    }

    fn initialize(&mut self) -> Value {
        let result = self.ok(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "1"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn skill_md(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n# {name}\n")
}

/// Five skills (one with scripts, references, a binary asset and a dotfile), a disabled
/// one, one over the 512-file limit, and a secret next to the skills root.
fn fixture(dir: &Path) -> std::path::PathBuf {
    let skills = dir.join("skills");
    write(
        &skills.join("alpha/SKILL.md"),
        skill_md(
            "alpha",
            "license: MIT\nx-custom:\n  - 1\n  - two\nmetadata:\n  version: \"1.0\"\n",
        )
        .as_bytes(),
    );
    write(
        &skills.join("alpha/scripts/run.sh"),
        b"#!/bin/sh\necho hi\r\n",
    );
    write(
        &skills.join("alpha/references/deep/notes.md"),
        "caf\u{e9} \u{1f600}\n".as_bytes(),
    );
    write(
        &skills.join("alpha/assets/logo.bin"),
        &[0, 159, 146, 150, 255],
    );
    write(&skills.join("alpha/.env"), b"SECRET=1");
    for name in ["beta", "gamma", "delta", "epsilon", "hidden-one"] {
        write(
            &skills.join(name).join("SKILL.md"),
            skill_md(name, "").as_bytes(),
        );
    }
    write(
        &skills.join("huge/SKILL.md"),
        skill_md("huge", "").as_bytes(),
    );
    for i in 0..512 {
        write(&skills.join(format!("huge/data/{i}.txt")), b"x");
    }
    write(&dir.join("secret.txt"), b"top secret");
    skills
}

fn bytes_of(content: &Value) -> Vec<u8> {
    use base64::Engine as _;
    if let Some(text) = content["text"].as_str() {
        text.as_bytes().to_vec()
    } else {
        base64::engine::general_purpose::STANDARD
            .decode(content["blob"].as_str().expect("text or blob"))
            .expect("base64")
    }
}

fn list_all(session: &mut Session, page_size: usize) -> Vec<Value> {
    let mut skills = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let page = session.ok("skills/list", params);
        // ListSkillsResult is a CacheableResult: ttlMs and cacheScope are required.
        assert!(page["ttlMs"].is_u64(), "{page}");
        assert!(
            matches!(page["cacheScope"].as_str(), Some("public" | "private")),
            "{page}"
        );
        if session.meta.is_some() {
            assert_eq!(page["resultType"], "complete", "{page}");
        }
        let entries = page["skills"].as_array().expect("skills array");
        assert!(entries.len() <= page_size, "page larger than asked");
        skills.extend(entries.iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => break,
        }
    }
    skills
}

/// Every child of a directory, following `nextCursor`.
fn read_dir_all(session: &mut Session, uri: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = match &cursor {
            Some(c) => json!({"uri": uri, "cursor": c}),
            None => json!({"uri": uri}),
        };
        let page = session.ok("resources/directory/read", params);
        assert_eq!(page["resultType"], "complete");
        out.extend(
            page["resources"]
                .as_array()
                .expect("resources")
                .iter()
                .cloned(),
        );
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return out,
        }
    }
}

#[test]
fn skills_extension_over_stdio_2026_07_28() {
    let tmp = tempfile::tempdir().expect("tmp");
    let skills = fixture(tmp.path());
    let mut s = Session::start(
        &skills,
        &["--page-size", "2", "--no-watch", "--disable", "hidden-one"],
        true,
    );

    // Capability: the extension with directoryRead, and resources (which it requires).
    let discover = s.ok("server/discover", json!({}));
    let caps = &discover["capabilities"];
    assert_eq!(caps["extensions"][EXT]["directoryRead"], true, "{discover}");
    assert!(caps["resources"].is_object(), "{discover}");

    // Pagination: whole entries, every skill once, across pages of 2.
    let listed = list_all(&mut s, 2);
    let uris: Vec<&str> = listed
        .iter()
        .map(|e| e["uri"].as_str().expect("uri"))
        .collect();
    assert_eq!(
        uris,
        [
            "skill://alpha/SKILL.md",
            "skill://beta/SKILL.md",
            "skill://delta/SKILL.md",
            "skill://epsilon/SKILL.md",
            "skill://gamma/SKILL.md"
        ],
        "disabled and over-limit skills are not served"
    );

    for entry in &listed {
        let uri = entry["uri"].as_str().expect("uri");
        let name = entry["frontmatter"]["name"].as_str().expect("name");
        // The final <skill-path> segment equals frontmatter.name.
        assert_eq!(uri, format!("skill://{name}/SKILL.md"));
        assert!(entry["frontmatter"]["description"].is_string());
        let files = entry["resources"]
            .as_array()
            .expect("resources is an array");
        // Complete: SKILL.md itself is listed; each file once.
        assert!(files.iter().any(|f| f["uri"] == entry["uri"]), "{entry}");
        let mut seen = std::collections::HashSet::new();
        for file in files {
            let file_uri = file["uri"].as_str().expect("uri");
            assert!(seen.insert(file_uri.to_string()), "{file_uri} listed twice");
            assert!(file_uri.starts_with(&format!("skill://{name}/")));
            // resources/read of every manifest file; size and digest re-verified.
            let read = s.ok("resources/read", json!({"uri": file_uri}));
            assert_eq!(read["resultType"], "complete");
            let contents = read["contents"].as_array().expect("contents");
            assert_eq!(contents.len(), 1);
            assert_eq!(contents[0]["uri"], file["uri"]);
            let bytes = bytes_of(&contents[0]);
            assert_eq!(
                file["size"].as_u64(),
                Some(bytes.len() as u64),
                "{file_uri}"
            );
            let digest = file["digest"].as_str().expect("digest");
            assert!(skilldeck::is_sha256_digest(digest), "{digest}");
            assert_eq!(digest, skilldeck::file_digest(&bytes), "{file_uri}");
            let on_disk =
                std::fs::read(skills.join(file_uri.trim_start_matches("skill://"))).expect("disk");
            assert_eq!(
                bytes, on_disk,
                "{file_uri}: served bytes are the file's bytes"
            );
        }
        // skills/get returns the same entry, with cache hints and resultType.
        let got = s.ok("skills/get", json!({"uri": uri}));
        assert_eq!(&got["skill"], entry);
        assert_eq!(got["resultType"], "complete");
        assert!(
            got["ttlMs"].is_u64() && got["cacheScope"].is_string(),
            "{got}"
        );
        assert!(got.get("nextCursor").is_none());
    }

    // Frontmatter verbatim: every field the author wrote.
    let alpha = &listed[0];
    assert_eq!(
        alpha["frontmatter"],
        json!({"name": "alpha", "description": "The alpha skill.", "license": "MIT",
               "x-custom": [1, "two"], "metadata": {"version": "1.0"}})
    );
    let alpha_files: Vec<&str> = alpha["resources"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["uri"].as_str().expect("uri"))
        .collect();
    assert_eq!(
        alpha_files,
        [
            "skill://alpha/SKILL.md",
            "skill://alpha/assets/logo.bin",
            "skill://alpha/references/deep/notes.md",
            "skill://alpha/scripts/run.sh",
        ],
        "a dotfile is not part of the served skill"
    );

    // -32602: unknown skill, a file URI given to skills/get, disabled and over-limit skills.
    for uri in [
        "skill://nope/SKILL.md",
        "skill://alpha/scripts/run.sh",
        "skill://alpha",
        "skill://hidden-one/SKILL.md",
        "skill://huge/SKILL.md",
        "skill://other/alpha/SKILL.md",
    ] {
        assert_eq!(
            s.error_code("skills/get", json!({"uri": uri})),
            -32602,
            "{uri}"
        );
    }
    let huge = s.call("skills/get", json!({"uri": "skill://huge/SKILL.md"}));
    assert!(
        huge["error"]["message"]
            .as_str()
            .expect("message")
            .contains("512"),
        "{huge}"
    );

    // -32602: files the server does not serve, and every URI escaping a skill.
    for uri in [
        "skill://alpha/.env",
        "skill://alpha/missing.md",
        "skill://alpha/../secret.txt",
        "skill://alpha/%2e%2e/secret.txt",
        "skill://alpha/%2E%2E%2Fsecret.txt",
        "skill://alpha/scripts/%2e%2e/%2e%2e/%2e%2e/secret.txt",
        "skill://alpha/./SKILL.md",
        "skill://alpha//SKILL.md",
        "skill://%2e%2e/secret.txt",
        "skill://alpha/scripts/run.sh%00",
        "file:///etc/passwd",
        "skill://hidden-one/SKILL.md",
        "skill://huge/SKILL.md",
        "skill://alpha/scripts",
    ] {
        assert_eq!(
            s.error_code("resources/read", json!({"uri": uri})),
            -32602,
            "{uri}"
        );
    }

    // resources/directory/read: direct children, files with metadata, directories as
    // inode/directory, no trailing slash; -32602 for files and unknown paths.
    let root = read_dir_all(&mut s, "skill://alpha");
    let children: Vec<(String, String)> = root
        .iter()
        .map(|r| {
            (
                r["uri"].as_str().expect("uri").to_string(),
                r["mimeType"].as_str().expect("mime").to_string(),
            )
        })
        .collect();
    assert_eq!(
        children,
        [
            (
                "skill://alpha/SKILL.md".to_string(),
                "text/markdown".to_string()
            ),
            (
                "skill://alpha/assets".to_string(),
                "inode/directory".to_string()
            ),
            (
                "skill://alpha/references".to_string(),
                "inode/directory".to_string()
            ),
            (
                "skill://alpha/scripts".to_string(),
                "inode/directory".to_string()
            ),
        ]
    );
    let deep = read_dir_all(&mut s, "skill://alpha/references");
    assert_eq!(deep.len(), 1);
    assert_eq!(deep[0]["uri"], "skill://alpha/references/deep");
    assert_eq!(deep[0]["mimeType"], "inode/directory");
    let scripts = read_dir_all(&mut s, "skill://alpha/scripts");
    assert_eq!(scripts[0]["name"], "run.sh");
    assert_eq!(scripts[0]["size"], 19, "size of the raw bytes, CRLF kept");
    for uri in [
        "skill://alpha/SKILL.md",
        "skill://alpha/nope",
        "skill://nope",
        "skill://alpha/%2e%2e",
        "skill://alpha/",
    ] {
        assert_eq!(
            s.error_code("resources/directory/read", json!({"uri": uri})),
            -32602,
            "{uri}"
        );
    }

    // A cursor the server never issued is invalid params, not a crash.
    assert_eq!(
        s.error_code("skills/list", json!({"cursor": "garbage"})),
        -32602
    );
}

#[test]
fn initialize_session_tools_prompts_and_list_changed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let skills = fixture(tmp.path());
    // Permission rules apply: `delta` denied (not served), `gamma` needs confirmation.
    let rules = tmp.path().join("rules.json");
    write(
        &rules,
        br#"{"semantics": "last-match", "rules": [{"pattern": "*", "decision": "allow"},
            {"pattern": "delta", "decision": "deny"}, {"pattern": "gamma", "decision": "ask"}]}"#,
    );
    let mut s = Session::start(&skills, &["--rules", rules.to_str().expect("utf8")], false);
    let init = s.initialize();
    assert_eq!(
        init["capabilities"]["extensions"][EXT]["directoryRead"],
        true
    );
    assert_eq!(init["capabilities"]["resources"]["listChanged"], true);

    // The extension works on a pre-2026 session too (the SDK omits resultType there,
    // as that revision's result shape has none).
    let uris: Vec<String> = list_all(&mut s, 100)
        .iter()
        .map(|e| e["uri"].as_str().expect("uri").to_string())
        .collect();
    assert_eq!(uris.len(), 5, "{uris:?}");
    assert!(
        !uris.contains(&"skill://delta/SKILL.md".to_string()),
        "a denied skill is not served"
    );
    assert_eq!(
        s.error_code("skills/get", json!({"uri": "skill://delta/SKILL.md"})),
        -32602
    );
    let asked = s.ok(
        "tools/call",
        json!({"name": "load_skill", "arguments": {"name": "gamma"}}),
    );
    let asked = asked["content"][0]["text"].as_str().expect("text");
    assert!(
        asked.contains("Permission: ask") && asked.contains("Confirm with the user"),
        "{asked}"
    );

    // Tools for clients without the extension.
    let tools = s.ok("tools/list", json!({}));
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["list_skills", "load_skill", "search_skills"]);
    let loaded = s.ok(
        "tools/call",
        json!({"name": "load_skill", "arguments": {"name": "alpha"}}),
    );
    let text = loaded["content"][0]["text"].as_str().expect("text");
    assert!(
        text.contains("# alpha") && text.contains("skill://alpha/SKILL.md"),
        "{text}"
    );
    let missing = s.ok(
        "tools/call",
        json!({"name": "load_skill", "arguments": {"name": "huge-nope"}}),
    );
    assert_eq!(missing["isError"], true);
    let found = s.ok(
        "tools/call",
        json!({"name": "search_skills", "arguments": {"query": "gamma"}}),
    );
    assert!(found["content"][0]["text"]
        .as_str()
        .expect("text")
        .contains("skill://gamma/SKILL.md"));

    // A prompt per user-invocable skill.
    let prompts = s.ok("prompts/list", json!({}));
    assert!(prompts["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .any(|p| p["name"] == "beta"));
    let prompt = s.ok("prompts/get", json!({"name": "beta"}));
    assert!(prompt["messages"][0]["content"]["text"]
        .as_str()
        .expect("text")
        .contains("# beta"));

    // A new skill on disk: the watcher reloads and the client is told the list changed.
    write(
        &skills.join("zeta/SKILL.md"),
        skill_md("zeta", "").as_bytes(),
    );
    let deadline = std::time::Instant::now() + WAIT;
    while !s
        .notifications
        .iter()
        .any(|n| n["method"] == "notifications/resources/list_changed")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no list_changed notification"
        );
        if let Ok(message) = s.lines.recv_timeout(Duration::from_millis(200)) {
            s.notifications.push(message);
        }
    }
    let after = list_all(&mut s, 100);
    assert!(after.iter().any(|e| e["uri"] == "skill://zeta/SKILL.md"));
}

/// Wait for a message whose `method` is `method` (notifications arrive unordered with
/// responses).
fn wait_for(s: &mut Session, method: &str) -> Value {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(found) = s.notifications.iter().find(|n| n["method"] == method) {
            return found.clone();
        }
        assert!(std::time::Instant::now() < deadline, "no {method}");
        if let Ok(message) = s.lines.recv_timeout(Duration::from_millis(200)) {
            s.notifications.push(message);
        }
    }
}

#[test]
fn subscriptions_listen_gets_list_changed_on_2026_07_28() {
    let tmp = tempfile::tempdir().expect("tmp");
    let skills = fixture(tmp.path());
    let mut s = Session::start(&skills, &[], true);
    s.ok("server/discover", json!({}));
    let meta = s.meta.clone().expect("modern");
    // A long-lived request: acknowledged by a notification, answered only at teardown.
    s.send(
        &json!({"jsonrpc": "2.0", "id": 999, "method": "subscriptions/listen",
                   "params": {"_meta": meta, "notifications": {"resourcesListChanged": true}}}),
    );
    wait_for(&mut s, "notifications/subscriptions/acknowledged");
    write(
        &skills.join("zeta/SKILL.md"),
        skill_md("zeta", "").as_bytes(),
    );
    wait_for(&mut s, "notifications/resources/list_changed");
    assert!(list_all(&mut s, 100)
        .iter()
        .any(|e| e["uri"] == "skill://zeta/SKILL.md"));
}
