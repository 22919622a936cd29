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
mod codex;
mod kode;
mod markdown;
mod opencode;
mod skills_ref;
pub mod text;
mod xml;

use crate::catalog::{Catalog, Skill};
use crate::error::{Error, Result};
use budget::{Algorithm, Item, Shown};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
}

impl RenderFormat {
    pub const ALL: [RenderFormat; 8] = [
        RenderFormat::Xml,
        RenderFormat::SkillsRef,
        RenderFormat::Opencode,
        RenderFormat::OpencodeTool,
        RenderFormat::Codex,
        RenderFormat::ClaudeCode,
        RenderFormat::Kode,
        RenderFormat::Markdown,
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

/// [`render`] with a [`RenderContext`].
pub fn render_with(
    catalog: &Catalog,
    options: &RenderOptions,
    context: &RenderContext<'_>,
) -> Result<Rendered> {
    let counter = context.counter;
    if options.budget_chars.is_some() && options.budget_tokens.is_some() {
        return Err(Error::invalid_options(
            "give either a character budget or a token budget, not both",
        ));
    }
    let visible: Vec<&Skill> = catalog.model_visible().collect();
    let layout = layout(options.format, &visible, context.roots);
    let mut skills = visible;
    layout.order(&mut skills);

    let described: Vec<(String, usize)> = skills.iter().map(|s| layout.description(s)).collect();
    let items: Vec<Item> = skills
        .iter()
        .zip(&described)
        .map(|(s, (d, _))| Item {
            id: s.id.clone(),
            desc_len: text::chars(d),
            usage: options.usage.get(&s.id).copied().unwrap_or(0),
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
    let approx = |t: &str| text::chars(t).div_ceil(4);
    let (limit, measure): (Option<usize>, TokenCounter<'_>) =
        match (options.budget_chars, options.budget_tokens) {
            (Some(n), _) => (Some(n), &text::chars),
            (None, Some(n)) => (Some(n), counter.unwrap_or(&approx)),
            (None, None) => (None, &text::chars),
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
    Ok(Rendered { text, report })
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
        RenderFormat::Markdown => Box::new(markdown::Markdown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Scope;
    use std::path::PathBuf;

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            id: name.to_string(),
            name: name.to_string(),
            location: PathBuf::from(format!("/s/{name}/SKILL.md")),
            base_dir: PathBuf::from(format!("/s/{name}")),
            scope: Scope::User,
            source: PathBuf::from("/s"),
            plugin: None,
            kind: Default::default(),
            manifest: std::sync::Arc::new(crate::manifest::Manifest {
                description: Some(description.to_string()),
                ..Default::default()
            }),
            diagnostics: Vec::new(),
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
