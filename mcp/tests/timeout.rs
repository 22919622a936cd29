//! A server that never answers does not hang the client: the handshake gives up after
//! `REQUEST_TIMEOUT` (on tokio's paused clock, so the test does not wait for it).

use skilldeck_mcp::{ClientError, McpSkillSource, REQUEST_TIMEOUT};

#[tokio::test(start_paused = true)]
async fn a_silent_server_times_out_the_handshake() {
    let tmp = tempfile::tempdir().expect("tmp");
    // Reads its input forever and never writes a byte.
    let args = vec!["-c".to_string(), "import sys; sys.stdin.read()".to_string()];
    let err = McpSkillSource::connect_command("mute", "python3", &args, tmp.path())
        .await
        .err()
        .expect("no answer");
    assert!(matches!(err, ClientError::Connect { .. }), "{err}");
    assert!(
        err.to_string().contains(&format!(
            "no answer to the handshake within {} s",
            REQUEST_TIMEOUT.as_secs()
        )),
        "{err}"
    );
}
