//! The files of a remote skill as the host shows them on activation: the held manifest for
//! a skill that has one, and for a dynamic skill what `resources/directory/read` lists now
//! (SEP-2640: "for a dynamically generated skill, a directory read is the only way to
//! discover the skill's files"), walked from the skill's root.

use crate::client::{ClientError, McpSkillSource, RemoteSkill};
use crate::uri::{self, SKILL_MD};
use rmcp::model::ReadResourceDirectoryRequestParams;
use serde_json::Value;

/// Directory levels followed below a dynamic skill's root.
const MAX_DEPTH: usize = 16;
/// Pages followed per directory before its cursor is declared endless.
const MAX_PAGES: usize = 1_000;

/// One file of a remote skill.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SkillFileRef {
    /// Path inside the skill, `/`-separated.
    pub path: String,
    pub uri: String,
}

impl McpSkillSource {
    /// The files of `skill`, `SKILL.md` included, sorted by path. From the manifest when
    /// the entry has one (no request); for a dynamic skill from `resources/directory/read`
    /// when the server declared `directoryRead` (at most the extension's 512 files; a child
    /// outside the skill is left out), else only its `SKILL.md`.
    pub async fn files(&self, skill: &RemoteSkill) -> Result<Vec<SkillFileRef>, ClientError> {
        let mut out: Vec<SkillFileRef> = if skill.dynamic {
            self.walk(skill).await?
        } else {
            skill
                .files
                .iter()
                .map(|f| SkillFileRef {
                    path: f.path.clone(),
                    uri: f.uri.clone(),
                })
                .collect()
        };
        if !out.iter().any(|f| f.path == SKILL_MD) {
            out.push(SkillFileRef {
                path: SKILL_MD.into(),
                uri: skill.uri.clone(),
            });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    async fn walk(&self, skill: &RemoteSkill) -> Result<Vec<SkillFileRef>, ClientError> {
        let mut out = Vec::new();
        if !self.directory_read() {
            return Ok(out);
        }
        let Ok(mut root) = uri::parse(&skill.uri) else {
            return Ok(out);
        };
        root.pop();
        let mut pending = vec![(uri::join(&root), 0usize)];
        while let Some((dir, depth)) = pending.pop() {
            let mut cursor = None;
            for _ in 0..MAX_PAGES {
                let mut params = ReadResourceDirectoryRequestParams::new(dir.clone());
                params.cursor = cursor.take();
                let page = self
                    .answer(
                        "resources/directory/read",
                        self.peer().read_resource_directory(params),
                    )
                    .await?;
                for child in &page.resources {
                    let child = serde_json::to_value(child).unwrap_or(Value::Null);
                    let Some(child_uri) = child.get("uri").and_then(Value::as_str) else {
                        continue;
                    };
                    let Some(rest) = uri::parse(child_uri)
                        .ok()
                        .and_then(|s| s.strip_prefix(root.as_slice()).map(<[String]>::to_vec))
                        .filter(|rest| !rest.is_empty())
                    else {
                        continue;
                    };
                    if child.get("mimeType").and_then(Value::as_str) == Some("inode/directory") {
                        if depth < MAX_DEPTH {
                            pending.push((child_uri.to_string(), depth + 1));
                        }
                    } else {
                        out.push(SkillFileRef {
                            path: rest.join("/"),
                            uri: child_uri.to_string(),
                        });
                    }
                    if out.len() >= skilldeck::MAX_SKILL_FILES {
                        return Ok(out);
                    }
                }
                match page.next_cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
        }
        Ok(out)
    }
}
