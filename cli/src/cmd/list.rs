//! `skilldeck list [--profile P] [--project DIR] [--home DIR] [--root DIR]... [--all] [--json]`

use super::deck_args::{display_path, report, DeckArgs};
use serde::Serialize;
use skilldeck::{Catalog, Deck, Diagnostic, Scope, Severity, Skill, SkillKind, Status};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Include disabled, denied and hidden skills, with the reason.
    #[arg(long)]
    pub all: bool,
    /// Print JSON: {"profile", "skills", "shadowed", "diagnostics"}; with --compare,
    /// {"project", "profiles", "rows": [{"id", "location", "cells": [{"profile", "ok", "id",
    /// "code", "message"}]}]}.
    #[arg(long)]
    pub json: bool,
    /// Which built-in profiles see which skills (skill × profile); also `--profile all`.
    #[arg(long)]
    pub compare: bool,
}

pub fn run(args: Args) -> i32 {
    if args.compare || (args.deck.profile == "all" && args.deck.profile_file.is_none()) {
        return compare(args);
    }
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    let catalog = match deck.load_once() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    if args.json {
        // Streamed straight from the catalog: building a `serde_json::Value` first doubled
        // the peak memory of a large listing (bench/PROFILE.md, cause 4).
        let stdout = std::io::stdout();
        // A large buffer: a 10k-skill listing is megabytes, written in few system calls.
        let mut out = std::io::BufWriter::with_capacity(256 << 10, stdout.lock());
        let written = serde_json::to_writer_pretty(&mut out, &to_json(&catalog, args.all))
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush());
        if let Err(err) = written {
            if err.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("skilldeck list: cannot write output: {err}");
                return crate::EXIT_FAILURE;
            }
        }
    } else {
        print_table(&deck, &catalog, args.all);
    }
    super::release((deck, catalog));
    crate::EXIT_OK
}

/// `list --compare`: one row per skill file, one column per built-in profile.
fn compare(args: Args) -> i32 {
    let mut deck_args = args.deck.clone();
    deck_args.profile = "all".to_string();
    deck_args.profile_file = None;
    let decks = match super::doctor::decks(&deck_args) {
        Ok(decks) => decks,
        Err(code) => return code,
    };
    let table = skilldeck::doctor::compare(&decks);
    let mut out = String::new();
    if args.json {
        match serde_json::to_string_pretty(&table) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(err) => {
                eprintln!("skilldeck list: {err}");
                return crate::EXIT_FAILURE;
            }
        }
        return if super::doctor::write_stdout(&out) {
            crate::EXIT_OK
        } else {
            crate::EXIT_FAILURE
        };
    }
    let Some(deck) = decks.first() else {
        return crate::EXIT_OK;
    };
    let _ = writeln!(
        out,
        "{} skill file(s) across {} profile(s)",
        table.rows.len(),
        table.profiles.len()
    );
    let id_w = table
        .rows
        .iter()
        .map(|r| r.id.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 40);
    let short = |c: &skilldeck::doctor::Cell| -> String {
        if c.ok {
            "✓".to_string()
        } else {
            c.code.clone()
        }
    };
    let widths: Vec<usize> = table
        .profiles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            table
                .rows
                .iter()
                .map(|r| short(&r.cells[i]).chars().count())
                .chain([p.chars().count()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let mut header = format!("{:id_w$}", "SKILL");
    for (p, w) in table.profiles.iter().zip(&widths) {
        header.push_str(&format!("  {p:w$}"));
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for row in &table.rows {
        let mut line = format!("{:id_w$}", row.id);
        for (c, w) in row.cells.iter().zip(&widths) {
            line.push_str(&format!("  {:w$}", short(c)));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let mut notes = Vec::new();
    for row in &table.rows {
        for c in row.cells.iter().filter(|c| !c.ok) {
            notes.push(format!(
                "  {} × {}: {} ({})",
                row.id,
                c.profile,
                c.message,
                display_path(&row.location, deck)
            ));
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "\nwhy not:");
        for n in notes {
            let _ = writeln!(out, "{n}");
        }
    }
    let written = super::doctor::write_stdout(&out);
    super::release(decks);
    if written {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}

/// One skill in the documented `list --json` shape (borrowed from the catalog).
#[derive(Serialize)]
pub struct ListedSkill<'a> {
    id: &'a str,
    name: &'a str,
    description: &'a str,
    #[serde(serialize_with = "skilldeck::serde_path::lossy")]
    location: &'a Path,
    #[serde(serialize_with = "skilldeck::serde_path::lossy")]
    base_dir: &'a Path,
    scope: Scope,
    #[serde(serialize_with = "skilldeck::serde_path::lossy")]
    source: &'a Path,
    plugin: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<SkillKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'a Status>,
}

#[derive(Serialize)]
pub struct ShadowedEntry<'a> {
    id: &'a str,
    #[serde(serialize_with = "skilldeck::serde_path::lossy")]
    location: &'a Path,
    #[serde(serialize_with = "skilldeck::serde_path::lossy")]
    winner: &'a Path,
    reason: &'a str,
}

/// The documented `list --json` shape: `{"profile", "skills", "shadowed", "diagnostics"}`;
/// with `all`, skills also carry `kind`, `listed` and `status`.
#[derive(Serialize)]
pub struct ListJson<'a> {
    profile: &'a str,
    skills: Vec<ListedSkill<'a>>,
    shadowed: Vec<ShadowedEntry<'a>>,
    diagnostics: &'a [Diagnostic],
}

pub fn to_json(catalog: &Catalog, all: bool) -> ListJson<'_> {
    let skills = catalog
        .skills
        .iter()
        .filter(|s| all || s.status.is_listed())
        .map(|s| ListedSkill {
            id: &s.id,
            name: &s.name,
            description: s.description(),
            location: &s.location,
            base_dir: &s.base_dir,
            scope: s.scope,
            source: &s.source,
            plugin: s.plugin.as_deref(),
            kind: all.then_some(s.kind),
            listed: all.then(|| s.status.is_listed()),
            status: all.then_some(&s.status),
        })
        .collect();
    let shadowed = catalog
        .shadowed
        .iter()
        .map(|s| ShadowedEntry {
            id: &s.id,
            location: &s.location,
            winner: &s.winner,
            reason: &s.reason,
        })
        .collect();
    ListJson {
        profile: &catalog.profile,
        skills,
        shadowed,
        diagnostics: &catalog.diagnostics,
    }
}

fn print_table(deck: &Deck, catalog: &Catalog, all: bool) {
    let rows: Vec<&Skill> = catalog
        .skills
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| all || s.status.is_listed())
        .collect();
    let hidden = catalog.skills.len() - catalog.listed().count();
    println!(
        "profile {}: {} skill(s){}",
        catalog.profile,
        rows.len(),
        if hidden > 0 && !all {
            format!(", {hidden} hidden (--all shows them)")
        } else {
            String::new()
        }
    );
    if !rows.is_empty() {
        let id_w = rows
            .iter()
            .map(|s| s.id.chars().count())
            .max()
            .unwrap_or(2)
            .clamp(2, 40);
        let scope_w = 7;
        println!(
            "{:id_w$}  {:scope_w$}  {:50}  LOCATION",
            "ID", "SCOPE", "DESCRIPTION"
        );
        for s in rows {
            let mut description = one_line(s.description(), 50);
            if all && !s.status.is_listed() {
                description = one_line(
                    &format!("[off: {}] {}", s.status.reasons.join("; "), s.description()),
                    50,
                );
            }
            println!(
                "{:id_w$}  {:scope_w$}  {:50}  {}",
                s.id,
                s.scope.as_str(),
                description,
                display_path(&s.location, deck)
            );
        }
    }
    if !catalog.shadowed.is_empty() {
        println!("\nshadowed:");
        for s in &catalog.shadowed {
            println!(
                "  {}  {}  (lost to {}: {})",
                s.id,
                display_path(&s.location, deck),
                display_path(&s.winner, deck),
                s.reason
            );
        }
    }
    if !catalog.diagnostics.is_empty() {
        println!("\ndiagnostics:");
        for d in &catalog.diagnostics {
            let at = match (&d.path, d.line) {
                (Some(p), Some(l)) => format!("{}:{l}", display_path(p, deck)),
                (Some(p), None) => display_path(p, deck),
                _ => String::new(),
            };
            let severity = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            println!("  {severity}[{}] {at}: {}", d.code, d.message);
        }
    }
}

