//! `skilldeck audit [PATH|NAME]... [--max-severity LEVEL] [--json]`: the offline security
//! report of `skilldeck::audit` over skills, plugins or directories of skills.
//!
//! Exit codes: 0 when no finding is above `--max-severity` (default `medium`), 1 when one
//! is or a target cannot be audited, 2 on usage errors.

use super::deck_args::DeckArgs;
use super::doctor::write_stdout;
use crate::style::paint;
use skilldeck::{AuditOptions, AuditReport, AuditSeverity};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A skill directory, its SKILL.md, a plugin, a directory of skills, or the name of a
    /// skill the profile discovers. Without one: every skill the profile discovers.
    #[arg(value_name = "PATH|NAME")]
    pub targets: Vec<String>,
    /// Exit 1 when a finding is more severe than this: info, low, medium, high or critical
    /// (`critical` never fails).
    #[arg(long, value_name = "LEVEL", default_value = "medium", value_parser = severity)]
    pub max_severity: AuditSeverity,
    /// Print a JSON array of reports.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub deck: DeckArgs,
}

fn severity(text: &str) -> Result<AuditSeverity, String> {
    text.parse().map_err(|e: skilldeck::Error| e.to_string())
}

pub fn run(args: Args) -> i32 {
    let targets = match targets(&args) {
        Ok(targets) => targets,
        Err(code) => return code,
    };
    let options = AuditOptions::default();
    let mut reports = Vec::new();
    let mut failed = false;
    for path in targets {
        match skilldeck::audit(&path, &options) {
            Ok(report) => reports.push(report),
            Err(err) => {
                crate::style::eprint_error(None, &format!("audit: {err}"));
                failed = true;
            }
        }
    }
    let text = if args.json {
        match serde_json::to_string_pretty(&reports) {
            Ok(json) => json + "\n",
            Err(err) => {
                crate::style::eprint_error(None, &format!("audit: {err}"));
                return crate::EXIT_FAILURE;
            }
        }
    } else {
        human(&reports, args.max_severity, crate::style::stdout())
    };
    if !write_stdout(&text) {
        return crate::EXIT_FAILURE;
    }
    let over = reports
        .iter()
        .any(|r| !r.above(args.max_severity).is_empty());
    if failed || over {
        crate::EXIT_FAILURE
    } else {
        crate::EXIT_OK
    }
}

/// Paths as given; anything that is not a path is a skill name the deck resolves.
fn targets(args: &Args) -> Result<Vec<PathBuf>, i32> {
    let named: Vec<&String> = args
        .targets
        .iter()
        .filter(|t| !std::path::Path::new(t).exists())
        .collect();
    if !args.targets.is_empty() && named.is_empty() {
        return Ok(args.targets.iter().map(PathBuf::from).collect());
    }
    let deck = args.deck.deck()?;
    if args.targets.is_empty() {
        let catalog = deck.catalog().map_err(|e| super::deck_args::report(&e))?;
        return Ok(catalog
            .skills
            .iter()
            .map(|s| s.base_dir.to_path_buf())
            .collect());
    }
    let mut out = Vec::new();
    for target in &args.targets {
        let path = PathBuf::from(target);
        if path.exists() {
            out.push(path);
            continue;
        }
        match deck.get(target) {
            Ok(skill) => out.push(skill.base_dir.to_path_buf()),
            Err(err) => {
                crate::style::eprint_error(
                    Some("NOT_FOUND"),
                    &format!(
                        "`{target}` is neither a path nor a skill the `{}` profile discovers ({err}); give a directory or run `skilldeck list`",
                        args.deck.profile
                    ),
                );
                return Err(crate::EXIT_FAILURE);
            }
        }
    }
    Ok(out)
}

fn style(level: AuditSeverity) -> &'static str {
    match level {
        AuditSeverity::Critical => "1;31",
        AuditSeverity::High => "31",
        AuditSeverity::Medium => "33",
        AuditSeverity::Low => "36",
        AuditSeverity::Info => "2",
    }
}

fn human(reports: &[AuditReport], threshold: AuditSeverity, color: bool) -> String {
    let mut out = String::new();
    for report in reports {
        let counts: Vec<String> = report
            .counts()
            .iter()
            .rev()
            .filter(|(_, n)| *n > 0)
            .map(|(level, n)| format!("{n} {level}"))
            .collect();
        let summary = if counts.is_empty() {
            "no findings".to_string()
        } else {
            counts.join(", ")
        };
        let kind = serde_json::to_value(report.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{} ({kind}, {} files): {summary}",
            paint(&report.root.display().to_string(), "1", color),
            report.files
        );
        for f in &report.findings {
            let at = match (f.line, f.column) {
                (Some(l), Some(c)) => format!("{}:{l}:{c}", f.path),
                (Some(l), None) => format!("{}:{l}", f.path),
                _ if f.path.is_empty() => ".".to_string(),
                _ => f.path.clone(),
            };
            let level = format!("{:<8}", f.severity.as_str());
            let _ = writeln!(
                out,
                "  {} {} {at}: {}",
                paint(&level, style(f.severity), color),
                f.code,
                f.message
            );
            if f.severity > AuditSeverity::Info {
                let _ = writeln!(
                    out,
                    "           {}",
                    paint(&format!("hint: {}", f.hint), "2", color)
                );
            }
        }
        let over = report.above(threshold).len();
        if over > 0 {
            let _ = writeln!(
                out,
                "  {}",
                paint(
                    &format!("{over} finding(s) above {threshold} (--max-severity)"),
                    "1;31",
                    color
                )
            );
        }
    }
    out
}
