//! `skilldeck show NAME [discovery flags] [--json]`: one skill's manifest, where it came
//! from, what it shadows, its diagnostics and its resource files.

use super::deck_args::{display_path, report, DeckArgs};
use serde_json::json;
use skilldeck::{Catalog, Shadowed, Skill, SkillKind};
use std::path::Path;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Skill id or name.
    pub name: String,
    #[command(flatten)]
    pub deck: DeckArgs,
    #[command(flatten)]
    pub remote: super::remote_args::RemoteArgs,
    /// Print JSON: {"skill", "shadows", "resources"}.
    #[arg(long)]
    pub json: bool,
}

/// Resource listings stop here: a skill directory holding a whole project is not listed in full.
const MAX_RESOURCES: usize = 200;

pub fn run(args: Args) -> i32 {
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    if let Err(code) = args.remote.attach(&deck) {
        return code;
    }
    let catalog = match deck.load_once() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    let Some(skill) = catalog.get(&args.name) else {
        return report(&skilldeck::Error::NotFound { id: args.name });
    };
    let shadows = shadows(&catalog, skill);
    let resources = if skill.kind == SkillKind::Skill {
        resources(&skill.base_dir, &skill.location)
    } else {
        Vec::new()
    };
    if args.json {
        let value = json!({"skill": skill, "shadows": shadows, "resources": resources});
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
        return crate::EXIT_OK;
    }
    println!("{}  ({} {})", skill.id, skill.scope.as_str(), kind(skill));
    println!("  name:        {}", skill.name);
    println!("  description: {}", skill.description());
    println!("  location:    {}", skill.location.display());
    println!("  base dir:    {}", skill.base_dir.display());
    println!("  found under: {}", display_path(&skill.source, &deck));
    if let Some(plugin) = &skill.plugin {
        println!("  plugin:      {plugin}");
    }
    let status = &skill.status;
    println!(
        "  status:      {}{}",
        if status.is_listed() {
            "listed"
        } else {
            "not listed"
        },
        if status.reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", status.reasons.join("; "))
        }
    );
    if !shadows.is_empty() {
        println!("shadows:");
        for s in &shadows {
            println!("  {}  ({})", display_path(&s.location, &deck), s.reason);
        }
    }
    if !skill.diagnostics.is_empty() {
        println!("diagnostics:");
        for d in skill.diagnostics.iter() {
            let line = d.line.map(|l| format!(":{l}")).unwrap_or_default();
            println!("  {}[{}]{line} {}", d.severity.as_str(), d.code, d.message);
        }
    }
    if !resources.is_empty() {
        println!("resources:");
        for r in &resources {
            println!("  {r}");
        }
    }
    println!("manifest:");
    let manifest = serde_json::to_string_pretty(&skill.manifest).unwrap_or_default();
    for line in manifest.lines() {
        println!("  {line}");
    }
    crate::EXIT_OK
}

fn kind(skill: &Skill) -> &'static str {
    match skill.kind {
        SkillKind::Skill => "skill",
        SkillKind::Command => "command",
    }
}

fn shadows<'a>(catalog: &'a Catalog, skill: &Skill) -> Vec<&'a Shadowed> {
    catalog
        .shadowed
        .iter()
        .filter(|s| s.winner == skill.location)
        .collect()
}

/// Files below `base` (relative, sorted), without the skill file itself; bounded.
fn resources(base: &Path, skill_file: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![base.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                let name = entry.file_name();
                if name != ".git"
                    && name != "node_modules"
                    && path
                        .strip_prefix(base)
                        .map_or(0, |r| r.components().count())
                        < 4
                {
                    stack.push(path);
                }
            } else if path != skill_file {
                if let Ok(rel) = path.strip_prefix(base) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
            if out.len() >= MAX_RESOURCES {
                out.sort();
                return out;
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_relative_sorted_and_exclude_the_skill_file() {
        let dir = std::env::temp_dir().join(format!("skilldeck-show-{}", std::process::id()));
        let base = dir.as_path();
        std::fs::create_dir_all(base.join("scripts")).unwrap();
        std::fs::write(base.join("SKILL.md"), "x").unwrap();
        std::fs::write(base.join("scripts/run.sh"), "x").unwrap();
        std::fs::write(base.join("REFERENCE.md"), "x").unwrap();
        let found = resources(base, &base.join("SKILL.md"));
        let _ = std::fs::remove_dir_all(base);
        assert_eq!(found, ["REFERENCE.md", "scripts/run.sh"]);
    }
}
