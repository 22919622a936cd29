//! The skills a server publishes: a snapshot of the deck's listed skills, each at a
//! `skill://` path ending in its name, with its extension entry (verbatim frontmatter and
//! file manifest) computed from the bytes on first use and kept until the next reload.

use crate::uri::{self, SKILL_MD};
use serde_json::{Map, Value};
use skilldeck::{FileManifest, SkillFilesError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// One published skill, before its files are read.
#[derive(Clone, Debug)]
pub struct Published {
    /// Decoded `<skill-path>` segments; the last is the skill's name.
    pub path: Vec<String>,
    /// `skill://<skill-path>/SKILL.md`.
    pub uri: String,
    /// The deck's id (for activation through tools and prompts).
    pub id: String,
    pub name: String,
    pub description: String,
    pub base_dir: PathBuf,
    pub user_invocable: bool,
}

/// The extension entry of one skill, computed from the bytes on disk.
#[derive(Clone, Debug)]
pub struct Entry {
    pub frontmatter: Map<String, Value>,
    pub manifest: FileManifest,
}

/// Why a published skill has no entry (it is then neither listed nor served).
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error(transparent)]
    Files(#[from] SkillFilesError),
    #[error("{}: changed while its entry was being computed; ask again", path.display())]
    Changed { path: PathBuf },
    #[error("{}: frontmatter `name` is `{found}` but the skill is published as `{expected}`; the last segment of a skill URI must equal its name", path.display())]
    NameMismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
}

/// The published skills and their lazily computed entries.
#[derive(Debug, Default)]
pub struct ServedCatalog {
    skills: Vec<Published>,
    entries: Mutex<HashMap<String, Arc<Entry>>>,
}

impl ServedCatalog {
    /// Publish the listed skills of `catalog` (enabled and not denied; the deck's discovery
    /// flags and permission rules already decided this). Skills whose name breaks the
    /// Agent Skills naming rules cannot have a conforming URI and are left out; the
    /// returned notes say which and why.
    pub fn new(catalog: &skilldeck::Catalog) -> (ServedCatalog, Vec<String>) {
        let mut skills = Vec::new();
        let mut notes = Vec::new();
        for skill in catalog.listed() {
            if !skilldeck::is_spec_name(&skill.name) {
                notes.push(format!(
                    "{}: not published: name `{}` breaks the Agent Skills naming rules (lowercase letters, digits, single hyphens, at most 64 characters)",
                    skill.location.display(),
                    skill.name
                ));
                continue;
            }
            let path = skill_path(&skill.id, &skill.name);
            let mut segments = path.clone();
            segments.push(SKILL_MD.to_string());
            skills.push(Published {
                uri: uri::join(&segments),
                path,
                id: skill.id.to_string(),
                name: skill.name.to_string(),
                description: skill.description().to_string(),
                base_dir: skill.base_dir.to_path_buf(),
                user_invocable: skill.status.user_invocable,
            });
        }
        skills.sort_by(|a, b| a.uri.cmp(&b.uri));
        skills.dedup_by(|a, b| {
            let same = a.uri == b.uri;
            if same {
                notes.push(format!(
                    "{}: not published: its URI {} is already taken by skill `{}`",
                    a.base_dir.display(),
                    a.uri,
                    b.id
                ));
            }
            same
        });
        (
            ServedCatalog {
                skills,
                entries: Mutex::default(),
            },
            notes,
        )
    }

    /// Every published skill, sorted by URI.
    pub fn skills(&self) -> &[Published] {
        &self.skills
    }

    /// The skill whose `SKILL.md` is at `uri` exactly (decoded comparison).
    pub fn by_skill_md(&self, segments: &[String]) -> Option<&Published> {
        let (last, path) = segments.split_last()?;
        if last != SKILL_MD {
            return None;
        }
        self.skills.iter().find(|s| s.path == path)
    }

    /// The published skill whose path is the longest prefix of `segments`, and the rest
    /// (the path inside it, possibly empty).
    pub fn containing<'a>(&self, segments: &'a [String]) -> Option<(&Published, &'a [String])> {
        self.skills
            .iter()
            .filter(|s| segments.starts_with(&s.path))
            .max_by_key(|s| s.path.len())
            .map(|s| (s, &segments[s.path.len()..]))
    }

    /// Names of what sits directly below `prefix` in the namespace above skills
    /// (`skill://acme` holds `billing` when `acme/billing/refunds` is published), or
    /// `None` when no published skill lies below it.
    pub fn namespace_children(&self, prefix: &[String]) -> Option<Vec<String>> {
        let mut out: Vec<String> = self
            .skills
            .iter()
            .filter(|s| s.path.len() > prefix.len() && s.path.starts_with(prefix))
            .map(|s| s.path[prefix.len()].clone())
            .collect();
        if out.is_empty() {
            return None;
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    /// The entry of `skill`, computed from its files on first use.
    pub fn entry(&self, skill: &Published) -> Result<Arc<Entry>, EntryError> {
        if let Some(entry) = self.lock().get(&skill.uri) {
            return Ok(entry.clone());
        }
        let manifest = skilldeck::file_manifest(&skill.base_dir)?;
        let skill_md = skill.base_dir.join(SKILL_MD);
        let bytes = skilldeck::read_skill_file(&skill.base_dir, SKILL_MD)?;
        let frontmatter = skilldeck::frontmatter_json(&skill_md, &bytes)?;
        let found = frontmatter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if found != skill.name {
            return Err(EntryError::NameMismatch {
                path: skill_md,
                expected: skill.name.clone(),
                found: found.to_string(),
            });
        }
        // The manifest must describe the SKILL.md whose frontmatter we publish; a file
        // rewritten between the two reads is caught here and recomputed on the next call.
        let listed = manifest.get(SKILL_MD);
        if listed.map(|f| f.digest.as_str()) != Some(skilldeck::file_digest(&bytes).as_str()) {
            return Err(EntryError::Changed { path: skill_md });
        }
        let entry = Arc::new(Entry {
            frontmatter,
            manifest,
        });
        self.lock().insert(skill.uri.clone(), entry.clone());
        Ok(entry)
    }

    /// Forget the entry of `skill`, after its bytes were seen to differ from it.
    pub fn invalidate(&self, skill: &Published) {
        self.lock().remove(&skill.uri);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `<skill-path>` for a deck id: its `:`/`/`-separated parts, ending in the name
/// (`plugin:pdf` → `plugin/pdf`; `pdf` → `pdf`).
fn skill_path(id: &str, name: &str) -> Vec<String> {
    let mut parts: Vec<String> = id
        .split([':', '/'])
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    if parts.last().map(String::as_str) != Some(name) {
        parts.push(name.to_string());
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_paths_end_in_the_name() {
        assert_eq!(skill_path("pdf", "pdf"), ["pdf"]);
        assert_eq!(skill_path("acme:pdf", "pdf"), ["acme", "pdf"]);
        assert_eq!(skill_path("team/x", "y"), ["team", "x", "y"]);
    }
}
