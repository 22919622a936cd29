//! `McpSkillSource::connect_url` against skilldeck's own streamable-HTTP server, in process:
//! both lifecycles' handshake, paged listing, lazy verified reads, custom headers, and the
//! errors a wrong URL gives. (The independent server is the Python SDK's, driven from
//! `mcp/tests/python/test_http_client.py`.)
#![cfg(all(feature = "http", feature = "http-client"))]

use skilldeck_mcp::{ClientError, McpSkillSource, ServerOptions, SkillServer};
use std::net::SocketAddr;
use std::path::Path;

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn server(dir: &Path) -> SkillServer {
    let skills = dir.join("skills");
    write(
        &skills.join("alpha/SKILL.md"),
        b"---\nname: alpha\ndescription: The alpha skill.\n---\n# alpha\n",
    );
    write(&skills.join("alpha/scripts/run.sh"), b"echo hi\n");
    write(&skills.join("alpha/assets/x.bin"), &[0, 255, 1]);
    write(
        &skills.join("beta/SKILL.md"),
        b"---\nname: beta\ndescription: The beta skill.\n---\n# beta\n",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
        project_dir: empty.clone(),
        home_dir: Some(empty),
        roots: vec![skilldeck::RootSpec::new(skills)],
        read_host_settings: false,
        ..Default::default()
    })
    .expect("deck");
    SkillServer::new(
        deck,
        ServerOptions {
            page_size: 1,
            ttl_ms: 0,
            ..Default::default()
        },
    )
    .expect("server")
}

/// Serve on an ephemeral loopback port; the address once it is bound.
async fn serve(server: SkillServer) -> SocketAddr {
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let addr: SocketAddr = "127.0.0.1:0".parse().expect("addr");
        let _ = skilldeck_mcp::serve_http(server, addr, &[], move |bound| {
            let _ = tx.send(bound);
        })
        .await;
    });
    rx.await.expect("bound")
}

#[tokio::test]
async fn connect_url_lists_loads_and_verifies_over_http() {
    let tmp = tempfile::tempdir().expect("tmp");
    let addr = serve(server(tmp.path())).await;
    let cache = tmp.path().join("cache");
    let url = format!("http://{addr}/mcp");
    let headers = vec![("X-Test".to_string(), "1".to_string())];
    let source = McpSkillSource::connect_url("web", &url, &headers, &cache)
        .await
        .expect("connect");
    assert_eq!(source.protocol_version().as_deref(), Some("2026-07-28"));
    let (listed, refused) = source.list().await.expect("list");
    assert!(refused.is_empty(), "{refused:?}");
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["web:alpha", "web:beta"]);
    let alpha = &listed[0];
    let verified = source.load(alpha).await.expect("load");
    assert!(verified.dir.starts_with(cache.join("web").join("alpha")));
    assert_eq!(
        std::fs::read(verified.dir.join("SKILL.md")).expect("cached"),
        b"---\nname: alpha\ndescription: The alpha skill.\n---\n# alpha\n"
    );
    assert!(!verified.dir.join("scripts/run.sh").exists(), "lazy reads");
    assert_eq!(
        source.read_file(alpha, "assets/x.bin").await.expect("blob"),
        [0, 255, 1]
    );
    let got = source.get("skill://beta/SKILL.md").await.expect("get");
    assert_eq!(got.name, "beta");
    let unknown = source
        .get("skill://nope/SKILL.md")
        .await
        .expect_err("unknown skill");
    assert!(matches!(unknown, ClientError::Protocol { .. }), "{unknown}");
    source.close().await;
}

#[tokio::test]
async fn https_speaks_tls_and_fails_against_a_plain_http_server() {
    let tmp = tempfile::tempdir().expect("tmp");
    let addr = serve(server(tmp.path())).await;
    // The same server that answers http:// (above) cannot complete a TLS handshake.
    let err = McpSkillSource::connect_url("tls", &format!("https://{addr}/mcp"), &[], tmp.path())
        .await
        .err()
        .expect("no TLS server there");
    assert!(matches!(err, ClientError::Connect { .. }), "{err}");
    // rustls' own refusal of a plain-HTTP answer: the handshake was attempted.
    assert!(err.to_string().contains("corrupt message"), "{err}");
    let plain = McpSkillSource::connect_url("tls", &format!("http://{addr}/mcp"), &[], tmp.path())
        .await
        .expect("plain HTTP works");
    plain.close().await;
}

#[tokio::test]
async fn connect_url_reports_unreachable_servers_and_bad_urls() {
    let tmp = tempfile::tempdir().expect("tmp");
    // A port that was bound and released: nothing listens there.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr");
    for url in [
        format!("http://{free}/mcp"),
        "ftp://example.com/mcp".to_string(),
    ] {
        let err = McpSkillSource::connect_url("x", &url, &[], tmp.path())
            .await
            .err()
            .expect("refused");
        assert!(matches!(err, ClientError::Connect { .. }), "{url}: {err}");
    }
    let err = McpSkillSource::connect_url(
        "x",
        "http://127.0.0.1:1/mcp",
        &[("bad header".to_string(), "v".to_string())],
        tmp.path(),
    )
    .await
    .err()
    .expect("bad header");
    assert!(err.to_string().contains("header name"), "{err}");
}

#[tokio::test]
async fn a_file_within_the_limit_travels_whatever_its_encoded_size() {
    let tmp = tempfile::tempdir().expect("tmp");
    let skills = tmp.path().join("skills");
    write(
        &skills.join("big/SKILL.md"),
        b"---\nname: big\ndescription: One large binary file.\n---\n# big\n",
    );
    // 12 MiB that is not UTF-8 travels as base64: a 16.7 MiB response, over rmcp's default
    // 16 MiB bound on a response body, within the extension's 16 MiB for the file itself.
    let data: Vec<u8> = (0..12 * 1024 * 1024).map(|i| (i % 256) as u8).collect();
    write(&skills.join("big/data.bin"), &data);
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
        project_dir: empty.clone(),
        home_dir: Some(empty),
        roots: vec![skilldeck::RootSpec::new(skills)],
        read_host_settings: false,
        ..Default::default()
    })
    .expect("deck");
    let addr = serve(SkillServer::new(deck, ServerOptions::default()).expect("server")).await;
    let source = McpSkillSource::connect_url(
        "web",
        &format!("http://{addr}/mcp"),
        &[],
        &tmp.path().join("cache"),
    )
    .await
    .expect("connect");
    let (listed, refused) = source.list().await.expect("list");
    assert!(refused.is_empty(), "{refused:?}");
    let big = listed.iter().find(|s| s.name == "big").expect("big listed");
    let got = source
        .read_file(big, "data.bin")
        .await
        .expect("12 MiB file");
    assert!(got == data, "the bytes differ");
    source.close().await;
}
