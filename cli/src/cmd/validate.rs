//! `skilldeck validate PATH... [--strict] [--json]`
//!
//! Exit codes: 0 when every skill is valid, 1 when any is invalid (or a path cannot be read),
//! 2 on usage errors (handled by clap before this runs).

use std::io::Write;
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
    let mut stdout = std::io::stdout().lock();
    let text = if args.json {
        match serde_json::to_string_pretty(&reports) {
            Ok(json) => json + "\n",
            Err(err) => {
                eprintln!("skilldeck: cannot serialise the reports: {err}");
                return crate::EXIT_FAILURE;
            }
        }
    } else {
        let color = crate::style::stdout();
        crate::report::render(&reports, color)
    };
    // A closed pipe (`skilldeck validate . | head`) is not an error worth a panic.
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if reports.iter().all(|r| r.valid) {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}
