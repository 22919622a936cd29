//! An MCP server as a skill source: list its skills, check each entry, fetch a skill's
//! files on demand, verify size, digest and frontmatter, and keep verified content in a
//! cache outside every discovery path, keyed by server label and URI.

use crate::uri::{self, SKILL_MD};
use base64::Engine as _;
use rmcp::model::{
    GetSkillRequestParams, PaginatedRequestParams, ReadResourceRequestParams, ResourceContents,
    Skill, SkillResources,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// Pages followed before a listing is declared endless (a server looping on its cursor).
const MAX_PAGES: usize = 10_000;

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
    #[error("{label}: the server does not declare the io.modelcontextprotocol/skills extension, so it publishes no skill entries")]
    NoExtension { label: String },
    #[error("{label}: {uri}: entry refused: {reason}")]
    BadEntry {
        label: String,
        uri: String,
        reason: String,
    },
    #[error("{label}: {uri}: verification failed, content not used: {reason}")]
    Verification {
        label: String,
        uri: String,
        reason: String,
    },
    #[error("{}: cache: {source}", path.display())]
    Cache {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
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
    /// Every file, `SKILL.md` included.
    pub files: Vec<RemoteFile>,
}

/// A fetched skill whose every file matched its entry.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct VerifiedSkill {
    pub skill: RemoteSkill,
    /// The directory holding the verified files (read-only, inside the cache).
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
    service: RunningService<RoleClient, ()>,
    cache_root: PathBuf,
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
        let connect = |message: String| ClientError::Connect {
            label: label.to_string(),
            message,
        };
        let transport = rmcp::transport::TokioChildProcess::new(command)
            .map_err(|e| connect(format!("{program}: {e}")))?;
        let service = ().serve(transport).await.map_err(|e| connect(e.to_string()))?;
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
        Ok(McpSkillSource {
            label: label.to_string(),
            service,
            cache_root: cache_root.to_path_buf(),
        })
    }

    /// The server's label.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn protocol(&self, method: &'static str, err: impl std::fmt::Display) -> ClientError {
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
        let mut cursor = None;
        let mut raw = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = cursor
                .take()
                .map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
            let page = self
                .service
                .list_skills(params)
                .await
                .map_err(|e| self.protocol("skills/list", e))?;
            raw.extend(page.skills);
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
        let mut refused = Vec::new();
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

    /// The current entry of the skill whose `SKILL.md` is at `uri` (`skills/get`).
    pub async fn get(&self, uri: &str) -> Result<RemoteSkill, ClientError> {
        let result = self
            .service
            .get_skill(GetSkillRequestParams::new(uri))
            .await
            .map_err(|e| self.protocol("skills/get", e))?;
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
            reason: reason.to_string(),
        }
    }

    /// Apply every rule checkable from the entry alone.
    fn check(&self, skill: Skill) -> Result<RemoteSkill, ClientError> {
        let uri = skill.uri.clone();
        let bad = |reason: String| self.bad(&uri, &reason);
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
        let SkillResources::Files(files) = &skill.resources else {
            return Err(bad(
                "resources is \"dynamic\": no content integrity, so this host does not load it"
                    .into(),
            ));
        };
        if files.len() > skilldeck::MAX_SKILL_FILES {
            return Err(bad(format!(
                "{} files, over the extension's limit of {}",
                files.len(),
                skilldeck::MAX_SKILL_FILES
            )));
        }
        let total: u64 = files.iter().map(|f| f.size).fold(0, u64::saturating_add);
        if total > skilldeck::MAX_SKILL_BYTES {
            return Err(bad(format!(
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
        if !out.iter().any(|f| f.uri == uri) {
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
        })
    }

    async fn read_bytes(&self, uri: &str) -> Result<Vec<u8>, ClientError> {
        let result = self
            .service
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .map_err(|e| self.protocol("resources/read", e))?;
        let verification = |reason: String| ClientError::Verification {
            label: self.label.clone(),
            uri: uri.to_string(),
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

    /// Fetch every file of `skill`, verify each against the entry (size, then digest) and
    /// `SKILL.md`'s frontmatter field by field, and place the files in the cache. Cached
    /// files are re-hashed on every use, never trusted by name. Nothing is written where
    /// a discovery path could find it, and a failure leaves no partial skill behind.
    pub async fn fetch(&self, skill: &RemoteSkill) -> Result<VerifiedSkill, ClientError> {
        let dir = self.cache_dir(skill);
        let verification = |uri: &str, reason: String| ClientError::Verification {
            label: self.label.clone(),
            uri: uri.to_string(),
            reason,
        };
        if cached_matches(&dir, skill) {
            return Ok(VerifiedSkill {
                skill: skill.clone(),
                dir,
            });
        }
        let mut contents = Vec::new();
        for file in &skill.files {
            let bytes = self.read_bytes(&file.uri).await?;
            let origin = format!("{} {}", self.label, file.uri);
            skilldeck::verify_bytes(&origin, &bytes, file.size, &file.digest)
                .map_err(|e| verification(&file.uri, e.to_string()))?;
            if file.uri == skill.uri {
                let fetched = skilldeck::frontmatter_json(Path::new(SKILL_MD), &bytes)
                    .map_err(|e| verification(&file.uri, e.to_string()))?;
                if fetched != skill.frontmatter {
                    return Err(verification(
                        &file.uri,
                        format!(
                            "the frontmatter differs from the entry's (entry {}, file {})",
                            Value::Object(skill.frontmatter.clone()),
                            Value::Object(fetched)
                        ),
                    ));
                }
            }
            contents.push((file.path.clone(), bytes));
        }
        write_immutable(&dir, &contents)?;
        Ok(VerifiedSkill {
            skill: skill.clone(),
            dir,
        })
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
        let key: String = skill
            .files
            .iter()
            .map(|f| format!("{}\n{}\n", f.path, f.digest))
            .collect();
        let key = skilldeck::sha256_digest(key.as_bytes());
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

/// True when `dir` holds exactly the skill's files with the right digests (re-hashed now).
fn cached_matches(dir: &Path, skill: &RemoteSkill) -> bool {
    skill.files.iter().all(|f| {
        std::fs::read(dir.join(&f.path)).is_ok_and(|bytes| {
            bytes.len() as u64 == f.size && skilldeck::sha256_digest(&bytes) == f.digest
        })
    })
}

/// Write `files` under `dir` through a temporary sibling renamed into place, then make
/// them read-only: a cached skill is never modified in place.
fn write_immutable(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), ClientError> {
    let cache = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ClientError::Cache { path, source }
    };
    let parent = dir.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(cache(parent))?;
    let staging = parent.join(format!(
        ".staging-{}-{}",
        std::process::id(),
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let _ = remove_tree(&staging);
    for (path, bytes) in files {
        let target = staging.join(path);
        if let Some(p) = target.parent() {
            std::fs::create_dir_all(p).map_err(cache(p))?;
        }
        std::fs::write(&target, bytes).map_err(cache(&target))?;
        set_read_only(&target).map_err(cache(&target))?;
    }
    if dir.exists() {
        // A previous copy failed re-verification: replace it whole.
        remove_tree(dir).map_err(cache(dir))?;
    }
    std::fs::rename(&staging, dir).map_err(cache(dir))?;
    Ok(())
}

fn set_read_only(path: &Path) -> std::io::Result<()> {
    let mut perms = std::fs::metadata(path)?.permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(path, perms)
}

/// Remove a cached tree whose files were made read-only.
fn remove_tree(dir: &Path) -> std::io::Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in walk(dir) {
        if let Ok(meta) = std::fs::metadata(&entry) {
            let mut perms = meta.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            let _ = std::fs::set_permissions(&entry, perms);
        }
    }
    std::fs::remove_dir_all(dir)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if let Ok(entries) = std::fs::read_dir(&d) {
            for e in entries.flatten() {
                let p = e.path();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(p.clone());
                }
                out.push(p);
            }
        }
    }
    out
}
