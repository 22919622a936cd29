//! `skilldeck doctor [discovery flags] [--profile P|all] [PATH|NAME] [--json]`: why a skill
//! is found or not (the explanation is built by `skilldeck::diagnose`; this renders it).

use super::deck_args::{display_path, DeckArgs};
use skilldeck::Deck;
use skilldeck::{DoctorReport as Report, DoctorTarget as Target, FileReport};
use std::fmt::Write as _;
use std::io::Write as _;

/// Write `text` to stdout; a closed pipe (`| head`) is not an error.
pub fn write_stdout(text: &str) -> bool {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => true,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => true,
        Err(err) => {
            eprintln!("skilldeck: cannot write output: {err}");
            false
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: DeckArgs,
    /// A skill directory, its SKILL.md, or a skill name. Without it: every root the profile
    /// searches, with what each gave.
    #[arg(value_name = "PATH|NAME")]
    pub target: Option<String>,
    /// Print JSON (one report; an array of reports with `--profile all`).
    #[arg(long)]
    pub json: bool,
}

/// One deck per profile: the one asked for, or every built-in with `--profile all`.
pub fn decks(args: &DeckArgs) -> Result<Vec<Deck>, i32> {
    if args.profile != "all" || args.profile_file.is_some() {
        return args.deck().map(|d| vec![d]);
    }
    skilldeck::Profile::builtin_names()
        .map(|name| {
            let mut one = args.clone();
            one.profile = name.to_string();
            one.deck()
        })
        .collect()
}

fn target(text: &str) -> Target {
    let cwd = std::env::current_dir().unwrap_or_default();
    Target::parse(text, &cwd)
}

pub fn run(args: Args) -> i32 {
    let decks = match decks(&args.deck) {
        Ok(decks) => decks,
        Err(code) => return code,
    };
    let target = args.target.as_deref().map(target);
    let reports: Vec<Report> = decks
        .iter()
        .map(|deck| skilldeck::diagnose(deck, target.as_ref()))
        .collect();
    let mut out = String::new();
    if args.json {
        let text = if reports.len() == 1 {
            serde_json::to_string_pretty(&reports[0])
        } else {
            serde_json::to_string_pretty(&reports)
        };
        match text {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(err) => {
                eprintln!("skilldeck doctor: {err}");
                return crate::EXIT_FAILURE;
            }
        }
    } else {
        for (i, (deck, r)) in decks.iter().zip(&reports).enumerate() {
            if i > 0 {
                let _ = writeln!(out);
            }
            print_report(&mut out, deck, r);
        }
    }
    if !write_stdout(&out) {
        return crate::EXIT_FAILURE;
    }
    // With a target: found by at least one profile.
    let missing = reports
        .iter()
        .all(|r| r.target.as_ref().is_some_and(|t| !t.found));
    if missing && target.is_some() {
        crate::EXIT_FAILURE
    } else {
        crate::EXIT_OK
    }
}

fn print_report(out: &mut String, deck: &Deck, r: &Report) {
    let Some(target) = &r.target else {
        print_roots(out, deck, r);
        return;
    };
    let _ = writeln!(out, "profile {}: {}", r.profile, target.query);
    if target.files.is_empty() {
        let _ = writeln!(out, "  not found: no skill, shadowed skill, refused file or directory of that name under any root or in the project");
        let _ = writeln!(out, "  roots searched:");
        for root in &r.roots {
            let _ = writeln!(
                out,
                "    {} ({}, {})",
                display_path(&root.path, deck),
                root.scope.as_str(),
                if root.exists { "exists" } else { "absent" }
            );
        }
        return;
    }
    for file in &target.files {
        print_file(out, deck, file);
    }
}

fn print_file(out: &mut String, deck: &Deck, file: &FileReport) {
    match &file.found {
        Some(f) => {
            let _ = writeln!(
                out,
                "  {}: found as `{}` ({}, root {}){}",
                display_path(&file.path, deck),
                f.id,
                f.scope.as_str(),
                display_path(&f.root, deck),
                if f.listed { "" } else { " but not listed" }
            );
            for missing in &f.missing {
                let _ = writeln!(out, "    missing: {}", missing.message);
                for hint in &missing.hints {
                    let _ = writeln!(out, "      install: {hint}");
                }
            }
        }
        None => {
            let code = skilldeck::deciding(file).map_or("not-found", |f| f.code.as_str());
            let _ = writeln!(
                out,
                "  {}: not found ({code})",
                display_path(&file.path, deck)
            );
        }
    }
    for f in &file.findings {
        let root = match (&f.root, f.scope) {
            (Some(root), Some(scope)) => {
                format!(" [{} {}]", scope.as_str(), display_path(root, deck))
            }
            _ => String::new(),
        };
        let _ = writeln!(out, "    {}{root}: {}", f.code, f.message);
        for d in &f.diagnostics {
            let at = match d.line {
                Some(line) => format!(" line {line}"),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "      {}[{}]{at}: {}",
                d.severity.as_str(),
                d.code,
                d.message
            );
        }
        if let Some(fix) = &f.fix {
            let _ = writeln!(out, "      fix: {fix}");
        }
    }
}

fn print_roots(out: &mut String, deck: &Deck, r: &Report) {
    let _ = writeln!(
        out,
        "profile {}: {} skill(s) from {} root(s), project {}",
        r.profile,
        r.skills,
        r.roots.len(),
        r.project.display()
    );
    for (i, root) in r.roots.iter().enumerate() {
        let depth = root
            .walk
            .max_depth
            .map_or("unbounded".to_string(), |d| d.to_string());
        let _ = writeln!(
            out,
            "  {:>2}. {} ({}{}) {}: {}",
            i + 1,
            display_path(&root.path, deck),
            root.scope.as_str(),
            if root.kind == skilldeck::SkillKind::Command {
                ", commands"
            } else {
                ""
            },
            if root.exists { "exists" } else { "absent" },
            if root.exists {
                format!("{} skill(s), {} file(s) matched", root.skills, root.files)
            } else {
                "-".to_string()
            }
        );
        let _ = writeln!(out,
            "      pattern {}, depth {depth}, hidden dirs {}, symlinked dirs {}, symlinked files {}{}",
            root.pattern,
            if root.walk.hidden { "entered" } else { "skipped" },
            if root.walk.follow_links {
                "followed"
            } else {
                "not followed"
            },
            if root.walk.skip_symlinked_files {
                "ignored"
            } else {
                "read"
            },
            if root.walk.skip.is_empty() {
                String::new()
            } else {
                format!(", never enters {}", root.walk.skip.join(", "))
            }
        );
    }
    for s in &r.skipped {
        let _ = writeln!(
            out,
            "  skipped: `{}` ({}): {}",
            s.template,
            s.scope.as_str(),
            s.reason
        );
        if let Some(fix) = &s.fix {
            let _ = writeln!(out, "    fix: {fix}");
        }
    }
}
