//! Rendering: pure functions from a filtered catalog to prompt text, with budgets.
//!
//! Every format is a [`Layout`] (one module each): how to order the skills, how one entry
//! looks, and the frame around the entries. Budgets ([`budget`]) decide per entry whether it
//! is shown in full, shortened, by name only or not at all, using the algorithm of the host
//! the format comes from: Codex trims descriptions round-robin then drops entries by
//! priority; Claude Code drops the descriptions of the least-used skills first; Kode stops at
//! the first entry that does not fit. The generic formats (`xml`, `skills-ref`, `opencode`,
//! `opencode-tool`, `markdown`) use Codex's, the one that keeps the most information.
//!
//! A budget limits the entries only (each entry's text and its separating newline), not a
//! format's fixed frame. Tokens are approximated as one per 4 characters, rounded up per
//! entry, unless the caller supplies a counter ([`render_with_counter`]).

pub mod budget;
mod claude_code;
mod cline;
mod codex;
mod kode;
mod markdown;
mod opencode;
mod openhands;
mod skills_ref;
pub mod text;
mod xml;

use crate::catalog::{Catalog, Skill};
use crate::error::{Error, Result};
use budget::{Algorithm, Item, Shown};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Output formats. Names (kebab-case) are the same in every binding and the CLI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RenderFormat {
    /// The spec's `<available_skills>` XML.
    #[default]
    Xml,
    /// Byte-for-byte skills-ref 0.1.1 `to_prompt`.
    SkillsRef,
    /// OpenCode's system-prompt block.
    Opencode,
    /// OpenCode's terse `## Available Skills` tool description.
    OpencodeTool,
    /// Codex's `<skills_instructions>` section.
    Codex,
    /// Claude Code's `- name: description` list.
    ClaudeCode,
    /// Kode's block list.
    Kode,
    /// A plain Markdown list for humans.
    Markdown,
    /// Cline's `skills` tool description (`... Available skills: a, b.`).
    Cline,
    /// OpenHands SDK's `<available_skills>` block (names and descriptions, no locations).
    Openhands,
}

impl RenderFormat {
    pub const ALL: [RenderFormat; 10] = [
        RenderFormat::Xml,
        RenderFormat::SkillsRef,
        RenderFormat::Opencode,
        RenderFormat::OpencodeTool,
        RenderFormat::Codex,
        RenderFormat::ClaudeCode,
        RenderFormat::Kode,
        RenderFormat::Markdown,
        RenderFormat::Cline,
        RenderFormat::Openhands,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RenderFormat::Xml => "xml",
            RenderFormat::SkillsRef => "skills-ref",
            RenderFormat::Opencode => "opencode",
            RenderFormat::OpencodeTool => "opencode-tool",
            RenderFormat::Codex => "codex",
            RenderFormat::ClaudeCode => "claude-code",
            RenderFormat::Kode => "kode",
            RenderFormat::Markdown => "markdown",
            RenderFormat::Cline => "cline",
            RenderFormat::Openhands => "openhands",
        }
    }
}

impl std::str::FromStr for RenderFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        RenderFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = RenderFormat::ALL.iter().map(|f| f.as_str()).collect();
                Error::invalid_options(format!(
                    "unknown render format `{s}` (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// The largest budget (characters or tokens) a caller may give: far above any prompt, low
/// enough that a mistaken value (a wrapped `-1`, a byte count of a file) is caught.
pub const MAX_BUDGET: usize = 10_000_000;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    pub format: RenderFormat,
    /// Character budget for the whole rendered text.
    pub budget_chars: Option<usize>,
    /// Token budget (approximate: 4 characters per token).
    pub budget_tokens: Option<usize>,
    /// Agent whose permission rules apply (defaults to the deck's).
    pub agent: Option<String>,
    /// Usage counts by skill id, for Claude Code's budget algorithm (least used lose descriptions first).
    pub usage: BTreeMap<String, u64>,
    /// Keep only the skills relevant to this task text (search ranking), the most relevant
    /// first while they fit the budget; the others are omitted with a reason.
    pub query: Option<String>,
    /// Skill ids always kept with a `query`, whatever their relevance and the budget.
    pub pinned: Vec<String>,
}

/// A skill whose description was shortened to fit the budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncation {
    pub id: String,
    pub chars_removed: usize,
}

