//! Result records that the bindings build themselves, because they need methods (`toJson`),
//! integer widths uniffi lacks (`usize`) or fields copied for convenience (`Skill`).
//! `toJson()` rebuilds the core value and serialises it with serde, so its output is the
//! engine's canonical JSON, never a hand-written field list.

use crate::remote::FsPath;
use crate::Manifest;
use serde::Serialize;
use skilldeck::{Decision, Diagnostic, Scope, SkillKind, Status};
use std::collections::HashMap;

/// The canonical JSON text of a core value.
pub(crate) fn canonical_json<T: Serialize>(value: &T) -> String {
    // These types only have string map keys, so serialisation cannot fail; `null` keeps this
    // total anyway.
    serde_json::to_value(value)
        .unwrap_or(serde_json::Value::Null)
        .to_string()
}

/// Declares the `Skill` record: its own fields, then a copy of every manifest field but
/// `name`/`description` from the core's list ([`skilldeck::manifest_fields!`]).
macro_rules! skill_record {
    (identity [ $($ignored:tt)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        /// One resolved skill. The manifest's fields are also copied onto the skill itself
        /// (`skill.license` is `skill.manifest.license`), so hosts rarely need `manifest`.
        #[derive(Clone, Debug, PartialEq, uniffi::Record)]
        pub struct Skill {
            /// Unique id in the catalog: the name, or `plugin:name`, or a directory-qualified name.
            pub id: String,
            pub name: String,
            pub description: String,
            /// Absolute path of the SKILL.md (or command file).
            pub location: FsPath,
            /// Directory holding the skill's files.
            pub base_dir: FsPath,
            pub scope: Scope,
            /// The root directory the skill was found under.
            pub source: FsPath,
            pub plugin: Option<String>,
            pub kind: SkillKind,
            pub status: Status,
            pub diagnostics: Vec<Diagnostic>,
            /// The full frontmatter; the fields below are copies of its fields.
            pub manifest: Manifest,
            $( $(#[doc = $fd])* pub $f: $ft, )*
        }

        impl From<skilldeck::Skill> for Skill {
            fn from(s: skilldeck::Skill) -> Self {
                let description = s.description().to_string();
                let m = Manifest::from(skilldeck::Manifest::clone(&s.manifest));
                Skill {
                    id: s.id.to_string(),
                    name: s.name.to_string(),
                    description,
                    location: s.location.into(),
                    base_dir: s.base_dir.to_path_buf(),
                    scope: s.scope,
                    source: s.source.into(),
                    plugin: s.plugin,
                    kind: s.kind,
                    status: s.status,
                    diagnostics: s.diagnostics.to_vec(),
                    $( $f: m.$f.clone(), )*
                    manifest: m,
                }
            }
        }
    };
}

skilldeck::manifest_fields!(skill_record);

impl Skill {
    /// The core skill; `manifest` is authoritative over the copied fields (a record built
    /// by hand with a `description` its manifest lacks keeps it, as the JSON form does).
    pub(crate) fn to_core(&self) -> skilldeck::Skill {
        let manifest = skilldeck::Manifest::from(self.manifest.clone())
            .or_description(self.description.clone());
        let location = skilldeck::SharedPath::from(self.location.clone());
        skilldeck::Skill {
            id: self.id.clone().into(),
            name: self.name.clone().into(),
            base_dir: skilldeck::BaseDir::new(self.base_dir.clone(), &location),
            location,
            scope: self.scope,
            source: self.source.clone().into(),
            plugin: self.plugin.clone(),
            kind: self.kind,
            manifest: std::sync::Arc::new(manifest),
            diagnostics: skilldeck::Diagnostic::shared(self.diagnostics.clone()),
            status: self.status.clone(),
        }
    }
}

#[uniffi::export]
impl Skill {
    /// Canonical JSON (the engine's serde form), the same text every binding produces.
    pub fn to_json(&self) -> String {
        canonical_json(&self.to_core())
    }
}

/// What changed between two loads, by skill id (each list sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct Diff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
}

impl From<skilldeck::Diff> for Diff {
    fn from(d: skilldeck::Diff) -> Self {
        Diff {
            added: d.added,
            removed: d.removed,
            changed: d.changed,
        }
    }
}

#[uniffi::export]
impl Diff {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::Diff {
            added: self.added.clone(),
            removed: self.removed.clone(),
            changed: self.changed.clone(),
        })
    }
}

/// A parsed SKILL.md frontmatter.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct Parsed {
    pub manifest: Manifest,
    pub diagnostics: Vec<Diagnostic>,
    /// 1-based line where the body starts, when the frontmatter was closed.
    pub body_line: Option<u32>,
}

impl From<skilldeck::Parsed> for Parsed {
    fn from(p: skilldeck::Parsed) -> Self {
        Parsed {
            manifest: p.manifest.into(),
            diagnostics: p.diagnostics,
            body_line: p.body_line,
        }
    }
}

