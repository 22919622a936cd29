//! `search-bench --corpus DIR [--queries Q] [--items K] [--seed S]`: search in process.
//!
//! Measures, on a loaded deck: the first `search()` (which builds the index), the index
//! build after a reload that changed one skill, and the per-query time of Q queries on the
//! kept index (median and p95). Retrieval quality is a known-item test: for K skills drawn
//! at random, the query is three words of that skill's description (never its name), and
//! the test records where the skill ranks: recall@1/5/10 and the mean reciprocal rank.
//! Prints one JSON object.
//!
//! `search-bench --labelled FILE`: retrieval quality on a hand-labelled set instead
//! (`bench/search/labelled.json`: skills described as published ones are, and task queries
//! with the skills that answer them): recall@1/3/5 (a query counts when any relevant skill
//! is in the top k) and the mean reciprocal rank of the first relevant skill.

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

/// The labelled set: skills to write as a tree, queries with their relevant skill names.
fn labelled(file: &str) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let set: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let dir = std::env::temp_dir().join(format!("skilldeck-labelled-{}", std::process::id()));
    let skills_dir = dir.join("project/.agents/skills");
    let empty = Vec::new();
    for skill in set["skills"].as_array().unwrap_or(&empty) {
        let name = skill["name"].as_str().unwrap_or_default();
        let tags: Vec<String> = skill["tags"]
            .as_array()
            .unwrap_or(&empty)
            .iter()
            .filter_map(|t| t.as_str().map(|t| format!("\"{t}\"")))
            .collect();
        let text = format!(
            "---\nname: {name}\ndescription: {}\ntags: [{}]\n---\nInstructions.\n",
            serde_json::Value::from(skill["description"].as_str().unwrap_or_default()),
            tags.join(", ")
        );
        let path = skills_dir.join(name).join("SKILL.md");
        let written = std::fs::create_dir_all(skills_dir.join(name))
            .and_then(|()| std::fs::write(&path, text));
        if let Err(e) = written {
            eprintln!("{}: {e}", path.display());
            std::process::exit(2);
        }
    }
    let _ = std::fs::create_dir_all(dir.join("home"));
    let options = skilldeck::DeckOptions {
        project_dir: dir.join("project"),
        home_dir: Some(dir.join("home")),
        env: Some(Default::default()),
        system_root: Some(dir.clone()),
        ..Default::default()
    };
    let deck = Deck::new(options).unwrap_or_else(|e| fail("new", &e));
    let (mut at1, mut at3, mut at5, mut rr, mut n) = (0usize, 0usize, 0usize, 0.0f64, 0usize);
    let mut misses = Vec::new();
    for query in set["queries"].as_array().unwrap_or(&empty) {
        let q = query["q"].as_str().unwrap_or_default();
        let relevant: Vec<&str> = query["relevant"]
            .as_array()
            .unwrap_or(&empty)
            .iter()
            .filter_map(|r| r.as_str())
            .collect();
        let hits = deck
            .search(&SearchOptions {
                query: q.to_string(),
                limit: 50,
                ..SearchOptions::default()
            })
            .unwrap_or_else(|e| fail("search", &e))
            .hits;
        n += 1;
        match hits.iter().position(|h| relevant.contains(&h.id.as_str())) {
            Some(rank) => {
                at1 += usize::from(rank < 1);
                at3 += usize::from(rank < 3);
                at5 += usize::from(rank < 5);
                rr += 1.0 / (rank as f64 + 1.0);
                if rank > 0 {
                    misses.push(
                        serde_json::json!({"query": q, "rank": rank + 1, "first": hits[0].id}),
                    );
                }
            }
            None => misses.push(serde_json::json!({"query": q, "rank": null})),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let ratio = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    println!(
        "{}",
        serde_json::json!({
            "labelled": file,
            "skills": set["skills"].as_array().map_or(0, Vec::len),
            "queries": n,
            "recall_at_1": ratio(at1),
            "recall_at_3": ratio(at3),
            "recall_at_5": ratio(at5),
            "mrr": if n == 0 { 0.0 } else { rr / n as f64 },
            "not_first": misses,
        })
    );
}

fn main() {
    let args = Args::from_env();
    if let Some(file) = args.value("--labelled") {
        labelled(file);
        return;
    }
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
            .unwrap_or_else(|| skill.name.to_string());
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