/// What a render kept, shortened and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderReport {
    pub included: Vec<String>,
    pub truncated: Vec<Truncation>,
    pub omitted: Vec<String>,
    /// Characters in the rendered text.
    pub chars: usize,
    /// Why a skill was left out when rendering for a `query` (id → reason).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reasons: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rendered {
    pub text: String,
    pub report: RenderReport,
}

/// Render the model-visible skills of `catalog`.
pub fn render(catalog: &Catalog, options: &RenderOptions) -> Result<Rendered> {
    render_with_counter(catalog, options, None)
}

/// A caller-supplied token counter (e.g. a real tokenizer) for `budget_tokens`.
pub type TokenCounter<'a> = &'a dyn Fn(&str) -> usize;

/// What a render may know beyond the catalog.
#[derive(Clone, Copy, Default)]
pub struct RenderContext<'a> {
    /// Counts tokens for `budget_tokens` instead of the 4-characters-per-token estimate.
    pub counter: Option<TokenCounter<'a>>,
    /// The deck's skill roots in scan order (Codex numbers its roots table in this order;
    /// without it, roots are numbered in the order their first skill is listed).
    pub roots: &'a [std::path::PathBuf],
    /// The skill tool is disabled for the agent (permission `* -> deny`): hosts that drop
    /// their whole skills section then (OpenCode) render nothing at all.
    pub tool_disabled: bool,
    /// Relevance scores by skill id for `options.query` (a deck passes its cached search
    /// index's; without them the visible skills are indexed for this render).
    pub relevance: Option<&'a HashMap<String, f64>>,
}

/// Like [`render`], counting tokens with `counter` instead of the 4-characters-per-token
/// approximation when `budget_tokens` is set.
pub fn render_with_counter(
    catalog: &Catalog,
    options: &RenderOptions,
    counter: Option<TokenCounter<'_>>,
) -> Result<Rendered> {
    render_with(
        catalog,
        options,
        &RenderContext {
            counter,
            ..RenderContext::default()
        },
    )
}

impl RenderOptions {
    /// Refuse budgets that cannot be meant: both kinds at once, or one above
    /// [`MAX_BUDGET`].
    pub fn check(&self) -> Result<()> {
        if self.budget_chars.is_some() && self.budget_tokens.is_some() {
            return Err(Error::invalid_options(
                "give either a character budget or a token budget, not both",
            ));
        }
        for (name, budget) in [
            ("budget_chars", self.budget_chars),
            ("budget_tokens", self.budget_tokens),
        ] {
            if let Some(n) = budget.filter(|n| *n > MAX_BUDGET) {
                return Err(Error::invalid_options(format!(
                    "{name} must be at most {MAX_BUDGET} (got {n})"
                )));
            }
        }
        Ok(())
    }
}

