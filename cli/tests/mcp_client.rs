//! The MCP skill source (`skilldeck_mcp::McpSkillSource`, `skilldeck mcp-client`) against
//! skilldeck's own server and against an independent fake server that serves broken
//! entries and content (`mcp/tests/fake_server.py`), all of which must be refused.
#![cfg(feature = "mcp")]

use skilldeck_mcp::{ClientError, McpSkillSource};
use std::path::{Path, PathBuf};

fn fake_server() -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp/tests/fake_server.py");
    vec!["python3".into(), script.to_string_lossy().into_owned()]
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// A skills root with `alpha` (three files) and `beta`, plus empty project/home dirs.
fn local_skills(dir: &Path) -> (PathBuf, PathBuf) {
    let skills = dir.join("skills");
    write(
        &skills.join("alpha/SKILL.md"),
        b"---\nname: alpha\ndescription: The alpha skill.\nmetadata:\n  v: 2\n---\n# alpha\n",
    );
    write(&skills.join("alpha/scripts/run.sh"), b"echo hi\n");
    write(&skills.join("alpha/assets/x.bin"), &[0, 255, 1]);
    write(
        &skills.join("beta/SKILL.md"),
        b"---\nname: beta\ndescription: The beta skill.\n---\n# beta\n",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    (skills, empty)
}

fn own_server(skills: &Path, empty: &Path) -> Vec<String> {
    [
        env!("CARGO_BIN_EXE_skilldeck"),
        "mcp",
        "--no-watch",
        "--page-size",
        "1",
        "--no-host-settings",
        "--project",
        empty.to_str().expect("utf8"),
        "--home",
        empty.to_str().expect("utf8"),
        "--root",
        skills.to_str().expect("utf8"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

async fn connect(label: &str, command: &[String], cache: &Path) -> McpSkillSource {
    McpSkillSource::connect_command(label, &command[0], &command[1..], cache)
        .await
        .expect("connect")
}

#[test]
fn client_against_skilldecks_own_server_verifies_and_caches() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (skills, empty) = local_skills(tmp.path());
    let cache = tmp.path().join("cache");
    runtime().block_on(async {
        let source = connect("local-deck", &own_server(&skills, &empty), &cache).await;
        assert_eq!(source.protocol_version().as_deref(), Some("2026-07-28"));
        let (listed, refused) = source.list().await.expect("list");
        assert!(refused.is_empty(), "{refused:?}");
        let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            ["local-deck:alpha", "local-deck:beta"],
            "paged with one skill per page"
        );
        let alpha = &listed[0];
        assert_eq!(alpha.files.len(), 3);
        assert_eq!(alpha.frontmatter["metadata"], serde_json::json!({"v": 2}));

        // Loading fetches SKILL.md only (lazy retrieval); other files when read.
        let verified = source.load(alpha).await.expect("load");
        let cached = |dir: &Path| -> Vec<String> {
            let mut out = Vec::new();
            let mut stack = vec![dir.to_path_buf()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).expect("dir").flatten() {
                    if e.file_type().expect("type").is_dir() {
                        stack.push(e.path());
                    } else {
                        out.push(
                            e.path()
                                .strip_prefix(dir)
                                .expect("rel")
                                .to_string_lossy()
                                .into_owned(),
                        );
                    }
                }
            }
            out.sort();
            out
        };
        assert_eq!(cached(&verified.dir), ["SKILL.md"]);
        // The cache path encodes the server label and the skill path.
        let rel = verified.dir.strip_prefix(&cache).expect("inside the cache");
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        assert_eq!(&parts[..2], ["local-deck", "alpha"]);
        let script = source
            .read_file(alpha, "scripts/run.sh")
            .await
            .expect("read");
        assert_eq!(script, b"echo hi\n");
        assert_eq!(
            source.read_file(alpha, "assets/x.bin").await.expect("blob"),
            [0, 255, 1]
        );
        assert_eq!(
            cached(&verified.dir),
            ["SKILL.md", "assets/x.bin", "scripts/run.sh"]
        );
        let meta = std::fs::metadata(verified.dir.join("scripts/run.sh")).expect("meta");
        assert!(meta.permissions().readonly(), "cached files are read-only");
        // A file the held entry does not list is a verification failure, not a read.
        write(&skills.join("alpha/new.md"), b"new");
        let unlisted = source
            .read_file(alpha, "new.md")
            .await
            .expect_err("unlisted");
        assert!(
            matches!(unlisted, ClientError::Verification { .. }),
            "{unlisted}"
        );
        assert_eq!(unlisted.code(), "REMOTE_NOT_LISTED");

        // A cached copy is re-hashed on use: a tampered file is replaced, not trusted.
        let path = verified.dir.join("scripts/run.sh");
        let mut perms = std::fs::metadata(&path).expect("meta").permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&path, perms).expect("chmod");
        std::fs::write(&path, b"rm -rf /\n").expect("tamper");
        assert_eq!(
            source
                .read_file(alpha, "scripts/run.sh")
                .await
                .expect("re-read"),
            b"echo hi\n"
        );
        assert_eq!(std::fs::read(&path).expect("read"), b"echo hi\n");

        // A file changed on the server after listing: the held entry no longer matches.
        write(&skills.join("alpha/scripts/run.sh"), b"echo changed\n");
        std::fs::remove_dir_all(&cache).expect("clear the cache");
        let err = source
            .read_file(alpha, "scripts/run.sh")
            .await
            .expect_err("stale entry");
        assert!(matches!(err, ClientError::Verification { .. }), "{err}");
        assert!(err.to_string().contains("bytes"), "{err}");
        assert_eq!(err.code(), "REMOTE_SIZE_MISMATCH");
        let engine = skilldeck::Error::from(err);
        assert_eq!(engine.code(), "REMOTE_SIZE_MISMATCH");
        assert!(engine.to_string().contains("reload the deck"), "{engine}");
        // Refreshing the entry with skills/get recovers (and lists the new file).
        let fresh = source.get("skill://alpha/SKILL.md").await.expect("get");
        assert_ne!(fresh.files, alpha.files);
        let all = source.fetch_all(&fresh).await.expect("fetch fresh");
        assert_eq!(
            cached(&all.dir),
            ["SKILL.md", "assets/x.bin", "new.md", "scripts/run.sh"]
        );

        let unknown = source
            .get("skill://nope/SKILL.md")
            .await
            .expect_err("unknown");
        assert!(
            unknown.to_string().contains("-32602") || unknown.to_string().contains("No skill"),
            "{unknown}"
        );
        source.close().await;
    });
}

