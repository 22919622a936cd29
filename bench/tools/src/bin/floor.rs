//! `floor --threads T --corpus DIR` (or `--root R...`): walk the universal roots and read
//! every SKILL.md fully; print one JSON line with what was read and how long it took.

use skilldeck_bench::floor;
use skilldeck_bench::layout::Layout;
use skilldeck_bench::stats::{time_ms, Args};
use std::path::PathBuf;

fn main() {
    let args = Args::from_env();
    let threads: usize = args.parsed("--threads", 1);
    let mut roots: Vec<PathBuf> = args
        .values("--root")
        .into_iter()
        .map(PathBuf::from)
        .collect();
    if let Some(corpus) = args.value("--corpus") {
        roots.extend(Layout::new(corpus).universal_roots());
    }
    if roots.is_empty() {
        eprintln!("usage: floor [--threads T] (--corpus DIR | --root R...)");
        std::process::exit(2);
    }
    let (t, ms) = time_ms(|| floor::walk(&roots, threads));
    println!(
        "{}",
        serde_json::json!({
            "threads": threads,
            "files": t.files,
            "bytes": t.bytes,
            "dirs": t.dirs,
            "errors": t.errors,
            "elapsed_ms": ms,
        })
    );
}