#[uniffi::export]
impl Parsed {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::Parsed {
            manifest: self.manifest.clone().into(),
            diagnostics: self.diagnostics.clone(),
            body_line: self.body_line,
            // The remaining fields are validation internals that serde skips.
            ..Default::default()
        })
    }
}

/// The verdict on one skill.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct ValidationReport {
    /// The SKILL.md (or the directory when none was found).
    pub path: FsPath,
    pub name: Option<String>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

impl From<skilldeck::ValidationReport> for ValidationReport {
    fn from(r: skilldeck::ValidationReport) -> Self {
        ValidationReport {
            path: r.path,
            name: r.name,
            valid: r.valid,
            diagnostics: r.diagnostics,
        }
    }
}

#[uniffi::export]
impl ValidationReport {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::ValidationReport {
            path: self.path.clone(),
            name: self.name.clone(),
            valid: self.valid,
            diagnostics: self.diagnostics.clone(),
        })
    }
}

/// A skill whose description was shortened to fit the budget.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Truncation {
    pub id: String,
    pub chars_removed: u64,
}

/// What a render kept, shortened and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct RenderReport {
    pub included: Vec<String>,
    pub truncated: Vec<Truncation>,
    pub omitted: Vec<String>,
    /// Characters in the rendered text.
    pub chars: u64,
    /// Why each skill was left out of a render for a `query` (id → reason).
    pub reasons: HashMap<String, String>,
}

/// Rendered prompt text and what the budget did to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct Rendered {
    pub text: String,
    pub report: RenderReport,
}

fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl From<skilldeck::Rendered> for Rendered {
    fn from(r: skilldeck::Rendered) -> Self {
        Rendered {
            text: r.text,
            report: RenderReport {
                included: r.report.included,
                truncated: r
                    .report
                    .truncated
                    .into_iter()
                    .map(|t| Truncation {
                        id: t.id,
                        chars_removed: to_u64(t.chars_removed),
                    })
                    .collect(),
                omitted: r.report.omitted,
                chars: to_u64(r.report.chars),
                reasons: r.report.reasons.into_iter().collect(),
            },
        }
    }
}

impl RenderReport {
    fn to_core(&self) -> skilldeck::RenderReport {
        skilldeck::RenderReport {
            included: self.included.clone(),
            truncated: self
                .truncated
                .iter()
                .map(|t| skilldeck::Truncation {
                    id: t.id.clone(),
                    chars_removed: to_usize(t.chars_removed),
                })
                .collect(),
            omitted: self.omitted.clone(),
            chars: to_usize(self.chars),
            reasons: self
                .reasons
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        }
    }
}

#[uniffi::export]
impl RenderReport {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&self.to_core())
    }
}

#[uniffi::export]
impl Rendered {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::Rendered {
            text: self.text.clone(),
            report: self.report.to_core(),
        })
    }
}

/// One search result: the skill, its scores and the fields where query terms matched.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct SearchHit {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Absolute path of the SKILL.md.
    pub location: FsPath,
    /// The ranking score: BM25F, or the fused reciprocal-rank score in hybrid search.
    pub score: f64,
    /// The BM25F score (0 when no query term matched).
    pub bm25: f64,
    /// Cosine similarity with the query embedding (hybrid search only).
    pub similarity: Option<f64>,
    /// The fields where query terms matched: `name`, `tags`, `category`, `description`,
    /// `parameters`, `body`.
    pub matched: Vec<String>,
}

/// Ranked search results.
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct SearchResults {
    pub query: String,
    /// The best `limit` hits, best first.
    pub hits: Vec<SearchHit>,
    /// Skills that matched at all.
    pub matched: u64,
    /// Skills searched.
    pub searched: u64,
}

impl From<skilldeck::SearchHit> for SearchHit {
    fn from(h: skilldeck::SearchHit) -> Self {
        SearchHit {
            id: h.id,
            name: h.name,
            description: h.description,
            location: h.location,
            score: h.score,
            bm25: h.bm25,
            similarity: h.similarity,
            matched: h.matched,
        }
    }
}

impl SearchHit {
    fn to_core(&self) -> skilldeck::SearchHit {
        skilldeck::SearchHit {
            id: self.id.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            location: self.location.clone(),
            score: self.score,
            bm25: self.bm25,
            similarity: self.similarity,
            matched: self.matched.clone(),
        }
    }
}

impl From<skilldeck::SearchResults> for SearchResults {
    fn from(r: skilldeck::SearchResults) -> Self {
        SearchResults {
            query: r.query,
            hits: r.hits.into_iter().map(SearchHit::from).collect(),
            matched: to_u64(r.matched),
            searched: to_u64(r.searched),
        }
    }
}

#[uniffi::export]
impl SearchHit {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&self.to_core())
    }
}

