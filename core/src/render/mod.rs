//! Rendering: pure functions from a filtered catalog to prompt text, with budgets.

use crate::catalog::Catalog;
use crate::error::{Error, Result};
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
#[serde(default)]
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
    let _ = (catalog, options);
    Err(Error::invalid_options("rendering is being built (issue 4)"))
}
