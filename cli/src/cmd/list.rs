//! `skilldeck list [--profile P] [--project DIR] [--home DIR] [--root DIR]... [--all] [--json]`

use super::deck_args::{display_path, report, DeckArgs};
use serde_json::{json, Value};
use skilldeck::{Catalog, Deck, Severity, Skill};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// Include disabled, denied and hidden skills, with the reason.
    #[arg(long)]
    pub all: bool,
    /// Print JSON: {"profile", "skills", "shadowed", "diagnostics"}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    let catalog = match deck.load() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(&catalog, args.all)).unwrap_or_default()
        );
    } else {
        print_table(&deck, &catalog, args.all);
    }
    crate::EXIT_OK
}

/// The documented `list --json` shape.
pub fn to_json(catalog: &Catalog, all: bool) -> Value {
    let skills: Vec<Value> = catalog
        .skills
        .iter()
        .filter(|s| all || s.status.is_listed())
        .map(|s| {
            let mut v = json!({
                "id": s.id,
                "name": s.name,
                "description": s.description,
                "location": s.location,
                "base_dir": s.base_dir,
                "scope": s.scope,
                "source": s.source,
                "plugin": s.plugin,
            });
            if all {
                v["kind"] = json!(s.kind);
                v["listed"] = json!(s.status.is_listed());
                v["status"] = json!(s.status);
            }
            v
        })
        .collect();
    let shadowed: Vec<Value> = catalog
        .shadowed
        .iter()
        .map(
            |s| json!({"id": s.id, "location": s.location, "winner": s.winner, "reason": s.reason}),
        )
        .collect();
    json!({
        "profile": catalog.profile,
        "skills": skills,
        "shadowed": shadowed,
        "diagnostics": catalog.diagnostics,
    })
}

fn print_table(deck: &Deck, catalog: &Catalog, all: bool) {
    let rows: Vec<&Skill> = catalog
        .skills
        .iter()
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
            let mut description = one_line(&s.description, 50);
            if all && !s.status.is_listed() {
                description = one_line(
                    &format!("[off: {}] {}", s.status.reasons.join("; "), s.description),
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
            description: "D.".into(),
            location: format!("/p/{id}/SKILL.md").into(),
            base_dir: format!("/p/{id}").into(),
            scope: skilldeck::Scope::Project,
            source: "/p".into(),
            plugin: None,
            kind: skilldeck::SkillKind::Skill,
            manifest: Default::default(),
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
            skills: vec![skill("on", true), skill("off", false)],
            ..Default::default()
        };
        let v = to_json(&catalog, false);
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
        let all = to_json(&catalog, true);
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
