//! `skilldeck render [discovery flags] [--format F] [--budget-chars N | --budget-tokens N]
//! [--usage FILE] [--query TEXT [--pin ID]...] [--report] [--json]`: print the model-visible skills as system-prompt text.

use super::deck_args::{report, DeckArgs};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    #[command(flatten)]
    pub remote: super::remote_args::RemoteArgs,
    /// xml, skills-ref, opencode, opencode-tool, codex, claude-code, kode, markdown, cline,
    /// openhands.
    #[arg(long, default_value = "xml")]
    pub format: String,
    /// Character budget for the skill entries.
    #[arg(long, value_name = "N", conflicts_with = "budget_tokens",
          allow_negative_numbers = true, value_parser = super::count_parser("characters"))]
    pub budget_chars: Option<usize>,
    /// Token budget for the skill entries (about 4 characters per token).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = super::count_parser("tokens"))]
    pub budget_tokens: Option<usize>,
    /// Usage counts by skill id (JSON object), for the claude-code budget algorithm.
    #[arg(long, value_name = "FILE")]
    pub usage: Option<PathBuf>,
    /// Keep only the skills relevant to this task, the most relevant first while they fit
    /// the budget.
    #[arg(long, value_name = "TEXT")]
    pub query: Option<String>,
    /// With --query: always keep this skill (repeatable).
    #[arg(long = "pin", value_name = "ID", requires = "query")]
    pub pinned: Vec<String>,
    /// Print what the budget kept, shortened and dropped to stderr.
    #[arg(long)]
    pub report: bool,
    /// Print `{"text", "report"}` as JSON instead of the text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    let format = match args.format.parse::<skilldeck::RenderFormat>() {
        Ok(f) => f,
        Err(err) => return report(&err),
    };
    let usage = match &args.usage {
        Some(path) => match read_usage(path) {
            Ok(u) => u,
            Err(message) => {
                crate::style::eprint_error(None, &message);
                return crate::EXIT_USAGE;
            }
        },
        None => BTreeMap::new(),
    };
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    if let Err(code) = args.remote.attach(&deck) {
        return code;
    }
    let options = skilldeck::RenderOptions {
        format,
        budget_chars: args.budget_chars,
        budget_tokens: args.budget_tokens,
        agent: None,
        usage,
        query: args.query,
        pinned: args.pinned,
    };
    // One load that keeps nothing for a later one: this process exits after rendering.
    if let Err(err) = deck.load_once() {
        return report(&err);
    }
    let rendered = match deck.render(&options) {
        Ok(r) => r,
        Err(err) => return report(&err),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rendered).unwrap_or_default()
        );
    } else if !rendered.text.is_empty() {
        println!("{}", rendered.text);
    }
    if args.report {
        eprint!("{}", describe(&rendered.report));
    }
    super::release((deck, rendered));
    crate::EXIT_OK
}

fn read_usage(path: &std::path::Path) -> Result<BTreeMap<String, u64>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}: invalid usage file: {e}; expected {{\"skill-id\": 12, ...}}",
            path.display(),
            e.line()
        )
    })
}

/// The budget report for humans.
pub fn describe(report: &skilldeck::RenderReport) -> String {
    let mut out = format!(
        "render: {} included, {} truncated, {} omitted, {} chars\n",
        report.included.len(),
        report.truncated.len(),
        report.omitted.len(),
        report.chars
    );
    for t in &report.truncated {
        out.push_str(&format!(
            "  truncated {} (-{} chars)\n",
            t.id, t.chars_removed
        ));
    }
    for id in &report.omitted {
        match report.reasons.get(id) {
            Some(reason) => out.push_str(&format!("  omitted {id}: {reason}\n")),
            None => out.push_str(&format!("  omitted {id}\n")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_text() {
        let r = skilldeck::RenderReport {
            included: vec!["a".into()],
            truncated: vec![skilldeck::Truncation {
                id: "a".into(),
                chars_removed: 3,
            }],
            omitted: vec!["b".into()],
            chars: 10,
            ..Default::default()
        };
        assert_eq!(
            describe(&r),
            "render: 1 included, 1 truncated, 1 omitted, 10 chars\n  truncated a (-3 chars)\n  omitted b\n"
        );
    }
}
