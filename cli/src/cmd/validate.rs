//! `skilldeck validate PATH... [--strict] [--json]`

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Skill directories, SKILL.md files, or directories to search for skills.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Enforce the Agent Skills specification (as skills-ref 0.1.1 does).
    #[arg(long)]
    pub strict: bool,
    /// Print a JSON array instead of human output.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    let options = skilldeck::ValidateOptions {
        strict: args.strict,
    };
    let reports: Vec<_> = args
        .paths
        .iter()
        .flat_map(|p| skilldeck::validate(p, &options))
        .collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&reports).unwrap_or_default()
        );
    }
    if reports.iter().all(|r| r.valid) {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}