#[test]
fn client_refuses_what_a_broken_server_serves() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cache = tmp.path().join("cache");
    runtime().block_on(async {
        let source = connect("fake", &fake_server(), &cache).await;
        // The fake server knows only `initialize`: the client falls back to it.
        assert_eq!(source.protocol_version().as_deref(), Some("2025-11-25"));
        let (listed, refused) = source.list().await.expect("list");
        let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "fake:good",
                "fake:bad-digest",
                "fake:wrong-size",
                "fake:fm-mismatch",
                "fake:dynamic",
                "fake:alpha",
                "fake:team-a/same",
                "fake:team-b/same"
            ]
        );
        let limits: Vec<&str> = refused
            .iter()
            .filter(|e| e.code() == "REMOTE_LIMIT_EXCEEDED")
            .map(|e| match e {
                ClientError::BadEntry { uri, .. } => uri.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(
            limits,
            ["skill://too-many/SKILL.md", "skill://too-big/SKILL.md"]
        );
        let refused: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(refused.len(), 6, "{refused:#?}");
        assert!(refused
            .iter()
            .any(|r| r.contains("skill://no-resources/SKILL.md")
                && r.contains("not a valid skill entry")));
        assert!(refused
            .iter()
            .any(|r| r.contains("skill://too-many/SKILL.md") && r.contains("513 files")));
        assert!(refused
            .iter()
            .any(|r| r.contains("skill://too-big/SKILL.md") && r.contains("16 MiB")));
        assert_eq!(
            refused
                .iter()
                .filter(|r| r.contains("skill://dup/SKILL.md") && r.contains("more than one entry"))
                .count(),
            2
        );
        assert!(refused
            .iter()
            .any(|r| r.contains("skill://escape/SKILL.md") && r.contains("not inside the skill")));

        let by_id = |id: &str| listed.iter().find(|s| s.id == id).expect("listed").clone();
        // A generated skill: fetched fresh on every load (no digest to trust a copy by), its
        // frontmatter still checked, reads confined to it and capped at 16 MiB.
        let dynamic = by_id("fake:dynamic");
        assert!(dynamic.dynamic && dynamic.files.is_empty());
        let first = source.load(&dynamic).await.expect("dynamic loads");
        let read = |dir: &Path| std::fs::read_to_string(dir.join("SKILL.md")).expect("cached");
        assert!(
            read(&first.dir).contains("read number"),
            "{}",
            read(&first.dir)
        );
        let before = read(&first.dir);
        let second = source.load(&dynamic).await.expect("dynamic loads again");
        assert_eq!(first.dir, second.dir);
        assert_ne!(
            read(&second.dir),
            before,
            "a dynamic skill is read again, not cached"
        );
        let files = source.files(&dynamic).await.expect("files");
        assert_eq!(
            files.iter().map(|f| f.uri.as_str()).collect::<Vec<_>>(),
            ["skill://dynamic/SKILL.md"],
            "without directoryRead only SKILL.md is known"
        );
        let escape = source
            .read_file(&dynamic, "../good/SKILL.md")
            .await
            .expect_err("outside the skill");
        assert_eq!(escape.code(), "REMOTE_NOT_LISTED", "{escape}");

        let good = by_id("fake:good");
        source.load(&good).await.expect("the sound skill loads");
        let blob = source.read_file(&good, "notes/a.txt").await.expect("blob");
        assert_eq!(blob, b"\x00\x01binary\xff");

        for (id, why, code) in [
            ("fake:bad-digest", "digest", "REMOTE_DIGEST_MISMATCH"),
            ("fake:wrong-size", "bytes", "REMOTE_SIZE_MISMATCH"),
            (
                "fake:fm-mismatch",
                "frontmatter differs",
                "REMOTE_FRONTMATTER_MISMATCH",
            ),
        ] {
            let err = source.load(&by_id(id)).await.expect_err(id);
            assert!(
                matches!(err, ClientError::Verification { .. }),
                "{id}: {err}"
            );
            assert!(err.to_string().contains(why), "{id}: {err}");
            assert_eq!(err.code(), code, "{id}: {err}");
        }
        // Nothing of a refused skill reaches the cache.
        for name in ["bad-digest", "wrong-size", "fm-mismatch"] {
            assert!(!cache.join("fake").join(name).exists(), "{name} was cached");
        }

        // No silent shadowing: the server's `alpha` keeps its own id next to the local one,
        // and the two `same` skills of one server are told apart by path.
        let local = vec![("alpha".to_string(), "alpha".to_string())];
        let collisions = skilldeck_mcp::collisions(&listed, &local);
        let names: Vec<(&str, Vec<&str>)> = collisions
            .iter()
            .map(|c| (c.name.as_str(), c.ids.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            names,
            [
                ("alpha", vec!["alpha", "fake:alpha"]),
                ("same", vec!["fake:team-a/same", "fake:team-b/same"])
            ]
        );
        source.close().await;
    });
}

