//! An MCP server as a skill source: list its skills, check each entry, load a skill
//! (`SKILL.md` only) and read its other files on demand, verify size, digest and
//! frontmatter, and keep verified content in a cache outside every discovery path, keyed
//! by server label and URI.

use crate::child::{ChildTransport, Oversized, MAX_MESSAGE_BYTES};
use crate::list_changed::ListChanged;
use crate::uri::{self, SKILL_MD};
use base64::Engine as _;
use rmcp::model::{
    ClientRequest, CustomRequest, GetSkillRequestParams, ReadResourceRequestParams,
    ResourceContents, Skill, SkillResources,
};
use rmcp::service::ClientServiceExt as _;
use rmcp::service::RunningService;
use rmcp::RoleClient;
use serde_json::{Map, Value};
use skilldeck::RemoteFailure;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// Pages followed before a listing is declared endless (a server looping on its cursor).
const MAX_PAGES: usize = 10_000;

/// How long a server may take to answer one request, the handshake included: a server
/// that never answers must not hang the deck (or the command) that asked.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Why a remote skill (or the connection) was refused.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("{label}: cannot start or reach the MCP server: {message}")]
    Connect { label: String, message: String },
    #[error("{label}: {method} failed: {message}")]
    Protocol {
        label: String,
        method: &'static str,
        message: String,
    },
    /// A message from the server passed [`MAX_MESSAGE_BYTES`], more than any file within
    /// the extension's limits needs; the connection is closed.
    #[error("{label}: {method}: the server sent a message of more than {max} bytes, more than a file within the Skills extension's 16 MiB limit takes; the connection to it is closed")]
    MessageTooLarge {
        label: String,
        method: &'static str,
        max: usize,
    },
    #[error("{label}: the server does not declare the io.modelcontextprotocol/skills extension, so it publishes no skill entries")]
    NoExtension { label: String },
    #[error("{label}: {uri}: entry refused: {reason}")]
    BadEntry {
        label: String,
        uri: String,
        /// [`RemoteFailure::InvalidEntry`] or [`RemoteFailure::LimitExceeded`].
        kind: RemoteFailure,
        reason: String,
    },
    #[error("{label}: {uri}: verification failed, content not used: {reason}")]
    Verification {
        label: String,
        uri: String,
        kind: RemoteFailure,
        reason: String,
    },
    #[error("{}: cache: {source}", path.display())]
    Cache {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl ClientError {
    /// What failed, as the engine's [`RemoteFailure`]; `None` for the cache (an I/O error).
    pub fn failure(&self) -> Option<RemoteFailure> {
        match self {
            ClientError::Connect { .. } => Some(RemoteFailure::Unavailable),
            ClientError::Protocol { .. } | ClientError::NoExtension { .. } => {
                Some(RemoteFailure::ServerError)
            }
            ClientError::BadEntry { kind, .. } | ClientError::Verification { kind, .. } => {
                Some(*kind)
            }
            ClientError::MessageTooLarge { .. } => Some(RemoteFailure::LimitExceeded),
            ClientError::Cache { .. } => None,
        }
    }

    /// The stable code (`REMOTE_DIGEST_MISMATCH`, …, `IO_ERROR` for the cache), the same
    /// as the engine error's this becomes.
    pub fn code(&self) -> &'static str {
        self.failure().map_or("IO_ERROR", RemoteFailure::code)
    }
}

