//! An MCP server as a deck root ([`skilldeck::RemoteSkillSource`]): the server is listed
//! when connected, and again after it says its catalog changed (`list_changed`); its
//! checked entries join the deck's catalog, the refused ones become diagnostics, and
//! activation fetches and verifies a skill's `SKILL.md` through [`McpSkillSource::load`].
//! The deck is synchronous and may be called from any thread (an async one included), so
//! the connection lives on a thread of its own with its own runtime, and calls reach it
//! over a channel.

use crate::client::{ClientError, McpSkillSource, RemoteSkill};
use crate::directory::SkillFileRef;
use crate::list_changed::ListChanged;
use skilldeck::{Diagnostic, RemoteEntry, RemoteFiles, RemoteListing};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use tokio::sync::mpsc as async_mpsc;

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

type Listed = (Vec<(RemoteSkill, PathBuf)>, Vec<ClientError>);

/// What the deck asks of the connection's thread.
enum Request {
    /// Load (fetch and verify `SKILL.md`), then list the skill's files.
    Fetch(
        Box<RemoteSkill>,
        mpsc::Sender<Result<Vec<SkillFileRef>, ClientError>>,
    ),
    /// List every skill again.
    List(mpsc::Sender<Result<Listed, ClientError>>),
}

/// The listing the deck merges, and the entries it came from.
struct Held {
    listing: RemoteListing,
    skills: HashMap<String, RemoteSkill>,
    /// The files of each skill fetched so far, by id.
    files: HashMap<String, Vec<SkillFileRef>>,
}

/// An MCP server's skills for [`skilldeck::Deck::add_remote_source`].
pub struct McpDeckSource {
    label: String,
    held: Mutex<Held>,
    changed: ListChanged,
    /// Requests to the connection's thread; dropping it closes the connection.
    requests: async_mpsc::UnboundedSender<Request>,
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
        let connect_error = |message: String| ClientError::Connect {
            label: label.to_string(),
            message,
        };
        if !valid_label(label) {
            return Err(connect_error(
                "a server label is letters, digits, `.`, `_` and `-`".into(),
            ));
        }
        let (ready_tx, ready_rx) = mpsc::channel();
        let (requests, inbox) = async_mpsc::unbounded_channel::<Request>();
        let thread_label = label.to_string();
        let cache_root = cache_root.to_path_buf();
        std::thread::Builder::new()
            .name(format!("mcp-{label}"))
            .spawn(move || serve(&thread_label, server, &cache_root, ready_tx, inbox))
            .map_err(|err| connect_error(format!("cannot start the connection thread: {err}")))?;
        let (listed, changed) = ready_rx
            .recv()
            .map_err(|_| connect_error("the connection thread ended before listing".into()))??;
        Ok(McpDeckSource {
            label: label.to_string(),
            held: Mutex::new(held(listed)),
            changed,
            requests,
        })
    }

    /// Whether the server said its catalog changed since the listing was taken.
    pub fn is_stale(&self) -> bool {
        self.changed.is_set()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn gone(&self, message: &str) -> ClientError {
        ClientError::Connect {
            label: self.label.clone(),
            message: message.into(),
        }
    }

    /// List again on the connection's thread and hold the new listing; the old one stays
    /// when that fails, with a warning saying why.
    fn relist(&self) {
        let (reply, answer) = mpsc::channel();
        let listed = if self.requests.send(Request::List(reply)).is_err() {
            Err(self.gone("the connection to the MCP server is closed"))
        } else {
            answer
                .recv()
                .unwrap_or_else(|_| Err(self.gone("the connection to the MCP server ended")))
        };
        match listed {
            Ok(listed) => {
                let mut held_now = self.lock();
                let files = std::mem::take(&mut held_now.files);
                *held_now = held(listed);
                // Files fetched under an entry that did not change still describe it.
                held_now.files = files
                    .into_iter()
                    .filter(|(id, _)| held_now.skills.contains_key(id))
                    .collect();
            }
            Err(err) => {
                let mut held_now = self.lock();
                held_now
                    .listing
                    .diagnostics
                    .retain(|d| d.code != "REMOTE_RELIST_FAILED");
                held_now.listing.diagnostics.push(Diagnostic::warning(
                    "REMOTE_RELIST_FAILED",
                    format!("{err}; the server's skills are as last listed"),
                ));
            }
        }
    }
}

