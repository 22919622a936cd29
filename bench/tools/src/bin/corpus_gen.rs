//! `corpus-gen --n N [--seed S] [--shape mixed|realworld] --out DIR [--force]`: write a
//! seeded skill corpus (`realworld`: SKILL.md files shaped like public ones).

use skilldeck_bench::corpus;
use skilldeck_bench::layout::Layout;
use skilldeck_bench::stats::{time_ms, Args};

fn main() {
    let args = Args::from_env();
    let n: usize = args.parsed("--n", 1000);
    let seed: u64 = args.parsed("--seed", 0x5ced_2026);
    let usage = "usage: corpus-gen --n N [--seed S] [--shape mixed|realworld] --out DIR [--force]";
    let Some(out) = args.value("--out") else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(shape) = corpus::Shape::parse(args.value("--shape").unwrap_or("mixed")) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let layout = Layout::new(out);
    if args.flag("--force") && layout.base.exists() {
        // remove_dir_all does not follow symlinks, so the corpus's own loops are safe here.
        if let Err(err) = std::fs::remove_dir_all(&layout.base) {
            eprintln!("cannot remove {}: {err}", layout.base.display());
            std::process::exit(1);
        }
    }
    match time_ms(|| corpus::generate_shaped(&layout, n, seed, shape)) {
        (Ok(s), ms) => println!(
            "corpus {}: {} SKILL.md ({} MiB), {} broken, {} duplicate names, {} symlinked dirs, {} sibling files, {}+{} noise files in {:.1}s",
            layout.base.display(),
            s.skill_files,
            s.skill_md_bytes / (1024 * 1024),
            s.broken,
            s.duplicates,
            s.symlinked,
            s.sibling_files,
            s.noise_git_files,
            s.noise_node_modules_files,
            ms / 1000.0
        ),
        (Err(err), _) => {
            eprintln!("corpus-gen: {err}");
            std::process::exit(1);
        }
    }
}