/// [`render`] with a [`RenderContext`].
pub fn render_with(
    catalog: &Catalog,
    options: &RenderOptions,
    context: &RenderContext<'_>,
) -> Result<Rendered> {
    let counter = context.counter;
    options.check()?;
    let visible: Vec<&Skill> = catalog.model_visible().collect();
    let approx = |t: &str| text::chars(t).div_ceil(4);
    let (limit, measure): (Option<usize>, TokenCounter<'_>) =
        match (options.budget_chars, options.budget_tokens) {
            (Some(n), _) => (Some(n), &text::chars),
            (None, Some(n)) => (Some(n), counter.unwrap_or(&approx)),
            (None, None) => (None, &text::chars),
        };
    let mut dropped = BTreeMap::new();
    let visible = match &options.query {
        Some(query) => {
            let computed;
            let relevance = match context.relevance {
                Some(r) => r,
                None => {
                    computed = relevance(catalog, query);
                    &computed
                }
            };
            let selection = select(options, visible, relevance, limit, measure, context.roots);
            dropped = selection.1;
            selection.0
        }
        None => visible,
    };
    let layout = layout(options.format, &visible, context.roots);
    let mut skills = visible;
    layout.order(&mut skills);

    let described: Vec<(String, usize)> = skills.iter().map(|s| layout.description(s)).collect();
    let items: Vec<Item> = skills
        .iter()
        .zip(&described)
        .map(|(s, (d, _))| Item {
            id: s.id.to_string(),
            desc_len: text::chars(d),
            usage: options.usage.get(s.id.as_str()).copied().unwrap_or(0),
            name_only: s.status.name_only,
        })
        .collect();
    let entry_text = |i: usize, shown: Shown| -> String {
        let full = described[i].0.as_str();
        let description = match shown {
            Shown::Full => full,
            Shown::Trimmed(k) => text::take_chars(full, k),
            Shown::NameOnly | Shown::Omitted => "",
        };
        layout.entry(skills[i], description)
    };
    let cost = |i: usize, shown: Shown| measure(&format!("{}\n", entry_text(i, shown)));
    let states = budget::plan(&items, layout.algorithm(), limit, &cost);

    let mut report = RenderReport::default();
    let mut entries = Vec::new();
    for (i, shown) in states.iter().enumerate() {
        let id = &items[i].id;
        if *shown == Shown::Omitted {
            report.omitted.push(id.clone());
            continue;
        }
        report.included.push(id.clone());
        // Characters of the original description the model does not see.
        let shown_len = match shown {
            Shown::Full => items[i].desc_len,
            Shown::Trimmed(k) => *k,
            Shown::NameOnly | Shown::Omitted => 0,
        };
        let removed = if items[i].name_only {
            0
        } else {
            described[i].1.saturating_sub(shown_len)
        };
        if removed > 0 {
            report.truncated.push(Truncation {
                id: id.clone(),
                chars_removed: removed,
            });
        }
        entries.push(entry_text(i, *shown));
    }
    let frame = Frame {
        shown: entries.len(),
        total: skills.len(),
    };
    let text = if context.tool_disabled {
        layout.disabled()
    } else {
        layout.frame(&entries, &frame)
    };
    report.chars = text::chars(&text);
    for id in catalog.model_visible().map(|s| s.id.as_str()) {
        if let Some(reason) = dropped.remove(id) {
            report.omitted.push(id.to_string());
            report.reasons.insert(id.to_string(), reason);
        }
    }
    report.reasons.append(&mut dropped);
    Ok(Rendered { text, report })
}

/// BM25F relevance of every model-visible skill of `catalog` to `query`.
pub fn relevance(catalog: &Catalog, query: &str) -> HashMap<String, f64> {
    let skills = crate::search::index_skills(catalog);
    let index = crate::search::Index::build(&skills, None, &HashMap::new());
    crate::search::relevance(&index, query)
}

/// The skills to render for a query: pinned ones, then the most relevant while their full
/// entries fit the budget. Returns them (in their original order) and, for each left out,
/// why.
fn select<'s>(
    options: &RenderOptions,
    visible: Vec<&'s Skill>,
    relevance: &HashMap<String, f64>,
    limit: Option<usize>,
    measure: TokenCounter<'_>,
    roots: &[std::path::PathBuf],
) -> (Vec<&'s Skill>, BTreeMap<String, String>) {
    let mut reasons = BTreeMap::new();
    for id in &options.pinned {
        if !visible.iter().any(|s| &s.id == id) {
            reasons.insert(
                id.clone(),
                "pinned, but not visible to the model".to_string(),
            );
        }
    }
    let pin = |s: &Skill| options.pinned.iter().position(|p| *p == s.id);
    let score = |s: &Skill| relevance.get(s.id.as_str()).copied().unwrap_or(0.0);
    let mut ranked: Vec<usize> = (0..visible.len())
        .filter(|&i| pin(visible[i]).is_some() || score(visible[i]) > 0.0)
        .collect();
    ranked.sort_by(|&a, &b| {
        let (sa, sb) = (visible[a], visible[b]);
        match (pin(sa), pin(sb)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => score(sb).total_cmp(&score(sa)).then(a.cmp(&b)),
        }
    });
    for s in &visible {
        if pin(s).is_none() && score(s) <= 0.0 {
            reasons.insert(s.id.to_string(), "does not match the query".to_string());
        }
    }
    let mut keep = vec![false; visible.len()];
    let full = layout(options.format, &visible, roots);
    let mut used = 0usize;
    for (rank, &i) in ranked.iter().enumerate() {
        let skill = visible[i];
        if let Some(limit) = limit {
            let cost = measure(&format!(
                "{}\n",
                full.entry(skill, &full.description(skill).0)
            ));
            // The most relevant skill is kept even when its full entry is too long: the
            // format's own budget algorithm then shortens it.
            let first = !keep.iter().any(|k| *k);
            if pin(skill).is_none() && !first && used + cost > limit {
                reasons.insert(
                    skill.id.to_string(),
                    format!("relevant (rank {}), but did not fit the budget", rank + 1),
                );
                continue;
            }
            used += cost;
        }
        keep[i] = true;
    }
    let kept = visible
        .into_iter()
        .zip(keep)
        .filter_map(|(s, k)| k.then_some(s))
        .collect();
    (kept, reasons)
}

