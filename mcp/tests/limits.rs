//! The Skills extension's 16 MiB limit over the stdio transport, against an independent
//! server (`large_server.py`, raw JSON-RPC) that serves content at and past it: a file
//! within the limit arrives even when its message is over 16 MiB, a file larger than its
//! entry says is refused, a generated skill is cut off once what was retrieved passes
//! 16 MiB, and a message larger than any allowed file needs ends the connection at once
//! with its own error instead of waiting for the request timeout.

use skilldeck_mcp::{ClientError, McpSkillSource, RemoteSkill};
use std::path::Path;
use std::time::{Duration, Instant};

const MIB: usize = 1024 * 1024;

async fn connect(cache: &Path) -> McpSkillSource {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/large_server.py");
    McpSkillSource::connect_command(
        "large",
        "python3",
        &[script.to_string_lossy().into_owned()],
        cache,
    )
    .await
    .expect("connect")
}

fn named<'a>(listed: &'a [RemoteSkill], name: &str) -> &'a RemoteSkill {
    listed
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} not listed: {listed:?}"))
}

#[tokio::test]
async fn the_16_mib_limit_over_stdio() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cache = tmp.path().join("cache");
    let source = connect(&cache).await;
    let (listed, refused) = source.list().await.expect("list");
    assert!(refused.is_empty(), "{refused:?}");

    // 12 MiB of binary is a 16.7 MiB base64 message: within the extension's limit, so it
    // must arrive (rmcp's 16 MiB line limit dropped it and the read waited 60 s).
    let big = named(&listed, "big-binary");
    source.load(big).await.expect("load big-binary");
    let bytes = source
        .read_file(big, "data.bin")
        .await
        .expect("a 12 MiB file is within the limit");
    assert_eq!(bytes.len(), 12 * MIB);
    assert_eq!(&bytes[..3], [0, 1, 2]);

    // Listed as 10 bytes, served as 5 MiB: refused on size, nothing cached.
    let understated = named(&listed, "understated");
    let err = source
        .read_file(understated, "data.txt")
        .await
        .expect_err("more bytes than listed");
    assert_eq!(err.code(), "REMOTE_SIZE_MISMATCH", "{err}");
    assert!(!source.skill_dir(understated).join("data.txt").exists());

    // Generated: 9 MiB, then 9 more pass 16 MiB retrieved from the skill.
    let dynamic = named(&listed, "dynamic-big");
    source.load(dynamic).await.expect("load dynamic-big");
    let first = source.read_file(dynamic, "a.txt").await.expect("9 MiB");
    assert_eq!(first.len(), 9 * MIB);
    let err = source
        .read_file(dynamic, "b.txt")
        .await
        .expect_err("18 MiB retrieved");
    assert_eq!(err.code(), "REMOTE_LIMIT_EXCEEDED", "{err}");
    assert!(
        err.to_string()
            .contains("over the extension's 16 MiB limit"),
        "{err}"
    );
    // Loading again starts a new count.
    source.load(dynamic).await.expect("load again");
    source
        .read_file(dynamic, "b.txt")
        .await
        .expect("9 MiB again");

    // 40 MiB in one message: refused as soon as the bound is passed, without reading the
    // rest, and the connection is closed (last: nothing more can be asked).
    let huge = named(&listed, "dynamic-huge");
    source.load(huge).await.expect("load dynamic-huge");
    let started = Instant::now();
    let err = source
        .read_file(huge, "data.txt")
        .await
        .expect_err("a message over the bound");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "took {:?}: the request waited for its timeout",
        started.elapsed()
    );
    assert!(
        matches!(err, ClientError::MessageTooLarge { .. }),
        "{err:?}"
    );
    assert_eq!(err.code(), "REMOTE_LIMIT_EXCEEDED");
    assert!(
        err.to_string()
            .contains(&skilldeck_mcp::MAX_MESSAGE_BYTES.to_string()),
        "{err}"
    );
    let engine = skilldeck::Error::from(err);
    assert_eq!(engine.code(), "REMOTE_LIMIT_EXCEEDED");
    source.close().await;
}