/// First line of `text`, cut to `width` characters with an ellipsis.
fn one_line(text: &str, width: usize) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= width {
        return line;
    }
    let mut cut: String = line.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(id: &str, enabled: bool) -> Skill {
        Skill {
            id: id.into(),
            name: id.into(),
            location: format!("/p/{id}/SKILL.md").into(),
            base_dir: format!("/p/{id}").into(),
            scope: skilldeck::Scope::Project,
            source: "/p".into(),
            plugin: None,
            kind: skilldeck::SkillKind::Skill,
            manifest: std::sync::Arc::new(skilldeck::Manifest {
                description: Some("D.".into()),
                ..Default::default()
            }),
            diagnostics: vec![],
            status: skilldeck::Status {
                enabled,
                reasons: if enabled {
                    vec![]
                } else {
                    vec!["disabled by option".into()]
                },
                ..Default::default()
            },
        }
    }

    #[test]
    fn json_lists_the_documented_fields_and_all_adds_hidden_skills() {
        let catalog = Catalog {
            profile: "universal".into(),
            skills: vec![skill("on", true).into(), skill("off", false).into()],
            ..Default::default()
        };
        let v = serde_json::to_value(to_json(&catalog, false)).unwrap_or_default();
        assert_eq!(v["skills"].as_array().map(Vec::len), Some(1));
        let keys: Vec<&str> = v["skills"][0]
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "id",
                "name",
                "description",
                "location",
                "base_dir",
                "scope",
                "source",
                "plugin"
            ]
        );
        let all = serde_json::to_value(to_json(&catalog, true)).unwrap_or_default();
        assert_eq!(all["skills"][1]["listed"], false);
        assert_eq!(
            all["skills"][1]["status"]["reasons"][0],
            "disabled by option"
        );
    }

    #[test]
    fn one_line_collapses_and_cuts() {
        assert_eq!(one_line("a\n  b", 10), "a b");
        assert_eq!(one_line("abcdef", 4), "abc…");
    }
}