#[uniffi::export]
impl SearchResults {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::SearchResults {
            query: self.query.clone(),
            hits: self.hits.iter().map(SearchHit::to_core).collect(),
            matched: to_usize(self.matched),
            searched: to_usize(self.searched),
        })
    }
}

/// An activated skill: the formatted text plus the structured parts for hosts that build
/// their own message.
#[derive(Clone, Debug, Default, PartialEq, Eq, uniffi::Record)]
pub struct Activation {
    pub id: String,
    pub name: String,
    /// Output in the requested format.
    pub text: String,
    /// Body after substitution.
    pub body: String,
    pub base_dir: FsPath,
    /// Resource files (relative to `base_dir`, sorted, SKILL.md excluded).
    pub resources: Vec<String>,
    pub allowed_tools: Vec<String>,
    pub model: Option<String>,
    pub effort: Option<String>,
    pub context: Option<String>,
    pub agent: Option<String>,
    /// `Allow`, or `Ask`: confirm with the user before the model follows the skill.
    pub permission: Decision,
}

impl From<skilldeck::Activation> for Activation {
    fn from(a: skilldeck::Activation) -> Self {
        Activation {
            id: a.id,
            name: a.name,
            text: a.text,
            body: a.body,
            base_dir: a.base_dir,
            resources: a.resources,
            allowed_tools: a.allowed_tools,
            model: a.model,
            effort: a.effort,
            context: a.context,
            agent: a.agent,
            permission: a.permission,
        }
    }
}

#[uniffi::export]
impl Activation {
    /// Canonical JSON.
    pub fn to_json(&self) -> String {
        canonical_json(&skilldeck::Activation {
            id: self.id.clone(),
            name: self.name.clone(),
            text: self.text.clone(),
            body: self.body.clone(),
            base_dir: self.base_dir.clone(),
            resources: self.resources.clone(),
            allowed_tools: self.allowed_tools.clone(),
            model: self.model.clone(),
            effort: self.effort.clone(),
            context: self.context.clone(),
            agent: self.agent.clone(),
            permission: self.permission,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn core_skill() -> skilldeck::Skill {
        let parsed = skilldeck::parse(
            "---\nname: demo\ndescription: Demo.\nlicense: MIT\nmetadata:\n  owner: me\n  n: {a: [1, two]}\nx-custom: 3\n---\nBody\n",
        );
        skilldeck::Skill {
            id: "demo".into(),
            name: "demo".into(),
            location: "/p/demo/SKILL.md".into(),
            base_dir: "/p/demo".into(),
            scope: Scope::Project,
            source: "/p".into(),
            plugin: None,
            kind: SkillKind::Skill,
            manifest: parsed.manifest.into(),
            diagnostics: Vec::new().into(),
            status: Status::default(),
        }
    }

    #[test]
    fn skill_copies_manifest_fields_and_round_trips() {
        let core = core_skill();
        let skill = Skill::from(core.clone());
        assert_eq!(skill.license.as_deref(), Some("MIT"));
        assert_eq!(skill.metadata, core.manifest.metadata.to_object());
        assert_eq!(skill.extra.get("x-custom"), Some(&json!(3)));
        assert_eq!(skill.to_core(), core);
        assert_eq!(
            skill.to_json(),
            serde_json::to_value(&core).unwrap().to_string()
        );
    }

    #[test]
    fn search_results_round_trip_to_canonical_json() {
        let core = skilldeck::SearchResults {
            query: "pdf".into(),
            hits: vec![skilldeck::SearchHit {
                id: "pdf".into(),
                name: "pdf".into(),
                description: "PDF files.".into(),
                location: "/p/pdf/SKILL.md".into(),
                score: 0.5,
                bm25: 0.25,
                similarity: Some(1.0),
                matched: vec!["name".into()],
            }],
            matched: 3,
            searched: 9,
        };
        let results = SearchResults::from(core.clone());
        assert_eq!(results.matched, 3);
        assert_eq!(results.hits[0].similarity, Some(1.0));
        assert_eq!(
            results.to_json(),
            serde_json::to_value(&core).unwrap().to_string()
        );
        assert_eq!(
            results.hits[0].to_json(),
            serde_json::to_value(&core.hits[0]).unwrap().to_string()
        );
    }

    #[test]
    fn rendered_keeps_counts_through_u64() {
        let core = skilldeck::Rendered {
            text: "t".into(),
            report: skilldeck::RenderReport {
                included: vec!["a".into()],
                truncated: vec![skilldeck::Truncation {
                    id: "a".into(),
                    chars_removed: 7,
                }],
                omitted: vec!["b".into(), "c".into()],
                chars: 1,
                reasons: [("c".to_string(), "does not match the query".to_string())].into(),
            },
        };
        let rendered = Rendered::from(core.clone());
        assert_eq!(rendered.report.truncated[0].chars_removed, 7);
        assert_eq!(
            rendered.to_json(),
            serde_json::to_value(&core).unwrap().to_string()
        );
    }
}
