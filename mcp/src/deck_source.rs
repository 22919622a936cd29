//! An MCP server as a deck root ([`skilldeck::RemoteSkillSource`]): the server is listed
//! once when connected; its checked entries join the deck's catalog, the refused ones
//! become diagnostics, and activation fetches and verifies a skill's `SKILL.md` through
//! [`McpSkillSource::load`]. The deck is synchronous and may be called from any thread
//! (an async one included), so the connection lives on a thread of its own with its own
//! runtime, and calls reach it over a channel.

use crate::client::{ClientError, McpSkillSource, RemoteSkill};
use skilldeck::{Diagnostic, RemoteEntry, RemoteListing};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Mutex;

/// How to reach a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerSpec {
    /// Start `program args…` and speak MCP over its stdio.
    Command { program: String, args: Vec<String> },
    /// Streamable HTTP at `url`, `headers` sent with every request (feature `http-client`).
    Url {
        url: String,
        headers: Vec<(String, String)>,
    },
}

type Reply = mpsc::Sender<Result<(), ClientError>>;

/// An MCP server's skills for [`skilldeck::Deck::add_remote_source`].
pub struct McpDeckSource {
    label: String,
    listing: RemoteListing,
    skills: HashMap<String, RemoteSkill>,
    /// Fetch requests to the connection's thread; dropping it closes the connection.
    requests: Mutex<mpsc::Sender<(RemoteSkill, Reply)>>,
}

/// Whether `label` can name a server: ids (`label:path`), the origin `mcp://label` and the
/// cache directory all embed it.
fn valid_label(label: &str) -> bool {
    !label.is_empty()
        && label != "."
        && label != ".."
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

impl McpDeckSource {
    /// Connect to the server, list its skills (every page) and keep the listing. `label` is
    /// the host's name for the server (`[A-Za-z0-9._-]`); `cache_root` must lie outside
    /// every skill discovery path.
    pub fn connect(
        label: &str,
        server: ServerSpec,
        cache_root: &Path,
    ) -> Result<McpDeckSource, ClientError> {
        if !valid_label(label) {
            return Err(ClientError::Connect {
                label: label.to_string(),
                message: "a server label is letters, digits, `.`, `_` and `-`".into(),
            });
        }
        let (ready_tx, ready_rx) = mpsc::channel();
        let (requests, inbox) = mpsc::channel::<(RemoteSkill, Reply)>();
        let thread_label = label.to_string();
        let cache_root = cache_root.to_path_buf();
        let spawned = std::thread::Builder::new()
            .name(format!("mcp-{label}"))
            .spawn(move || serve(&thread_label, server, &cache_root, ready_tx, inbox));
        if let Err(err) = spawned {
            return Err(ClientError::Connect {
                label: label.to_string(),
                message: format!("cannot start the connection thread: {err}"),
            });
        }
        let listed = ready_rx.recv().map_err(|_| ClientError::Connect {
            label: label.to_string(),
            message: "the connection thread ended before listing".into(),
        })??;
        let (skills, refused) = listed;
        let listing = RemoteListing {
            entries: skills.iter().map(|(s, dir)| entry(s, dir)).collect(),
            diagnostics: refused
                .iter()
                .map(|e| Diagnostic::error("REMOTE_ENTRY_REFUSED", e.to_string()))
                .collect(),
        };
        Ok(McpDeckSource {
            label: label.to_string(),
            listing,
            skills: skills.into_iter().map(|(s, _)| (s.id.clone(), s)).collect(),
            requests: Mutex::new(requests),
        })
    }
}

fn entry(skill: &RemoteSkill, dir: &Path) -> RemoteEntry {
    RemoteEntry {
        id: skill.id.clone(),
        name: skill.name.clone(),
        uri: skill.uri.clone(),
        frontmatter: skill.frontmatter.clone(),
        location: dir.join(crate::uri::SKILL_MD),
    }
}

type Listed = (Vec<(RemoteSkill, PathBuf)>, Vec<ClientError>);

/// The connection's thread: connect, list, report, then fetch on request until every
/// sender is gone, and close.
fn serve(
    label: &str,
    server: ServerSpec,
    cache_root: &Path,
    ready: mpsc::Sender<Result<Listed, ClientError>>,
    inbox: mpsc::Receiver<(RemoteSkill, Reply)>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            let _ = ready.send(Err(ClientError::Connect {
                label: label.to_string(),
                message: format!("cannot start the async runtime: {err}"),
            }));
            return;
        }
    };
    runtime.block_on(async move {
        let source = match server {
            ServerSpec::Command { program, args } => {
                McpSkillSource::connect_command(label, &program, &args, cache_root).await
            }
            #[cfg(feature = "http-client")]
            ServerSpec::Url { url, headers } => {
                McpSkillSource::connect_url(label, &url, &headers, cache_root).await
            }
            #[cfg(not(feature = "http-client"))]
            ServerSpec::Url { url, .. } => Err(ClientError::Connect {
                label: label.to_string(),
                message: format!(
                    "{url}: this build has no HTTP client (skilldeck-mcp feature `http-client`)"
                ),
            }),
        };
        let source = match source {
            Ok(source) => source,
            Err(err) => {
                let _ = ready.send(Err(err));
                return;
            }
        };
        match source.list().await {
            Ok((skills, refused)) => {
                let skills = skills
                    .into_iter()
                    .map(|s| {
                        let dir = source.skill_dir(&s);
                        (s, dir)
                    })
                    .collect();
                if ready.send(Ok((skills, refused))).is_err() {
                    source.close().await;
                    return;
                }
            }
            Err(err) => {
                let _ = ready.send(Err(err));
                source.close().await;
                return;
            }
        }
        // Blocking receives on this thread are fine: it runs nothing else.
        while let Ok((skill, reply)) = inbox.recv() {
            let loaded = source.load(&skill).await.map(|_| ());
            let _ = reply.send(loaded);
        }
        source.close().await;
    });
}

impl skilldeck::RemoteSkillSource for McpDeckSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn listing(&self) -> RemoteListing {
        self.listing.clone()
    }

    fn fetch(&self, id: &str) -> skilldeck::Result<()> {
        let Some(skill) = self.skills.get(id) else {
            return Err(skilldeck::Error::NotFound { id: id.to_string() });
        };
        let failed = |message: String| skilldeck::Error::Io {
            path: PathBuf::from(&skill.uri),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, message),
        };
        let (reply, answer) = mpsc::channel();
        let sent = match self.requests.lock() {
            Ok(requests) => requests.send((skill.clone(), reply)),
            Err(poisoned) => poisoned.into_inner().send((skill.clone(), reply)),
        };
        if sent.is_err() {
            return Err(failed(format!(
                "{}: the connection to the MCP server is closed",
                self.label
            )));
        }
        match answer.recv() {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(failed(err.to_string())),
            Err(_) => Err(failed(format!(
                "{}: the connection to the MCP server ended",
                self.label
            ))),
        }
    }
}
