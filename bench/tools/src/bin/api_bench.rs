//! `api-bench --corpus DIR [--runs R] [--reloads K] [--retained] [--loop noop|reload --loops K]`:
//! the Rust API in process.
//! `--retained` only measures what one more loaded deck keeps resident (see
//! [`retained_kib_per_deck`]).
//!
//! Measures, on a page-cache-warm corpus: cold `load()` on a fresh `Deck` (median of R),
//! a no-change `load()` on a loaded deck and `reload()` after rewriting one skill (the
//! three take turns, R rounds), `render()`, and resident memory after the first and after
//! K reloads (each after a rewrite).
//! Prints one JSON object. The rewritten skill is restored before exit.

use skilldeck::{Deck, DeckOptions, RenderOptions};
use skilldeck_bench::layout::Layout;
use skilldeck_bench::stats::{median, time_ms, Args};
use skilldeck_bench::{heap, rss};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[global_allocator]
static HEAP: skilldeck_bench::heap::Counting = skilldeck_bench::heap::Counting;

/// This process's CPU time (user, system; ms) and context switches (voluntary,
/// involuntary) so far, every thread counted, ended ones included (`getrusage`).
#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    user_ms: f64,
    sys_ms: f64,
    voluntary: f64,
    involuntary: f64,
}

impl Usage {
    fn now() -> Usage {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes a whole `rusage` into the pointer it is given; on
        // failure the zeroed value is kept.
        let usage = unsafe {
            libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
            usage.assume_init()
        };
        // `time_t`/`suseconds_t` are narrower than i64 on some targets.
        #[allow(clippy::unnecessary_cast)]
        let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
        Usage {
            user_ms: ms(usage.ru_utime),
            sys_ms: ms(usage.ru_stime),
            voluntary: usage.ru_nvcsw as f64,
            involuntary: usage.ru_nivcsw as f64,
        }
    }

    /// What `f` cost, with its result.
    fn of<T>(f: impl FnOnce() -> T) -> (T, Usage) {
        let before = Usage::now();
        let out = f();
        let after = Usage::now();
        let cost = Usage {
            user_ms: after.user_ms - before.user_ms,
            sys_ms: after.sys_ms - before.sys_ms,
            voluntary: after.voluntary - before.voluntary,
            involuntary: after.involuntary - before.involuntary,
        };
        (out, cost)
    }

    /// Medians of each field: CPU time does not depend on how busy the machine is the way
    /// wall time does, so a same-binary comparison under load reads these first.
    fn medians(all: &[Usage]) -> serde_json::Value {
        if all.is_empty() {
            return serde_json::Value::Null;
        }
        let of = |field: fn(&Usage) -> f64| median(&all.iter().map(field).collect::<Vec<_>>());
        serde_json::json!({
            "user_ms": of(|u| u.user_ms),
            "sys_ms": of(|u| u.sys_ms),
            "voluntary_switches": of(|u| u.voluntary),
            "involuntary_switches": of(|u| u.involuntary),
        })
    }
}

fn options(layout: &Layout) -> DeckOptions {
    layout.deck_options()
}

fn fail(stage: &str, err: &skilldeck::Error) -> ! {
    println!(
        "{}",
        serde_json::json!({"error": format!("{stage}: {err}"), "code": err.code()})
    );
    std::process::exit(3);
}

/// Rewrites one SKILL.md with a new description and a later mtime (so a stat-based cache
/// must notice), and puts the original back on drop.
struct Toucher {
    path: PathBuf,
    original: Vec<u8>,
    mtime: SystemTime,
    name: String,
    count: u64,
}

impl Toucher {
    fn new(path: &Path) -> std::io::Result<Toucher> {
        let original = std::fs::read(path)?;
        let mtime = std::fs::metadata(path)?.modified()?;
        let name = path
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Toucher {
            path: path.to_path_buf(),
            original,
            mtime,
            name,
            count: 0,
        })
    }

    fn set(&self, bytes: &[u8], mtime: SystemTime) -> std::io::Result<()> {
        std::fs::write(&self.path, bytes)?;
        std::fs::File::options()
            .write(true)
            .open(&self.path)?
            .set_modified(mtime)
    }

    fn touch(&mut self) -> std::io::Result<()> {
        self.count += 1;
        let text = format!(
            "---\nname: {}\ndescription: Touched by the benchmark, revision {}.\n---\n\n# Touched\n\nRevision {}.\n",
            self.name, self.count, self.count
        );
        self.set(
            text.as_bytes(),
            self.mtime + Duration::from_secs(2 * self.count),
        )
    }
}