/// The engine's error for a client error: [`skilldeck::Error::Remote`] with the failure's
/// code, or an I/O error naming the cache file.
impl From<ClientError> for skilldeck::Error {
    fn from(err: ClientError) -> Self {
        match err {
            ClientError::Cache { path, source } => skilldeck::Error::Io { path, source },
            other => {
                let origin = match &other {
                    ClientError::BadEntry { label, uri, .. }
                    | ClientError::Verification { label, uri, .. } => format!("{label} {uri}"),
                    ClientError::Connect { label, .. }
                    | ClientError::Protocol { label, .. }
                    | ClientError::MessageTooLarge { label, .. }
                    | ClientError::NoExtension { label } => label.clone(),
                    ClientError::Cache { .. } => String::new(),
                };
                let kind = other.failure().unwrap_or(RemoteFailure::ServerError);
                let advice = match kind {
                    RemoteFailure::SizeMismatch
                    | RemoteFailure::DigestMismatch
                    | RemoteFailure::FrontmatterMismatch
                    | RemoteFailure::NotListed => {
                        "; the server serves other content than it listed: reload the deck to list it again, and report it to the server's owner if it persists"
                    }
                    RemoteFailure::LimitExceeded => {
                        "; the skill is larger than the extension allows, so no host may load it"
                    }
                    RemoteFailure::InvalidEntry => "; the server's entry must be fixed",
                    RemoteFailure::ServerError => "; check the server (its log, its version)",
                    RemoteFailure::Unavailable => "; check that the server runs, then reload the deck",
                };
                skilldeck::Error::Remote {
                    kind,
                    origin,
                    message: format!("{other}{advice}"),
                }
            }
        }
    }
}

/// A `skills/list` page before its entries are checked.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawPage {
    skills: Vec<Value>,
    #[serde(default)]
    next_cursor: Option<String>,
}

/// One file a remote skill lists.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RemoteFile {
    pub uri: String,
    /// Path inside the skill, `/`-separated.
    pub path: String,
    pub size: u64,
    pub digest: String,
}

/// A checked `skills/list` or `skills/get` entry, identified by (server label, URI).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RemoteSkill {
    /// The host-assigned label of the server (never its self-reported name).
    pub server: String,
    /// URI of the skill's `SKILL.md`.
    pub uri: String,
    /// `<server>:<skill-path>`: the skill's id in a per-origin namespace, so it can never
    /// take the place of a same-named local skill or one from another server.
    pub id: String,
    pub name: String,
    pub description: String,
    /// The frontmatter as the server published it.
    pub frontmatter: Map<String, Value>,
    /// Every file, `SKILL.md` included; empty when `dynamic`.
    pub files: Vec<RemoteFile>,
    /// The server generates the skill's content (`resources: "dynamic"`): there is no
    /// manifest, so nothing can be checked against a digest or size. Its `SKILL.md` is still
    /// checked against the entry's frontmatter, what is retrieved is capped at the 16 MiB
    /// limit, and its files are what `resources/directory/read` lists.
    pub dynamic: bool,
}

/// A loaded skill: its `SKILL.md` matched the entry (size, digest, frontmatter). `dir`
/// holds the verified files read so far, read-only; each is re-hashed whenever it is used.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct VerifiedSkill {
    pub skill: RemoteSkill,
    /// The cache directory of this (server, URI, manifest): outside every discovery path.
    pub dir: PathBuf,
}

/// A name shared by skills of different origins or paths; surfaced, never resolved
/// silently.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Collision {
    pub name: String,
    /// The ids (or local skill ids) that share it.
    pub ids: Vec<String>,
}

/// A connection to one MCP server that serves skills.
pub struct McpSkillSource {
    label: String,
    service: RunningService<RoleClient, ListChanged>,
    cache_root: PathBuf,
    /// Bytes retrieved per dynamic skill (by URI) since it was last loaded: the extension's
    /// 16 MiB limit applies to what is retrieved when there is no manifest to count.
    retrieved: std::sync::Mutex<std::collections::HashMap<String, u64>>,
    /// Set when the server says its catalog changed.
    changed: ListChanged,
    /// Set when the server sent a message over [`MAX_MESSAGE_BYTES`] (stdio: the connection
    /// ended then), so a failed request says why.
    oversized: Oversized,
}

impl McpSkillSource {
    /// Start `program args…` and speak MCP to it over stdio. `label` is the host's name
    /// for this server (it keys ids and the cache); `cache_root` must lie outside every
    /// skill discovery path.
    pub async fn connect_command(
        label: &str,
        program: &str,
        args: &[String],
        cache_root: &Path,
    ) -> Result<McpSkillSource, ClientError> {
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        let (transport, oversized) =
            ChildTransport::spawn(command, MAX_MESSAGE_BYTES).map_err(|e| {
                ClientError::Connect {
                    label: label.to_string(),
                    message: format!("{program}: {e}"),
                }
            })?;
        Self::connect(label, transport, oversized, cache_root).await
    }

