//! `skilldeck list [--profile P] [--project DIR] [--home DIR] [--root DIR]... [--all] [--json]`

use super::deck_args::{display_path, report, DeckArgs};
use serde::Serialize;
use skilldeck::{Catalog, Deck, Diagnostic, Scope, Skill, SkillKind, Status};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

mod json;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    #[command(flatten)]
    pub remote: super::remote_args::RemoteArgs,
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
    if let Err(code) = args.remote.attach(&deck) {
        return code;
    }
    // Only what a listing prints is kept of each skill: about a third less peak memory on
    // a large tree (bench/PROFILE.md, "a summary load").
    let catalog = match deck.load_summary() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    if args.json {
        // Streamed straight from the catalog: building a `serde_json::Value` first doubled
        // the peak memory of a large listing (bench/PROFILE.md, cause 4).
        let stdout = std::io::stdout();
        // A large buffer: a 10k-skill listing is megabytes, written in few system calls.
        let mut out = std::io::BufWriter::with_capacity(256 << 10, stdout.lock());
        let written = json::write(&mut out, &to_json(&catalog, args.all))
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
    let table = skilldeck::compare_profiles(&decks);
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
    let short = |c: &skilldeck::ComparisonCell| -> String {
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
    #[serde(serialize_with = "skilldeck::serialize_path_lossy")]
    location: &'a Path,
    #[serde(serialize_with = "skilldeck::serialize_path_lossy")]
    base_dir: &'a Path,
    scope: Scope,
    #[serde(serialize_with = "skilldeck::serialize_path_lossy")]
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
    #[serde(serialize_with = "skilldeck::serialize_path_lossy")]
    location: &'a Path,
    #[serde(serialize_with = "skilldeck::serialize_path_lossy")]
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
    let color = crate::style::stdout();
    let mut out = String::new();
    let _ = writeln!(
        out,
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
        let cells: Vec<Row> = rows
            .iter()
            .map(|s| Row {
                id: s.id.to_string(),
                scope: s.scope.as_str().to_string(),
                description: if all && !s.status.is_listed() {
                    format!("[off: {}] {}", s.status.reasons.join("; "), s.description())
                } else {
                    s.description().to_string()
                },
                location: display_path(&s.location, deck),
            })
            .collect();
        out.push_str(&table(&cells, crate::style::stdout_width(), color));
    }
    if !catalog.shadowed.is_empty() {
        let _ = writeln!(out, "\nshadowed:");
        for s in &catalog.shadowed {
            let _ = writeln!(
                out,
                "  {}  {}  (lost to {}: {})",
                s.id,
                display_path(&s.location, deck),
                display_path(&s.winner, deck),
                s.reason
            );
        }
    }
    if !catalog.diagnostics.is_empty() {
        let _ = writeln!(out, "\ndiagnostics:");
        let text = crate::report::render_diagnostics(&catalog.diagnostics, color, &|p| {
            display_path(p, deck)
        });
        out.push_str(text.trim_end());
        out.push('\n');
    }
    let _ = super::doctor::write_stdout(&out);
}

/// One row of the `list` table.
struct Row {
    id: String,
    scope: String,
    description: String,
    location: String,
}

/// The display width of `text` in terminal columns.
fn width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` padded with spaces to `w` columns.
fn pad(text: &str, w: usize) -> String {
    format!("{text}{}", " ".repeat(w.saturating_sub(width(text))))
}

/// The table: on a terminal of `columns` columns, descriptions are cut with `…` so each line
/// fits; without a terminal (`None`: piped), descriptions are given in full.
fn table(rows: &[Row], columns: Option<usize>, color: bool) -> String {
    let id_w = rows.iter().map(|r| width(&r.id)).max().unwrap_or(2).max(2);
    let scope_w = rows
        .iter()
        .map(|r| width(&r.scope))
        .max()
        .unwrap_or(5)
        .max(5);
    let loc_w = rows.iter().map(|r| width(&r.location)).max().unwrap_or(8);
    let descriptions: Vec<String> = rows
        .iter()
        .map(|r| one_line(&r.description, None))
        .collect();
    let full_w = descriptions
        .iter()
        .map(|d| width(d))
        .max()
        .unwrap_or(0)
        .max(11);
    let desc_w = match columns {
        // Three gaps of two spaces between four columns; never squeeze below 12 columns.
        Some(columns) => columns
            .saturating_sub(id_w + scope_w + loc_w + 6)
            .clamp(12, full_w),
        None => full_w,
    };
    let mut out = String::new();
    let header = format!(
        "{}  {}  {}  LOCATION",
        pad("ID", id_w),
        pad("SCOPE", scope_w),
        pad("DESCRIPTION", desc_w)
    );
    let _ = writeln!(out, "{}", crate::style::paint(&header, "1", color));
    for (r, description) in rows.iter().zip(&descriptions) {
        let description = cut(description, desc_w);
        let _ = writeln!(
            out,
            "{}  {}  {}  {}",
            pad(&r.id, id_w),
            pad(&r.scope, scope_w),
            pad(&description, desc_w),
            r.location
        );
    }
    out
}

/// `text` on one line (whitespace collapsed), cut to `columns` with an ellipsis when given.
fn one_line(text: &str, columns: Option<usize>) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match columns {
        Some(columns) => cut(&line, columns),
        None => line,
    }
}

/// `line` cut to `columns` terminal columns, the last one an ellipsis when anything is cut.
pub fn cut(line: &str, columns: usize) -> String {
    if width(line) <= columns {
        return line.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in line.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > columns {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
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
            diagnostics: Vec::new().into(),
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
        assert_eq!(one_line("a\n  b", Some(10)), "a b");
        assert_eq!(one_line("abcdef", Some(4)), "abc…");
        assert_eq!(one_line("abcdef", None), "abcdef");
        assert_eq!(cut("日本語です", 5), "日本…");
    }

    fn rows() -> Vec<Row> {
        vec![Row {
            id: "pdf".into(),
            scope: "project".into(),
            description: "Extract text and tables from PDF files, fill forms, merge documents."
                .into(),
            location: ".agents/skills/pdf/SKILL.md".into(),
        }]
    }

    #[test]
    fn table_fits_the_terminal_and_is_full_when_piped() {
        let narrow = table(&rows(), Some(80), false);
        for line in narrow.lines() {
            assert!(width(line) <= 80, "{line:?} is wider than 80");
        }
        assert!(narrow.contains('…'), "{narrow}");
        let piped = table(&rows(), None, false);
        assert!(piped.contains("merge documents."), "{piped}");
        assert!(!piped.contains('…'), "{piped}");
        assert!(!piped.contains('\x1b'));
        assert!(table(&rows(), None, true).contains("\x1b[1m"));
    }
}