impl Drop for Toucher {
    fn drop(&mut self) {
        if let Err(err) = self.set(&self.original.clone(), self.mtime) {
            eprintln!(
                "api-bench: could not restore {}: {err}",
                self.path.display()
            );
        }
    }
}

/// The file a reload round rewrites: the corpus' touch file when the deck shows it, else the
/// first shown project skill named after its directory. The generator picks its touch file
/// before it knows which duplicate names win, and a shadowed one changes nothing visible (the
/// real-world tree's did: "changes seen" was all zeros), which a reader takes for a missed
/// change.
fn shown_touch(catalog: &skilldeck::Catalog, wanted: Option<PathBuf>) -> Option<PathBuf> {
    let shown = |path: &Path| catalog.skills.iter().any(|s| &*s.location == path);
    if wanted.as_deref().is_none_or(shown) {
        return wanted;
    }
    let named_after_dir = |s: &&std::sync::Arc<skilldeck::Skill>| {
        s.location
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|dir| dir.to_str() == Some(&*s.name))
    };
    let chosen = catalog
        .skills
        .iter()
        .filter(|s| s.scope == skilldeck::Scope::Project && s.location.ends_with("SKILL.md"))
        .find(named_after_dir)
        .map(|s| s.location.to_path_buf());
    if let (Some(wanted), Some(chosen)) = (&wanted, &chosen) {
        eprintln!(
            "api-bench: the corpus' touch file {} is shadowed; rewriting {} instead",
            wanted.display(),
            chosen.display()
        );
    }
    chosen.or(wanted)
}

/// Resident memory one more loaded deck keeps (deck and catalog held), in KiB: RSS after
/// holding three loaded decks minus RSS after holding one, halved. The first deck's load
/// has already left its temporaries' pages in the allocator, so the later loads reuse
/// them and the difference is what a loaded deck keeps, not what loading it touched.
/// The same method runs in the Python and Node timers (bench/peers), so the three compare.
/// Also returns the heap bytes one more loaded deck holds (the counting allocator: exact,
/// whatever the machine's load), the heap peak of its load above what was live before, and
/// the allocations its load made, and the blocks it holds (malloc pays a chunk header and
/// rounding per block, the part of RSS the heap bytes do not show).
fn retained_kib_per_deck(layout: &Layout) -> (Option<f64>, usize, usize, u64, usize) {
    let before = rss::current_kib();
    let (heap_before, allocs_before) = (heap::live(), heap::allocations());
    let blocks_before = heap::live_blocks();
    heap::reset_peak();
    let first = {
        let deck = Deck::new(options(layout)).unwrap_or_else(|e| fail("Deck::new", &e));
        let catalog = deck.load().unwrap_or_else(|e| fail("load", &e));
        (deck, catalog)
    };
    let heap_held = heap::live().saturating_sub(heap_before);
    let blocks_held = heap::live_blocks().saturating_sub(blocks_before);
    let load_peak = heap::peak().saturating_sub(heap_before);
    let load_allocs = heap::allocations() - allocs_before;
    let second = {
        let deck = Deck::new(options(layout)).unwrap_or_else(|e| fail("Deck::new", &e));
        let catalog = deck.load().unwrap_or_else(|e| fail("load", &e));
        (deck, catalog)
    };
    let after = rss::current_kib();
    drop((first, second));
    let rss = before
        .zip(after)
        .map(|(b, a)| a.saturating_sub(b) as f64 / 2.0);
    (rss, heap_held, load_peak, load_allocs, blocks_held)
}

