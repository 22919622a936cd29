//! `skilldeck search QUERY [discovery flags] [--limit N] [--all] [--body] [--embeddings FILE]
//! [--json]`: the skills most relevant to a task, ranked (BM25F; hybrid with embeddings).

use super::deck_args::{display_path, report, DeckArgs};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What the task is about.
    #[arg(required_unless_present = "tool_definition")]
    pub query: Option<String>,
    #[command(flatten)]
    pub deck: DeckArgs,
    /// How many results to show.
    #[arg(long, default_value_t = 10, value_name = "N", allow_negative_numbers = true,
          value_parser = super::count_parser("results"))]
    pub limit: usize,
    /// Search every listed skill, not only those the model may see.
    #[arg(long)]
    pub all: bool,
    /// Also search the skills' Markdown bodies.
    #[arg(long)]
    pub body: bool,
    /// Hybrid search: a JSON file {"query": [floats], "skills": {"id": [floats], ...}} from
    /// your own embedding model.
    #[arg(long, value_name = "FILE")]
    pub embeddings: Option<PathBuf>,
    /// Print JSON: {"query", "hits": [{"id", "score", "matched", ...}], "matched", "searched"}.
    #[arg(long)]
    pub json: bool,
    /// Print the `search_skills` tool definition (JSON Schema) for a model, and exit.
    #[arg(long, exclusive = true)]
    pub tool_definition: bool,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Embeddings {
    query: Vec<f32>,
    skills: BTreeMap<String, Vec<f32>>,
}

pub fn run(args: Args) -> i32 {
    if args.tool_definition {
        println!(
            "{}",
            serde_json::to_string_pretty(&skilldeck::search_tool_definition()).unwrap_or_default()
        );
        return crate::EXIT_OK;
    }
    let mut options = skilldeck::SearchOptions {
        query: args.query.clone().unwrap_or_default(),
        limit: args.limit,
        all: args.all,
        body: args.body,
        ..Default::default()
    };
    if let Some(path) = &args.embeddings {
        let read = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                serde_json::from_str::<Embeddings>(&text).map_err(|e| {
                    format!(
                        "{}:{}: invalid embeddings file: {e}; expected {{\"query\": [0.1, ...], \"skills\": {{\"id\": [0.1, ...]}}}}",
                        path.display(),
                        e.line()
                    )
                })
            });
        match read {
            Ok(e) => {
                options.query_embedding = Some(e.query);
                options.embeddings = e.skills;
            }
            Err(message) => {
                crate::style::eprint_error(None, &message);
                return crate::EXIT_USAGE;
            }
        }
    }
    if let Err(err) = options.check() {
        return report(&err);
    }
    let deck = match args.deck.deck() {
        Ok(deck) => deck,
        Err(code) => return code,
    };
    // One load and one query that keep nothing for a later one: this process exits after
    // searching, so the skills are scored in one pass rather than indexed.
    let catalog = match deck.load_once() {
        Ok(catalog) => catalog,
        Err(err) => return report(&err),
    };
    let results = match skilldeck::search(&catalog, &options) {
        Ok(r) => r,
        Err(err) => return report(&err),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&results).unwrap_or_default()
        );
    } else if results.hits.is_empty() {
        eprintln!(
            "no skill matches `{}` ({} searched)",
            results.query, results.searched
        );
    } else {
        for (rank, hit) in results.hits.iter().enumerate() {
            println!(
                "{:>2}. {}  ({:.2}; {})",
                rank + 1,
                hit.id,
                hit.score,
                hit.matched.join(", ")
            );
            if !hit.description.is_empty() {
                // On a terminal the description fits its line; piped, it is given in full.
                let description = match crate::style::stdout_width() {
                    Some(columns) => super::list::cut(
                        &hit.description
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" "),
                        columns.saturating_sub(4).max(12),
                    ),
                    None => hit.description.clone(),
                };
                println!("    {description}");
            }
            println!("    {}", display_path(&hit.location, &deck));
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        eprintln!(
            "{} of {} matching skills shown ({} searched)",
            results.hits.len(),
            results.matched,
            results.searched
        );
    }
    super::release((deck, catalog, results));
    crate::EXIT_OK
}