    /// Speak MCP's streamable HTTP transport to the server at `url` (`http://` or
    /// `https://`, certificates checked against Mozilla's roots), sending `headers` (e.g.
    /// `Authorization`) with every request. Cargo feature `http-client`.
    #[cfg(feature = "http-client")]
    pub async fn connect_url(
        label: &str,
        url: &str,
        headers: &[(String, String)],
        cache_root: &Path,
    ) -> Result<McpSkillSource, ClientError> {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        let connect = |message: String| ClientError::Connect {
            label: label.to_string(),
            message,
        };
        let mut custom = std::collections::HashMap::new();
        for (name, value) in headers {
            let name = http::HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| connect(format!("header name `{name}`: {e}")))?;
            let value = http::HeaderValue::from_str(value)
                .map_err(|e| connect(format!("header `{name}` value: {e}")))?;
            custom.insert(name, value);
        }
        let client =
            crate::http_client::HyperHttpClient::new().map_err(|e| connect(e.to_string()))?;
        // rmcp's 16 MiB default cannot carry every file the extension allows (see
        // `MAX_MESSAGE_BYTES`).
        let config = StreamableHttpClientTransportConfig::with_uri(url)
            .custom_headers(custom)
            .max_json_response_size(MAX_MESSAGE_BYTES)
            .max_sse_event_size(MAX_MESSAGE_BYTES);
        let transport = rmcp::transport::StreamableHttpClientTransport::with_client(client, config);
        Self::connect(label, transport, Oversized::default(), cache_root).await
    }

    async fn connect<T, E, A>(
        label: &str,
        transport: T,
        oversized: Oversized,
        cache_root: &Path,
    ) -> Result<McpSkillSource, ClientError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let connect = |message: String| ClientError::Connect {
            label: label.to_string(),
            message,
        };
        // 2026-07-28 (`server/discover`) when the server speaks it, else `initialize`.
        let lifecycle = rmcp::service::ClientLifecycleMode::Auto {
            preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
            legacy_version: Some(rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE),
        };
        let changed = ListChanged::default();
        let handshake = changed.clone().serve_with_lifecycle(transport, lifecycle);
        let service = match tokio::time::timeout(REQUEST_TIMEOUT, handshake).await {
            Ok(Ok(service)) => service,
            Ok(Err(err)) => return Err(connect(initialize_error(&err))),
            Err(_) => {
                return Err(connect(format!(
                    "no answer to the handshake within {} s",
                    REQUEST_TIMEOUT.as_secs()
                )))
            }
        };
        // The verified copy on disk is the one cache: rmcp's in-memory response cache would
        // answer a re-read from memory for `ttlMs`, and with a stale copy when the server
        // fails, instead of asking the server what it serves now.
        service
            .set_response_cache_config(rmcp::service::ClientCacheConfig::disabled())
            .await;
        let declared = service
            .peer_info()
            .is_some_and(|info| info.capabilities.supports_skills());
        if !declared {
            return Err(ClientError::NoExtension {
                label: label.to_string(),
            });
        }
        changed.listen(&service).await;
        Ok(McpSkillSource {
            label: label.to_string(),
            service,
            cache_root: cache_root.to_path_buf(),
            retrieved: std::sync::Mutex::default(),
            changed,
            oversized,
        })
    }

    /// What tells that the server's catalog changed (`notifications/resources/list_changed`):
    /// a flag to test and clear, and hooks called when it is set.
    pub fn list_changed(&self) -> &ListChanged {
        &self.changed
    }

    /// Whether the server declared `directoryRead` (`resources/directory/read`).
    pub fn directory_read(&self) -> bool {
        self.service
            .peer_info()
            .is_some_and(|info| info.capabilities.supports_directory_read())
    }

    /// The protocol revision negotiated with the server (`2026-07-28` through
    /// `server/discover`, or an earlier one through `initialize`).
    pub fn protocol_version(&self) -> Option<String> {
        self.service
            .peer_info()
            .map(|info| info.protocol_version.to_string())
    }

    /// The server's label.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The answer to one request, or a protocol error (also when none came in time).
    pub(crate) fn peer(&self) -> &rmcp::service::Peer<RoleClient> {
        self.service.peer()
    }

    pub(crate) async fn answer<T, E: std::fmt::Display>(
        &self,
        method: &'static str,
        request: impl std::future::Future<Output = Result<T, E>>,
    ) -> Result<T, ClientError> {
        match tokio::time::timeout(REQUEST_TIMEOUT, request).await {
            Ok(answer) => answer.map_err(|e| self.protocol(method, e)),
            Err(_) => Err(self.protocol(
                method,
                format!("no answer within {} s", REQUEST_TIMEOUT.as_secs()),
            )),
        }
    }

    fn protocol(&self, method: &'static str, err: impl std::fmt::Display) -> ClientError {
        if self.oversized.happened() {
            return ClientError::MessageTooLarge {
                label: self.label.clone(),
                method,
                max: MAX_MESSAGE_BYTES,
            };
        }
        ClientError::Protocol {
            label: self.label.clone(),
            method,
            message: err.to_string(),
        }
    }

    /// Every entry of `skills/list`, page by page. Entries that break the extension's
    /// rules are returned apart, with the reason, and never loaded; so is every entry
    /// whose URI appears more than once in the listing.
    pub async fn list(&self) -> Result<(Vec<RemoteSkill>, Vec<ClientError>), ClientError> {
        let mut cursor: Option<String> = None;
        let mut raw = Vec::new();
        let mut refused = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = match cursor.take() {
                Some(c) => serde_json::json!({ "cursor": c }),
                None => serde_json::json!({}),
            };
            let page = self.list_page(params).await?;
            for (index, entry) in page.skills.into_iter().enumerate() {
                // Entries are parsed one by one: an invalid entry is refused on its own
                // instead of failing the whole page (the SDK's typed call would).
                let uri = entry.get("uri").and_then(Value::as_str).map_or_else(
                    || format!("entry {index} of a skills/list page"),
                    str::to_string,
                );
                match serde_json::from_value::<Skill>(entry) {
                    Ok(skill) => raw.push(skill),
                    Err(err) => refused.push(self.bad(
                        &uri,
                        &format!("not a valid skill entry ({err}); such an entry is never loaded"),
                    )),
                }
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        if cursor.is_some() {
            return Err(self.protocol(
                "skills/list",
                format!("more than {MAX_PAGES} pages; the server's cursor does not end"),
            ));
        }
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for skill in &raw {
            *seen.entry(skill.uri.clone()).or_default() += 1;
        }
        let mut good = Vec::new();
        for skill in raw {
            if seen.get(&skill.uri).copied().unwrap_or(0) > 1 {
                refused.push(self.bad(&skill.uri, "the listing has more than one entry for this URI; which one describes the skill is ambiguous"));
                continue;
            }
            match self.check(skill) {
                Ok(skill) => good.push(skill),
                Err(err) => refused.push(err),
            }
        }
        Ok((good, refused))
    }

    /// One raw `skills/list` page, sent as a custom request so the entries arrive as JSON.
    async fn list_page(&self, params: Value) -> Result<RawPage, ClientError> {
        let request = ClientRequest::CustomRequest(CustomRequest::new("skills/list", Some(params)));
        let result = self
            .answer("skills/list", self.service.send_request(request))
            .await?;
        let value = serde_json::to_value(&result).map_err(|e| self.protocol("skills/list", e))?;
        serde_json::from_value::<RawPage>(value)
            .map_err(|e| self.protocol("skills/list", format!("not a skills/list result: {e}")))
    }

    /// The current entry of the skill whose `SKILL.md` is at `uri` (`skills/get`).
    pub async fn get(&self, uri: &str) -> Result<RemoteSkill, ClientError> {
        let result = self
            .answer(
                "skills/get",
                self.service.get_skill(GetSkillRequestParams::new(uri)),
            )
            .await?;
        if result.skill.uri != uri {
            return Err(self.bad(
                uri,
                &format!("skills/get answered for another URI, {}", result.skill.uri),
            ));
        }
        self.check(result.skill)
    }

    fn bad(&self, uri: &str, reason: &str) -> ClientError {
        ClientError::BadEntry {
            label: self.label.clone(),
            uri: uri.to_string(),
            kind: RemoteFailure::InvalidEntry,
            reason: reason.to_string(),
        }
    }

    /// Apply every rule checkable from the entry alone.
    fn check(&self, skill: Skill) -> Result<RemoteSkill, ClientError> {
        let uri = skill.uri.clone();
        let bad = |reason: String| self.bad(&uri, &reason);
        let limit = |reason: String| ClientError::BadEntry {
            label: self.label.clone(),
            uri: uri.clone(),
            kind: RemoteFailure::LimitExceeded,
            reason,
        };
        let segments = uri::parse(&uri).map_err(|e| bad(e.to_string()))?;
        let Some((SKILL_MD, path)) = segments.split_last().map(|(l, p)| (l.as_str(), p)) else {
            return Err(bad("the URI does not end in /SKILL.md".into()));
        };
        let name = skill.frontmatter.name.clone();
        if path.last() != Some(&name) {
            return Err(bad(format!(
                "the last segment of the skill path must equal frontmatter name `{name}`"
            )));
        }
        if !skilldeck::is_spec_name(&name) {
            return Err(bad(format!(
                "name `{name}` breaks the Agent Skills naming rules"
            )));
        }
        let (files, dynamic) = match &skill.resources {
            SkillResources::Files(files) => (files.as_slice(), false),
            SkillResources::Dynamic => (&[][..], true),
            _ => return Err(bad(
                "resources is neither a file list nor \"dynamic\"; such an entry is never loaded"
                    .into(),
            )),
        };
        if files.len() > skilldeck::MAX_SKILL_FILES {
            return Err(limit(format!(
                "{} files, over the extension's limit of {}",
                files.len(),
                skilldeck::MAX_SKILL_FILES
            )));
        }
        let total: u64 = files.iter().map(|f| f.size).fold(0, u64::saturating_add);
        if total > skilldeck::MAX_SKILL_BYTES {
            return Err(limit(format!(
                "{total} bytes of files, over the extension's 16 MiB limit"
            )));
        }
        let mut out = Vec::new();
        let mut unique = HashSet::new();
        for file in files {
            if !skilldeck::is_sha256_digest(&file.digest) {
                return Err(bad(format!(
                    "{}: digest `{}` is not sha256: and 64 lowercase hex characters",
                    file.uri, file.digest
                )));
            }
            let file_segments = uri::parse(&file.uri).map_err(|e| bad(e.to_string()))?;
            let Some(rest) = file_segments.strip_prefix(path) else {
                return Err(bad(format!("{} is not inside the skill", file.uri)));
            };
            if rest.is_empty() {
                return Err(bad(format!(
                    "{} is the skill directory, not a file",
                    file.uri
                )));
            }
            if !unique.insert(rest.to_vec()) {
                return Err(bad(format!("{} is listed more than once", file.uri)));
            }
            out.push(RemoteFile {
                uri: file.uri.clone(),
                path: rest.join("/"),
                size: file.size,
                digest: file.digest.clone(),
            });
        }
        if !dynamic && !out.iter().any(|f| f.uri == uri) {
            return Err(bad(
                "resources does not list the skill's own SKILL.md".into()
            ));
        }
        let frontmatter = match serde_json::to_value(&skill.frontmatter) {
            Ok(Value::Object(map)) => map,
            _ => return Err(bad("frontmatter is not an object".into())),
        };
        Ok(RemoteSkill {
            server: self.label.clone(),
            id: format!("{}:{}", self.label, path.join("/")),
            uri: uri.clone(),
            name,
            description: skill.frontmatter.description.clone(),
            frontmatter,
            files: out,
            dynamic,
        })
    }

    async fn read_bytes(&self, uri: &str) -> Result<Vec<u8>, ClientError> {
        let result = self
            .answer(
                "resources/read",
                self.service
                    .read_resource(ReadResourceRequestParams::new(uri)),
            )
            .await?;
        // A malformed answer is the server's fault, not a content mismatch.
        let verification = |reason: String| ClientError::Verification {
            label: self.label.clone(),
            uri: uri.to_string(),
            kind: RemoteFailure::ServerError,
            reason,
        };
        let [content] = result.contents.as_slice() else {
            return Err(verification(format!(
                "expected one content item, got {}",
                result.contents.len()
            )));
        };
        match content {
            ResourceContents::TextResourceContents { uri: got, text, .. } if got == uri => {
                Ok(text.clone().into_bytes())
            }
            ResourceContents::BlobResourceContents { uri: got, blob, .. } if got == uri => {
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .map_err(|e| verification(format!("blob is not base64: {e}")))
            }
            _ => Err(verification("the content is for another URI".into())),
        }
    }

    /// Load `skill` (activation): fetch its `SKILL.md` only, verify size, then digest,
    /// then its frontmatter field by field against the entry, and cache it. Supporting
    /// files are fetched when read ([`McpSkillSource::read_file`]): the extension forbids
    /// retrieving them ahead of need. A failure caches nothing.
    pub async fn load(&self, skill: &RemoteSkill) -> Result<VerifiedSkill, ClientError> {
        if skill.dynamic {
            // A new acting window: count what it retrieves from zero.
            self.lock_retrieved().remove(&skill.uri);
        }
        let (bytes, target, cached) = self.verified_bytes(skill, SKILL_MD).await?;
        let fetched = skilldeck::frontmatter_json(Path::new(SKILL_MD), &bytes).map_err(|e| {
            self.verification(
                &skill.uri,
                RemoteFailure::FrontmatterMismatch,
                e.to_string(),
            )
        })?;
        if fetched != skill.frontmatter {
            return Err(self.verification(
                &skill.uri,
                RemoteFailure::FrontmatterMismatch,
                format!(
                    "the frontmatter differs from the entry's (entry {}, file {})",
                    Value::Object(skill.frontmatter.clone()),
                    Value::Object(fetched)
                ),
            ));
        }
        if !cached {
            write_immutable(&target, &bytes)?;
        }
        Ok(VerifiedSkill {
            skill: skill.clone(),
            dir: self.cache_dir(skill),
        })
    }

    /// The bytes of `path` (relative, `/`-separated) of `skill`, verified against the
    /// held entry: a path the entry does not list is a verification failure (the skill
    /// changed; refresh it with [`McpSkillSource::get`]). Served from the cache when the
    /// cached bytes re-hash to the entry's digest, else fetched, verified and cached.
    pub async fn read_file(&self, skill: &RemoteSkill, path: &str) -> Result<Vec<u8>, ClientError> {
        let (bytes, target, cached) = self.verified_bytes(skill, path).await?;
        if !cached {
            write_immutable(&target, &bytes)?;
        }
        Ok(bytes)
    }

    /// Verified bytes of one listed file, its cache path, and whether they came from the
    /// cache (re-hashed now) rather than the server.
    async fn verified_bytes(
        &self,
        skill: &RemoteSkill,
        path: &str,
    ) -> Result<(Vec<u8>, PathBuf, bool), ClientError> {
        if skill.dynamic {
            return self.dynamic_bytes(skill, path).await;
        }
        let Some(file) = skill.files.iter().find(|f| f.path == path) else {
            return Err(self.verification(
                &format!(
                    "{}/{path}",
                    skill.uri.trim_end_matches(SKILL_MD).trim_end_matches('/')
                ),
                RemoteFailure::NotListed,
                "not listed in the held entry; refresh the entry with skills/get before reading it"
                    .into(),
            ));
        };
        let target = self.cache_dir(skill).join(&file.path);
        if let Ok(bytes) = std::fs::read(&target) {
            if bytes.len() as u64 == file.size && skilldeck::file_digest(&bytes) == file.digest {
                return Ok((bytes, target, true));
            }
        }
        let bytes = self.read_bytes(&file.uri).await?;
        let origin = format!("{} {}", self.label, file.uri);
        skilldeck::verify_bytes(&origin, &bytes, file.size, &file.digest).map_err(|e| {
            let kind = match e {
                skilldeck::SkillFilesError::SizeMismatch { .. } => RemoteFailure::SizeMismatch,
                _ => RemoteFailure::DigestMismatch,
            };
            self.verification(&file.uri, kind, e.to_string())
        })?;
        Ok((bytes, target, false))
    }

    /// Bytes of `path` of a dynamic skill, fetched every time (there is no digest that
    /// would let a cached copy be trusted), inside the skill, and within the 16 MiB the
    /// extension allows per skill, counted over what was retrieved since the last load.
    async fn dynamic_bytes(
        &self,
        skill: &RemoteSkill,
        path: &str,
    ) -> Result<(Vec<u8>, PathBuf, bool), ClientError> {
        let uri = self.file_uri(skill, path)?;
        let bytes = self.read_bytes(&uri).await?;
        let total = count_retrieved(&mut self.lock_retrieved(), &skill.uri, bytes.len());
        if total > skilldeck::MAX_SKILL_BYTES {
            return Err(self.verification(
                &uri,
                RemoteFailure::LimitExceeded,
                format!("{total} bytes retrieved from this dynamic skill, over the extension's 16 MiB limit; loading stops here"),
            ));
        }
        Ok((bytes, self.cache_dir(skill).join(path), false))
    }

    /// The URI of `path` inside `skill`, refused when it would leave the skill.
    pub(crate) fn file_uri(&self, skill: &RemoteSkill, path: &str) -> Result<String, ClientError> {
        let refuse =
            |reason: String| self.verification(&skill.uri, RemoteFailure::NotListed, reason);
        let mut segments = uri::parse(&skill.uri).map_err(|e| refuse(e.to_string()))?;
        segments.pop();
        let rest: Vec<String> = path.split('/').map(str::to_string).collect();
        if rest.iter().any(|s| s.is_empty() || s == "." || s == "..") {
            return Err(refuse(format!("`{path}` is not a path inside the skill")));
        }
        segments.extend(rest);
        Ok(uri::join(&segments))
    }

    fn lock_retrieved(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, u64>> {
        self.retrieved.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Load `skill` and read every one of its files (for a user who asked for the whole
    /// skill, e.g. to inspect it); the directory then holds a complete verified copy.
    pub async fn fetch_all(&self, skill: &RemoteSkill) -> Result<VerifiedSkill, ClientError> {
        let verified = self.load(skill).await?;
        for file in self.files(skill).await? {
            if file.path != SKILL_MD {
                self.read_file(skill, &file.path).await?;
            }
        }
        Ok(verified)
    }

    fn verification(&self, uri: &str, kind: RemoteFailure, reason: String) -> ClientError {
        ClientError::Verification {
            label: self.label.clone(),
            uri: uri.to_string(),
            kind,
            reason,
        }
    }

    /// Where the verified files of `skill` are cached (see [`McpSkillSource::load`]).
    pub fn skill_dir(&self, skill: &RemoteSkill) -> PathBuf {
        self.cache_dir(skill)
    }

    /// `<cache>/<server label>/<skill path>/<content key>`: the server and the URI are
    /// both recoverable from the path, and a changed manifest lands in a new directory.
    fn cache_dir(&self, skill: &RemoteSkill) -> PathBuf {
        let mut dir = self.cache_root.join(uri::encode_segment(&self.label));
        if let Ok(segments) = uri::parse(&skill.uri) {
            for segment in &segments[..segments.len().saturating_sub(1)] {
                dir.push(uri::encode_segment(segment));
            }
        }
        if skill.dynamic {
            // No manifest to key on; what lands here is replaced on every read.
            dir.push("dynamic");
            return dir;
        }
        let key: String = skill
            .files
            .iter()
            .map(|f| format!("{}\n{}\n", f.path, f.digest))
            .collect();
        let key = skilldeck::file_digest(key.as_bytes());
        dir.push(
            key.trim_start_matches("sha256:")
                .get(..32)
                .unwrap_or("manifest"),
        );
        dir
    }

    /// Close the connection (the server process ends with it).
    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

/// What went wrong in the handshake, in words: rmcp's transport errors name the
/// transport's Rust types ("Send message error Transport [rmcp::transport::worker::…]"),
/// which tell a user nothing; their innermost cause says what happened ("Connection
/// refused", "HTTP 403 …").
fn initialize_error(err: &rmcp::service::ClientInitializeError) -> String {
    match err {
        rmcp::service::ClientInitializeError::TransportError { error, context } => {
            let mut cause: &(dyn std::error::Error + 'static) = error.error.as_ref();
            while let Some(next) = cause.source() {
                cause = next;
            }
            format!("{cause} (on {context})")
        }
        other => other.to_string(),
    }
}

/// Add `bytes` to what was retrieved from the dynamic skill `uri`; the new total.
fn count_retrieved(
    retrieved: &mut std::collections::HashMap<String, u64>,
    uri: &str,
    bytes: usize,
) -> u64 {
    let total = retrieved.entry(uri.to_string()).or_default();
    *total = total.saturating_add(bytes as u64);
    *total
}

/// Names shared by more than one of `remote` (from any servers) and `local` (id, name) skills.
pub fn collisions(remote: &[RemoteSkill], local: &[(String, String)]) -> Vec<Collision> {
    let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (id, name) in local {
        by_name.entry(name).or_default().push(id.clone());
    }
    for skill in remote {
        by_name
            .entry(&skill.name)
            .or_default()
            .push(skill.id.clone());
    }
    by_name
        .into_iter()
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(name, ids)| Collision {
            name: name.to_string(),
            ids,
        })
        .collect()
}

/// Write `bytes` to `target` through a temporary sibling renamed into place, read-only: a
/// cached file is never modified in place (a stale one is replaced whole).
fn write_immutable(target: &Path, bytes: &[u8]) -> Result<(), ClientError> {
    let cache = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ClientError::Cache { path, source }
    };
    let parent = target.parent().unwrap_or(target);
    std::fs::create_dir_all(parent).map_err(cache(parent))?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staging = parent.join(format!(".staging-{}-{name}", std::process::id()));
    let _ = remove_file(&staging);
    std::fs::write(&staging, bytes).map_err(cache(&staging))?;
    set_read_only(&staging).map_err(cache(&staging))?;
    let _ = remove_file(target);
    std::fs::rename(&staging, target).map_err(cache(target))?;
    Ok(())
}

fn set_read_only(path: &Path) -> std::io::Result<()> {
    let mut perms = std::fs::metadata(path)?.permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(path, perms)
}

/// Remove a cached file (made read-only, so some systems refuse without a chmod).
fn remove_file(path: &Path) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let mut perms = meta.permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        let _ = std::fs::set_permissions(path, perms);
    }
    std::fs::remove_file(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_dynamic_skill_retrieves_is_counted_per_skill_up_to_the_limit() {
        let mut retrieved = std::collections::HashMap::new();
        let half = (skilldeck::MAX_SKILL_BYTES / 2) as usize;
        assert_eq!(
            count_retrieved(&mut retrieved, "skill://a/SKILL.md", half),
            half as u64
        );
        assert_eq!(
            count_retrieved(&mut retrieved, "skill://b/SKILL.md", 10),
            10
        );
        let total = count_retrieved(&mut retrieved, "skill://a/SKILL.md", half);
        assert_eq!(
            total,
            skilldeck::MAX_SKILL_BYTES,
            "the limit itself is allowed"
        );
        assert!(
            count_retrieved(&mut retrieved, "skill://a/SKILL.md", 1) > skilldeck::MAX_SKILL_BYTES
        );
    }
}