/// Heap bytes of the parts of a loaded catalog, each measured as a deep copy of it (a
/// lower bound: copies carry no spare capacity), plus the heap of a one-shot load's whole
/// catalog: where a loaded deck's bytes are, by the same exact counter. Each part is
/// `[bytes, blocks]`. Text the catalog shares (`SharedStr`: an id that is its name's
/// buffer, interned messages and reasons) is copied once per buffer, as it is held.
fn catalog_heap_parts(
    catalog: &skilldeck::Catalog,
    layout: &Layout,
) -> serde_json::Map<String, serde_json::Value> {
    fn measure<T>(make: impl FnOnce() -> T) -> (usize, usize) {
        let (before, blocks_before) = (heap::live(), heap::live_blocks());
        let held = make();
        let bytes = heap::live().saturating_sub(before);
        let blocks = heap::live_blocks().saturating_sub(blocks_before);
        drop(held);
        (bytes, blocks)
    }
    /// Copies each distinct `SharedStr` buffer once, so a copy shares as the original does.
    #[derive(Default)]
    struct Texts(std::collections::HashMap<*const u8, skilldeck::SharedStr>);
    impl Texts {
        fn copy(&mut self, text: &skilldeck::SharedStr) -> skilldeck::SharedStr {
            self.0
                .entry(text.as_ptr())
                .or_insert_with(|| skilldeck::SharedStr::from(text.as_str()))
                .clone()
        }
        fn diagnostics(&mut self, all: &[skilldeck::Diagnostic]) -> Vec<skilldeck::Diagnostic> {
            all.iter()
                .map(|d| skilldeck::Diagnostic {
                    message: self.copy(&d.message),
                    ..d.clone()
                })
                .collect()
        }
    }
    let skills = &catalog.skills;
    let mut parts = serde_json::Map::new();
    let mut put = |name: &str, (bytes, blocks): (usize, usize)| {
        parts.insert(name.to_string(), serde_json::json!([bytes, blocks]));
    };
    put(
        "manifests",
        measure(|| {
            skills
                .iter()
                .map(|s| (*s.manifest).clone())
                .collect::<Vec<_>>()
        }),
    );
    put(
        // Part of `manifests`: the two JSON objects.
        "manifest_metadata_extra",
        measure(|| {
            skills
                .iter()
                .map(|s| (s.manifest.metadata.clone(), s.manifest.extra.clone()))
                .collect::<Vec<_>>()
        }),
    );
    put(
        "skill_diagnostics",
        measure(|| {
            let mut texts = Texts::default();
            skills
                .iter()
                // Deep: the skill shares its slice with the deck's parse cache.
                .map(|s| texts.diagnostics(&s.diagnostics))
                .collect::<Vec<_>>()
        }),
    );
    put(
        "skill_paths",
        measure(|| {
            skills
                .iter()
                .map(|s| (s.location.clone(), s.base_dir.clone(), s.source.clone()))
                .collect::<Vec<_>>()
        }),
    );
    put(
        "skill_ids_names",
        measure(|| {
            let mut texts = Texts::default();
            skills
                .iter()
                .map(|s| (texts.copy(&s.id), texts.copy(&s.name), s.plugin.clone()))
                .collect::<Vec<_>>()
        }),
    );
    put(
        "skill_status",
        measure(|| skills.iter().map(|s| s.status.clone()).collect::<Vec<_>>()),
    );
    put(
        "catalog_diagnostics_shadowed",
        measure(|| {
            let mut texts = Texts::default();
            let shadowed: Vec<skilldeck::Shadowed> = catalog
                .shadowed
                .iter()
                .map(|s| skilldeck::Shadowed {
                    id: texts.copy(&s.id),
                    name: texts.copy(&s.name),
                    reason: texts.copy(&s.reason),
                    ..s.clone()
                })
                .collect();
            (texts.diagnostics(&catalog.diagnostics), shadowed)
        }),
    );
    put(
        "load_once_catalog",
        measure(|| {
            Deck::new(options(layout))
                .and_then(|deck| deck.load_once())
                .unwrap_or_else(|e| fail("load_once", &e))
        }),
    );
    parts
}

/// How many of the skills' diagnostics carry each code (what the `skill_diagnostics` part
/// is made of).
fn diagnostic_codes(catalog: &skilldeck::Catalog) -> serde_json::Value {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for d in catalog.skills.iter().flat_map(|s| s.diagnostics.iter()) {
        *counts.entry(&d.code).or_default() += 1;
    }
    serde_json::json!(counts)
}

