//! `search-bench --corpus DIR [--queries Q] [--items K] [--seed S]`: search in process.
//!
//! Measures, on a loaded deck: the first `search()` (which builds the index), the index
//! build after a reload that changed one skill, and the per-query time of Q queries on the
//! kept index (median and p95). Retrieval quality is a known-item test: for K skills drawn
//! at random, the query is three words of that skill's description (never its name), and
//! the test records where the skill ranks: recall@1/5/10 and the mean reciprocal rank.
//! Prints one JSON object.

use skilldeck::{Deck, SearchOptions};
use skilldeck_bench::layout::Layout;
use skilldeck_bench::rng::Rng;
use skilldeck_bench::stats::{median, time_ms, Args};

fn fail(stage: &str, err: &skilldeck::Error) -> ! {
    println!(
        "{}",
        serde_json::json!({"error": format!("{stage}: {err}"), "code": err.code()})
    );
    std::process::exit(3);
}

fn percentile(samples: &[f64], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut v = samples.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let at = ((v.len() - 1) as f64 * p).round() as usize;
    v[at.min(v.len() - 1)]
}

/// Three words of `text` that are not the skill's own name parts, picked at random.
fn query_words(rng: &mut Rng, text: &str, name: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 3 && !name.contains(&w.to_lowercase()))
        .collect();
    if words.len() < 3 {
        return None;
    }
    let mut picked = Vec::new();
    while picked.len() < 3 {
        let w = *rng.pick(&words);
        if !picked.contains(&w) || words.len() < 3 {
            picked.push(w);
        }
    }
    Some(picked.join(" "))
}

fn main() {
    let args = Args::from_env();
    let Some(corpus) = args.value("--corpus") else {
        eprintln!("usage: search-bench --corpus DIR [--queries Q] [--items K] [--seed S]");
        std::process::exit(2);
    };
    let queries: usize = args.parsed("--queries", 200);
    let items: usize = args.parsed("--items", 300);
    let seed: u64 = args.parsed("--seed", 7);
    let layout = Layout::new(corpus);
    let deck = Deck::new(layout.deck_options()).unwrap_or_else(|e| fail("new", &e));
    let catalog = deck.load().unwrap_or_else(|e| fail("load", &e));
    let visible: Vec<_> = catalog.model_visible().cloned().collect();
    let mut rng = Rng::new(seed);
    let probe = |q: &str, limit: usize| SearchOptions {
        query: q.to_string(),
        limit,
        ..SearchOptions::default()
    };

    // The first search builds the index; the second only ranks.
    let (_, build_ms) = time_ms(|| deck.search(&probe("data report", 10)));
    let (_, warm_ms) = time_ms(|| deck.search(&probe("data report", 10)));

    // Per-query times on the kept index.
    let mut times = Vec::with_capacity(queries);
    for _ in 0..queries {
        let skill = rng.pick(&visible);
        let q = query_words(&mut rng, skill.description(), &skill.name)
            .unwrap_or_else(|| skill.name.clone());
        let (result, ms) = time_ms(|| deck.search(&probe(&q, 10)));
        result.unwrap_or_else(|e| fail("search", &e));
        times.push(ms);
    }

    // Known-item retrieval quality.
    let (mut at1, mut at5, mut at10, mut rr, mut asked) = (0usize, 0usize, 0usize, 0.0f64, 0usize);
    for _ in 0..items {
        let skill = rng.pick(&visible);
        let Some(q) = query_words(&mut rng, skill.description(), &skill.name) else {
            continue;
        };
        asked += 1;
        let results = deck
            .search(&probe(&q, 100))
            .unwrap_or_else(|e| fail("search", &e));
        if let Some(rank) = results.hits.iter().position(|h| h.id == skill.id) {
            at1 += usize::from(rank < 1);
            at5 += usize::from(rank < 5);
            at10 += usize::from(rank < 10);
            rr += 1.0 / (rank as f64 + 1.0);
        }
    }
    let ratio = |k: usize| {
        if asked == 0 {
            0.0
        } else {
            k as f64 / asked as f64
        }
    };

    // Rebuild after a reload that changed one skill's file.
    let changed = visible.first().map(|s| s.location.clone());
    let mut rebuild_ms = None;
    if let Some(path) = changed {
        if let Ok(original) = std::fs::read(&path) {
            let mut edited = original.clone();
            edited.extend_from_slice(b"\nEdited for the search benchmark.\n");
            if std::fs::write(&path, &edited).is_ok() {
                let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
                if let Ok(f) = std::fs::File::options().write(true).open(&path) {
                    let _ = f.set_modified(later);
                }
                deck.reload().unwrap_or_else(|e| fail("reload", &e));
                let (_, ms) = time_ms(|| deck.search(&probe("data report", 10)));
                rebuild_ms = Some(ms);
                let _ = std::fs::write(&path, &original);
            }
        }
    }

    println!(
        "{}",
        serde_json::json!({
            "skills": catalog.skills.len(),
            "searched": visible.len(),
            "index_build_ms": build_ms,
            "index_rebuild_after_reload_ms": rebuild_ms,
            "warm_query_ms": warm_ms,
            "query_median_ms": median(&times),
            "query_p95_ms": percentile(&times, 0.95),
            "queries": queries,
            "known_items": asked,
            "recall_at_1": ratio(at1),
            "recall_at_5": ratio(at5),
            "recall_at_10": ratio(at10),
            "mrr": if asked == 0 { 0.0 } else { rr / asked as f64 },
        })
    );
}