/// Counts a format's frame may mention (Kode's "Showing N of M").
pub struct Frame {
    pub shown: usize,
    pub total: usize,
}

/// One output format.
pub trait Layout {
    /// Display order (also the priority for dropping: earlier entries are kept longer).
    fn order(&self, skills: &mut Vec<&Skill>) {
        let _ = skills;
    }
    /// The budget algorithm of the host this format comes from.
    fn algorithm(&self) -> Algorithm {
        Algorithm::TrimThenDrop
    }
    /// The description text of an entry (after any cap the format itself applies, like
    /// Claude Code's) and the length in characters of the uncapped original.
    fn description(&self, skill: &Skill) -> (String, usize) {
        (
            skill.description().to_string(),
            text::chars(skill.description()),
        )
    }
    /// One entry; `description` is empty when dropped.
    fn entry(&self, skill: &Skill, description: &str) -> String;
    /// The whole text around the entries (`entries` may be empty).
    fn frame(&self, entries: &[String], frame: &Frame) -> String;
    /// The text when the skill tool is disabled (no skill can be listed).
    fn disabled(&self) -> String {
        self.frame(&[], &Frame { shown: 0, total: 0 })
    }
}

fn layout(
    format: RenderFormat,
    skills: &[&Skill],
    roots: &[std::path::PathBuf],
) -> Box<dyn Layout> {
    match format {
        RenderFormat::Xml => Box::new(xml::Xml),
        RenderFormat::SkillsRef => Box::new(skills_ref::SkillsRef),
        RenderFormat::Opencode => Box::new(opencode::Opencode),
        RenderFormat::OpencodeTool => Box::new(opencode::OpencodeTool),
        RenderFormat::Codex => Box::new(codex::Codex::new(skills, roots)),
        RenderFormat::ClaudeCode => Box::new(claude_code::ClaudeCode),
        RenderFormat::Kode => Box::new(kode::Kode),
        RenderFormat::Cline => Box::new(cline::Cline),
        RenderFormat::Openhands => Box::new(openhands::Openhands),
        RenderFormat::Markdown => Box::new(markdown::Markdown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Scope;
    use std::path::PathBuf;

    pub(super) fn skill(name: &str, description: &str) -> Skill {
        Skill {
            id: name.into(),
            name: name.into(),
            location: PathBuf::from(format!("/s/{name}/SKILL.md")).into(),
            base_dir: format!("/s/{name}").into(),
            scope: Scope::User,
            source: PathBuf::from("/s").into(),
            plugin: None,
            kind: Default::default(),
            manifest: std::sync::Arc::new(crate::manifest::Manifest {
                description: Some(description.to_string()),
                ..Default::default()
            }),
            diagnostics: Vec::new().into(),
            status: Default::default(),
        }
    }

    fn catalog() -> Catalog {
        Catalog {
            skills: vec![
                skill("a", "one two three").into(),
                skill("b", "four five").into(),
            ],
            ..Catalog::default()
        }
    }

    #[test]
    fn caller_token_counter() {
        let words = |t: &str| t.split_whitespace().count();
        let options = RenderOptions {
            format: RenderFormat::ClaudeCode,
            budget_tokens: Some(7),
            ..RenderOptions::default()
        };
        // Entries cost 5 and 4 words; 7 leaves room only after `a` loses its description.
        let r = render_with_counter(&catalog(), &options, Some(&words)).expect("renders");
        assert_eq!(
            r.text,
            "The following skills are available for use with the Skill tool:\n\n- a\n- b: four five"
        );
        assert_eq!(
            r.report.truncated,
            vec![Truncation {
                id: "a".into(),
                chars_removed: 13
            }]
        );
    }

    #[test]
    fn query_keeps_relevant_skills_within_the_budget() {
        let c = Catalog {
            skills: vec![
                skill("pdf", "Fill PDF forms and extract PDF text.").into(),
                skill("xlsx", "Edit spreadsheets.").into(),
                skill("pdf-merge", "Merge PDF files into one document.").into(),
                skill("deploy", "Deploy the service.").into(),
            ],
            ..Catalog::default()
        };
        let options = RenderOptions {
            format: RenderFormat::Markdown,
            query: Some("pdf forms".into()),
            ..RenderOptions::default()
        };
        let r = render(&c, &options).expect("renders");
        // Kept in the format's own order; the rest omitted with a reason.
        assert_eq!(r.report.included, ["pdf", "pdf-merge"]);
        assert_eq!(r.report.omitted, ["xlsx", "deploy"]);
        assert_eq!(r.report.reasons["xlsx"], "does not match the query");
        // A budget for two entries: the pinned one, then the most relevant that fits.
        let tight = RenderOptions {
            budget_chars: Some(130),
            pinned: vec!["deploy".into(), "missing".into()],
            ..options.clone()
        };
        let r = render(&c, &tight).expect("renders");
        assert!(r.report.included.contains(&"pdf".to_string()));
        assert!(r.report.included.contains(&"deploy".to_string()));
        assert!(r.report.reasons["pdf-merge"].contains("did not fit the budget"));
        assert_eq!(
            r.report.reasons["missing"],
            "pinned, but not visible to the model"
        );
        // No query: every visible skill, no reasons.
        let all = render(&c, &RenderOptions::default()).expect("renders");
        assert_eq!(all.report.included.len(), 4);
        assert!(all.report.reasons.is_empty());
    }

    #[test]
    fn name_only_override_and_both_budgets() {
        let mut c = catalog();
        std::sync::Arc::make_mut(&mut c.skills[1]).status.name_only = true;
        let r = render(&c, &RenderOptions::default()).expect("renders");
        assert!(r
            .text
            .contains("<name>b</name>\n    <description></description>"));
        assert!(r.report.truncated.is_empty());
        let both = RenderOptions {
            budget_chars: Some(1),
            budget_tokens: Some(1),
            ..RenderOptions::default()
        };
        assert_eq!(
            render(&c, &both).map_err(|e| e.code()).err(),
            Some("INVALID_OPTIONS")
        );
    }

    #[test]
    fn budgets_are_capped() {
        let c = catalog();
        let over = |chars, tokens| RenderOptions {
            budget_chars: chars,
            budget_tokens: tokens,
            ..RenderOptions::default()
        };
        for options in [
            over(Some(MAX_BUDGET + 1), None),
            over(None, Some(usize::MAX)),
        ] {
            let err = render(&c, &options).expect_err("over the cap");
            assert_eq!(err.code(), "INVALID_OPTIONS");
            assert!(err.to_string().contains("at most 10000000"), "{err}");
        }
        assert!(render(&c, &over(Some(MAX_BUDGET), None)).is_ok());
        assert!(render(&c, &over(None, Some(MAX_BUDGET))).is_ok());
    }

    #[test]
    fn claude_code_caps_long_entries() {
        let c = Catalog {
            skills: vec![skill("long", &"x".repeat(2000)).into()],
            ..Catalog::default()
        };
        let options = RenderOptions {
            format: RenderFormat::ClaudeCode,
            ..RenderOptions::default()
        };
        let r = render(&c, &options).expect("renders");
        let line = r.text.lines().last().expect("an entry");
        assert_eq!(
            line.chars().count(),
            "- long: ".len() + claude_code::ENTRY_CAP
        );
        assert!(line.ends_with('…'));
        assert_eq!(
            r.report.truncated[0].chars_removed,
            2000 - claude_code::ENTRY_CAP
        );
    }
}