/// `--loop noop|reload --loops K`: only K no-change loads, or K reloads each after
/// rewriting the touch file, on the loaded `deck`, for an instruction count of that path
/// alone (`valgrind --tool=callgrind`): the difference between two runs with different K,
/// divided by the difference in K, is exact whatever the machine's load.
fn repeat(deck: &Deck, kind: &str, loops: usize, touch: Option<&Path>) {
    let mut toucher = match (kind, touch) {
        ("noop", _) => None,
        ("reload", Some(path)) => Some(Toucher::new(path).unwrap_or_else(|e| {
            eprintln!("api-bench: reading the touch file: {e}");
            std::process::exit(2)
        })),
        _ => {
            eprintln!("api-bench: --loop takes noop or reload (and a corpus with a touch file)");
            std::process::exit(2)
        }
    };
    let (mut changes, mut times, mut usage) = (0, Vec::with_capacity(loops), Vec::new());
    for _ in 0..loops {
        let start = std::time::Instant::now();
        let ((), cost) = Usage::of(|| match toucher.as_mut() {
            None => {
                deck.load().unwrap_or_else(|e| fail("no-change load", &e));
            }
            Some(t) => {
                t.touch().unwrap_or_else(|e| {
                    eprintln!("api-bench: rewriting {}: {e}", t.path.display());
                    std::process::exit(2)
                });
                let diff = deck.reload().unwrap_or_else(|e| fail("reload", &e));
                changes += diff.added.len() + diff.removed.len() + diff.changed.len();
            }
        });
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        usage.push(cost);
    }
    let median_ms = (!times.is_empty()).then(|| median(&times));
    println!(
        "{}",
        serde_json::json!({
            "loop": kind,
            "loops": loops,
            "changes": changes,
            "median_ms": median_ms,
            "cpu": Usage::medians(&usage),
        })
    );
}