fn held((skills, refused): Listed) -> Held {
    Held {
        listing: RemoteListing {
            entries: skills.iter().map(|(s, dir)| entry(s, dir)).collect(),
            diagnostics: refused
                .iter()
                .map(|e| Diagnostic::error("REMOTE_ENTRY_REFUSED", e.to_string()))
                .collect(),
        },
        skills: skills.into_iter().map(|(s, _)| (s.id.clone(), s)).collect(),
        files: HashMap::new(),
    }
}

fn entry(skill: &RemoteSkill, dir: &Path) -> RemoteEntry {
    RemoteEntry {
        id: skill.id.clone(),
        name: skill.name.clone(),
        uri: skill.uri.clone(),
        frontmatter: skill.frontmatter.clone(),
        location: dir.join(crate::uri::SKILL_MD),
        dynamic: skill.dynamic,
    }
}

async fn list(source: &McpSkillSource) -> Result<Listed, ClientError> {
    let (skills, refused) = source.list().await?;
    let skills = skills
        .into_iter()
        .map(|s| {
            let dir = source.skill_dir(&s);
            (s, dir)
        })
        .collect();
    Ok((skills, refused))
}

/// The connection's thread: connect, list, report, then serve requests until every
/// sender is gone, and close. Requests are awaited, not blocked on, so the connection
/// keeps reading the server's notifications between them.
fn serve(
    label: &str,
    server: ServerSpec,
    cache_root: &Path,
    ready: mpsc::Sender<Result<(Listed, ListChanged), ClientError>>,
    mut inbox: async_mpsc::UnboundedReceiver<Request>,
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
        let first = list(&source).await;
        let failed = first.is_err();
        let changed = source.list_changed().clone();
        if ready.send(first.map(|l| (l, changed))).is_err() || failed {
            source.close().await;
            return;
        }
        while let Some(request) = inbox.recv().await {
            match request {
                Request::Fetch(skill, reply) => {
                    let fetched = match source.load(&skill).await {
                        Ok(_) => source.files(&skill).await,
                        Err(err) => Err(err),
                    };
                    let _ = reply.send(fetched);
                }
                Request::List(reply) => {
                    let _ = reply.send(list(&source).await);
                }
            }
        }
        source.close().await;
    });
}

impl skilldeck::RemoteSkillSource for McpDeckSource {
    fn label(&self) -> &str {
        &self.label
    }

    fn listing(&self) -> RemoteListing {
        if self.changed.take() {
            self.relist();
        }
        self.lock().listing.clone()
    }

    fn is_stale(&self) -> bool {
        self.changed.is_set()
    }

    fn on_stale(&self, wake: Arc<dyn Fn() + Send + Sync>) {
        self.changed.on_change(wake);
    }

    fn fetch(&self, id: &str) -> skilldeck::Result<()> {
        let Some(skill) = self.lock().skills.get(id).cloned() else {
            return Err(skilldeck::Error::NotFound { id: id.to_string() });
        };
        let (reply, answer) = mpsc::channel();
        if self
            .requests
            .send(Request::Fetch(Box::new(skill), reply))
            .is_err()
        {
            return Err(self
                .gone("the connection to the MCP server is closed")
                .into());
        }
        match answer.recv() {
            Ok(Ok(files)) => {
                self.lock().files.insert(id.to_string(), files);
                Ok(())
            }
            Ok(Err(err)) => Err(err.into()),
            Err(_) => Err(self.gone("the connection to the MCP server ended").into()),
        }
    }

    fn files(&self, id: &str) -> Option<RemoteFiles> {
        let held = self.lock();
        let files = held.files.get(id)?;
        let dynamic = held.skills.get(id).is_some_and(|s| s.dynamic);
        Some(RemoteFiles {
            uris: files
                .iter()
                .filter(|f| f.path != crate::uri::SKILL_MD)
                .map(|f| f.uri.clone())
                .collect(),
            dynamic,
        })
    }
}