#[test]
fn mcp_client_command_lists_refusals_and_collisions() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (skills, empty) = local_skills(tmp.path());
    let cache = tmp.path().join("cache");
    let mut args: Vec<String> = [
        "mcp-client",
        "list",
        "--json",
        "--label",
        "fake",
        "--no-host-settings",
        "--project",
        empty.to_str().expect("utf8"),
        "--home",
        empty.to_str().expect("utf8"),
        "--root",
        skills.to_str().expect("utf8"),
        "--cache",
        cache.to_str().expect("utf8"),
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(fake_server());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(&args)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(1),
        "refused entries make the listing fail"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["refused"].as_array().expect("refused").len(), 6);
    assert!(json["collisions"]
        .as_array()
        .expect("collisions")
        .iter()
        .any(|c| c["name"] == "alpha"));

    // The cache may not sit where skills are discovered.
    let inside = skills.join("cache");
    let pos = args.iter().position(|a| a == "--cache").expect("flag") + 1;
    args[pos] = inside.to_string_lossy().into_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(&args)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("overlaps the skill discovery path"));

    // get --all: fetch and verify one skill of skilldeck's own server.
    let mut get: Vec<String> = [
        "mcp-client",
        "get",
        "skill://alpha/SKILL.md",
        "--all",
        "--label",
        "own",
        "--no-host-settings",
        "--project",
        empty.to_str().expect("utf8"),
        "--home",
        empty.to_str().expect("utf8"),
        "--cache",
        cache.to_str().expect("utf8"),
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    get.extend(own_server(&skills, &empty));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skilldeck"))
        .args(&get)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("own:alpha  verified 3 of 3 files"));
}