fn main() {
    let args = Args::from_env();
    let runs: usize = args.parsed("--runs", 5).max(1);
    let reloads: usize = args.parsed("--reloads", 100);
    let Some(corpus) = args.value("--corpus") else {
        eprintln!("usage: api-bench --corpus DIR [--runs R] [--reloads K] [--retained]");
        std::process::exit(2);
    };
    let manifest: serde_json::Value = std::fs::read_to_string(Layout::new(corpus).manifest_path())
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| {
            eprintln!("api-bench: no corpus.json in {corpus}; run corpus-gen first");
            std::process::exit(2)
        });
    // The manifest's absolute base: project-dir ancestry (repository root detection) must
    // not depend on the current directory.
    let layout = Layout::new(manifest["base"].as_str().unwrap_or(corpus));
    let touch_path = manifest["touch"].as_str().map(PathBuf::from);

    // The long-lived deck: its first load is the warm-up and is not counted.
    let deck = Deck::new(options(&layout)).unwrap_or_else(|e| fail("Deck::new", &e));
    let catalog = deck.load().unwrap_or_else(|e| fail("load", &e));
    let touch_path = shown_touch(&catalog, touch_path);
    if args.flag("--retained") {
        // A separate run, so the held decks do not raise the other rows' peak RSS.
        let description_bytes: usize = catalog
            .skills
            .iter()
            .map(|s| s.manifest.description.as_deref().map_or(0, str::len))
            .sum();
        let (rss, heap_bytes, load_peak, load_allocs, blocks) = retained_kib_per_deck(&layout);
        let mut catalog_parts = catalog_heap_parts(&catalog, &layout);
        // What a reloadable deck keeps beyond a one-shot load's catalog: the parse cache,
        // the fingerprints and the walk.
        let once = |at: usize| {
            catalog_parts
                .get("load_once_catalog")
                .and_then(|part| part.get(at))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0)
        };
        let reload_state = serde_json::json!([
            (heap_bytes as u64).saturating_sub(once(0)),
            (blocks as u64).saturating_sub(once(1)),
        ]);
        catalog_parts.insert("reload_state".to_string(), reload_state);
        let skills = catalog.skills.len().max(1) as f64;
        println!(
            "{}",
            serde_json::json!({
                "skills": catalog.skills.len(),
                "retained_kib_per_deck": rss,
                "heap_bytes_per_deck": heap_bytes,
                "load_heap_peak_bytes": load_peak,
                "load_allocations": load_allocs,
                "live_blocks_per_deck": blocks,
                "live_blocks_per_skill": blocks as f64 / skills,
                "heap_bytes_per_skill_beyond_descriptions":
                    heap_bytes.saturating_sub(description_bytes) as f64 / skills,
                "description_bytes": description_bytes,
                "catalog_heap_parts": catalog_parts,
                "skill_diagnostic_codes": diagnostic_codes(&catalog),
            })
        );
        return;
    }

    if let Some(kind) = args.value("--loop") {
        let loops: usize = args.parsed("--loops", 10);
        repeat(&deck, kind, loops, touch_path.as_deref());
        return;
    }

    // `None` once rewriting or reloading failed (the error says why): no more reloads.
    let (mut toucher, mut reload_error) = match touch_path.as_deref().map(Toucher::new) {
        Some(Ok(toucher)) => (Some(toucher), None),
        Some(Err(err)) => (None, Some(format!("reading the touch file: {err}"))),
        None => (None, Some("corpus.json names no touch file".to_string())),
    };
    let (mut cold, mut noop, mut reload, mut changed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut cold_cpu, mut noop_cpu) = (Vec::new(), Vec::new());
    // RSS after the first reload, after the tenth (allocator arenas of the walker threads
    // have settled by then), and after the last: growth from the tenth on is what a leak
    // would show.
    let (mut rss_first, mut rss_tenth, mut rss_last) = (None, None, None);
    // A cold load (fresh Deck, no cache), a no-change load and a reload after one rewrite
    // take turns, so the machine's drift cannot skew the no-change/cold and reload/cold
    // ratios (on this shared machine, block runs of the same code moved them by ±1 point).
    // The reloads past `runs` only serve the RSS check.
    for i in 0..reloads.max(runs) {
        if i < runs {
            let fresh = Deck::new(options(&layout)).unwrap_or_else(|e| fail("Deck::new", &e));
            let ((res, ms), cpu) = Usage::of(|| time_ms(|| fresh.load()));
            res.unwrap_or_else(|e| fail("load", &e));
            cold.push(ms);
            cold_cpu.push(cpu);
            drop(fresh);
            let ((res, ms), cpu) = Usage::of(|| time_ms(|| deck.load()));
            res.unwrap_or_else(|e| fail("no-change load", &e));
            noop.push(ms);
            noop_cpu.push(cpu);
        }
        let Some(t) = toucher.as_mut() else {
            if i >= runs {
                break;
            }
            continue;
        };
        if let Err(err) = t.touch() {
            reload_error = Some(format!("rewriting {}: {err}", t.path.display()));
            toucher = None;
            continue;
        }
        let (res, ms) = time_ms(|| deck.reload());
        match res {
            Ok(diff) => {
                if i < runs {
                    reload.push(ms);
                    changed.push(diff.added.len() + diff.removed.len() + diff.changed.len());
                }
            }
            Err(e) => {
                reload_error = Some(format!("reload: {e}"));
                toucher = None;
                continue;
            }
        }
        if i == 0 {
            rss_first = rss::current_kib();
        }
        if i == 9 {
            rss_tenth = rss::current_kib();
        }
        rss_last = rss::current_kib();
    }
    // Put the rewritten skill back as the corpus made it.
    drop(toucher);

    let render = (0..runs)
        .map(|_| {
            let (res, ms) = time_ms(|| deck.render(&RenderOptions::default()));
            match res {
                Ok(r) => Ok((ms, r.text.len())),
                Err(e) => Err(format!("{e}")),
            }
        })
        .collect::<Result<Vec<_>, _>>();

    let (render_ms, render_chars, render_error) = match render {
        Ok(v) => {
            let ms: Vec<f64> = v.iter().map(|(ms, _)| *ms).collect();
            (Some(median(&ms)), v.first().map(|(_, c)| *c), None)
        }
        Err(e) => (None, None, Some(e)),
    };
    println!(
        "{}",
        serde_json::json!({
            "skills": catalog.skills.len(),
            "shadowed": catalog.shadowed.len(),
            "diagnostics": catalog.diagnostics.len()
                + catalog.skills.iter().map(|s| s.diagnostics.len()).sum::<usize>(),
            "runs": runs,
            "cold_ms": cold,
            "cold_median_ms": median(&cold),
            "noop_ms": noop,
            "noop_median_ms": median(&noop),
            "cold_cpu": Usage::medians(&cold_cpu),
            "noop_cpu": Usage::medians(&noop_cpu),
            "reload_ms": reload,
            "reload_median_ms": if reload.is_empty() { None } else { Some(median(&reload)) },
            "reload_changes": changed,
            "reload_error": reload_error,
            "reloads": reloads,
            "rss_kib_after_first_reload": rss_first,
            "rss_kib_after_10_reloads": rss_tenth,
            "rss_kib_after_reloads": rss_last,
            "render_median_ms": render_ms,
            "render_chars": render_chars,
            "render_error": render_error,
            "peak_rss_kib": rss::peak_kib(),
        })
    );
}
