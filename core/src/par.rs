//! The parallel-map helpers discovery uses: items handed out in small batches on demand
//! (the cost per item varies a lot: a cache hit vs a long frontmatter, a tiny root vs a
//! large one, and a fixed split leaves a core idle), results returned in item order, all
//! at once ([`map`]) or as they become ready ([`each_in_order`]).
//!
//! The batches run on one pool of worker threads per process, started on first use and
//! parked between uses (rayon-core's pool), not on threads started for each call. Why it
//! matters: glibc gives every thread an arena of its own, and a thread that exits hands its
//! arena to the next thread that first calls `malloc`. In a Node process those are libuv and
//! V8 threads, so with fresh threads every load's reading workers opened new arenas and the
//! previous loads' free pages stayed resident in the old ones (~250-290 B per loaded skill
//! more than Rust or Python on the real-world tree: `bench/PROFILE.md` items 133, 180-).
//! Persistent workers keep their arenas, so each load refills the holes the last one left.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, OnceLock, PoisonError};

use rayon_core::{ThreadPool, ThreadPoolBuilder};

/// At most this many workers: past it the reads are bound by the disk and the caller's
/// in-order consumer, not by parsing.
const MAX_THREADS: usize = 16;

/// `items.iter().map(f)` on every core; the results come back in item order, batch by
/// batch (each batch's memory is freed as it is consumed, so a large result never exists
/// twice). Runs on the calling thread when there is one core or no more than one batch of
/// work. A batch in which `f` panicked (a bug, never user input) is lost, not the whole
/// result.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    batch: usize,
    f: impl Fn(&T) -> R + Sync,
) -> std::iter::Flatten<std::vec::IntoIter<Vec<R>>> {
    let batch = batch.max(1);
    let Some(pool) = pool_for(items.len(), batch) else {
        let all: Vec<R> = items.iter().map(&f).collect();
        return vec![all].into_iter().flatten();
    };
    let mut done: Vec<(usize, Vec<R>)> = Vec::with_capacity(items.len().div_ceil(batch));
    run(pool, items, batch, &f, |start, results| {
        if let Some(results) = results {
            done.push((start, results));
        }
    });
    done.sort_unstable_by_key(|(start, _)| *start);
    let batches: Vec<Vec<R>> = done.into_iter().map(|(_, results)| results).collect();
    batches.into_iter().flatten()
}

/// `items.iter().map(f)` on every core, each result handed to `consume` on the calling
/// thread in item order as soon as it and every result before it are done. Unlike [`map`],
/// the results never exist all at once: a consumer that keeps a compact form of each (or
/// writes it out) holds only the batches that finished ahead of an unfinished one. Runs on
/// the calling thread when there is one core or no more than one batch of work. A batch in
/// which `f` panicked (a bug, never user input) is lost: the results after it are still
/// consumed, in order.
pub(crate) fn each_in_order<T: Sync, R: Send>(
    items: &[T],
    batch: usize,
    f: impl Fn(&T) -> R + Sync,
    mut consume: impl FnMut(R),
) {
    let batch = batch.max(1);
    let Some(pool) = pool_for(items.len(), batch) else {
        items.iter().map(&f).for_each(consume);
        return;
    };
    // Batches that finished before an earlier one, by start index (`None`: lost to a panic).
    let mut ahead: BTreeMap<usize, Option<Vec<R>>> = BTreeMap::new();
    let mut expected = 0;
    run(pool, items, batch, &f, |start, results| {
        ahead.insert(start, results);
        while let Some(results) = ahead.remove(&expected) {
            expected += batch;
            results.into_iter().flatten().for_each(&mut consume);
        }
    });
    // Empty unless a batch never reported back (see `run`); what did is still consumed.
    ahead.into_values().flatten().flatten().for_each(consume);
}

/// The pool to spread `len` items in batches of `batch` over, or `None` to run on the
/// calling thread: one core, no more than one batch, or no thread could be started.
fn pool_for(len: usize, batch: usize) -> Option<&'static ThreadPool> {
    if threads() == 1 || len <= batch {
        return None;
    }
    pool()
}

/// The worker count: one per core (as the OS reports it for this process: affinity and
/// cgroup quota), at most [`MAX_THREADS`]. Read once: `available_parallelism` reads the
/// cgroup files on every call.
fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, MAX_THREADS)
    })
}

/// The process's worker pool, started on the first call. A forked child inherits the
/// parent's pool without its threads (only the forking thread survives a `fork`), so a
/// child starts its own; the parent's is left as it is, never dropped (dropping would wait
/// for threads that do not exist there). `None` when the threads could not be started:
/// the caller then runs the work itself, and the next call tries again.
fn pool() -> Option<&'static ThreadPool> {
    static POOL: Mutex<Option<(u32, &'static ThreadPool)>> = Mutex::new(None);
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, pool)) = *slot {
        if owner == pid {
            return Some(pool);
        }
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads())
        .thread_name(|i| format!("skilldeck-par-{i}"))
        .build()
        .ok()?;
    // Lives as long as the process: its threads park between calls and keep their arenas.
    let pool: &'static ThreadPool = Box::leak(Box::new(pool));
    *slot = Some((pid, pool));
    Some(pool)
}

/// Runs `f` over `items` in batches of `batch` on `pool` and hands each finished batch to
/// `take` on the calling thread as it arrives: its start index and its results, or `None`
/// when `f` panicked in it. Each worker claims the next batch when it is done with its
/// last, so a slow batch holds up one worker only.
///
/// A caller outside the pool only waits and takes (so what the batches keep is allocated
/// on the pool's threads, in their arenas). A caller that is itself one of the pool's
/// workers (`f` of an outer call calling `map` again) reads batches too instead of
/// blocking: its helpers may be queued behind busy workers, and a worker that waited for
/// them could wait for itself. It only blocks once every batch is claimed, that is while
/// the remaining ones are running on other threads, so nesting never deadlocks; neither do
/// two callers at once, whose helpers share the workers.
fn run<T: Sync, R: Send>(
    pool: &ThreadPool,
    items: &[T],
    batch: usize,
    f: &(impl Fn(&T) -> R + Sync),
    mut take: impl FnMut(usize, Option<Vec<R>>),
) {
    let count = items.len().div_ceil(batch);
    let next = AtomicUsize::new(0);
    let claim = || {
        let start = next.fetch_add(batch, Ordering::Relaxed);
        let rest = items.get(start..).filter(|r| !r.is_empty())?;
        let chunk = &rest[..rest.len().min(batch)];
        // The panic's message is still printed by the panic hook; the batch reports back
        // as lost so that the caller does not wait for it.
        let results = catch_unwind(AssertUnwindSafe(|| chunk.iter().map(f).collect()));
        Some((start, results.ok()))
    };
    let nested = pool.current_thread_index().is_some();
    let helpers = threads().min(count) - usize::from(nested);
    let (send, receive) = mpsc::channel();
    pool.in_place_scope(|scope| {
        let claim = &claim;
        for _ in 0..helpers {
            let send = send.clone();
            scope.spawn(move |_| {
                while let Some(done) = claim() {
                    if send.send(done).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for _ in 0..count {
            let done = match receive.try_recv() {
                Ok(done) => Some(done),
                Err(_) => match nested.then(claim).flatten() {
                    Some(done) => Some(done),
                    None => receive.recv().ok(),
                },
            };
            // `None`: every helper has returned with batches unreported, which only a
            // panic outside `f` could cause; what arrived has been taken.
            let Some((start, results)) = done else { break };
            take(start, results);
        }
    });
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Runs `work` on a thread of its own and fails (instead of hanging the suite) if it
    /// has not returned within a minute.
    fn within_a_minute(work: impl FnOnce() + Send + 'static) {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            work();
            let _ = done.send(());
        });
        assert!(
            finished.recv_timeout(Duration::from_secs(60)).is_ok(),
            "deadlocked (or a worker panicked)"
        );
    }

    #[test]
    fn keeps_order() {
        let items: Vec<u32> = (0..1000).collect();
        for batch in [1, 7, 32, 5000] {
            assert_eq!(
                super::map(&items, batch, |x| x * 2).collect::<Vec<_>>(),
                items.iter().map(|x| x * 2).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn each_in_order_consumes_in_item_order() {
        let items: Vec<u32> = (0..1000).collect();
        for batch in [1, 7, 32, 5000] {
            let mut seen = Vec::new();
            // Uneven work, so batches finish out of order.
            super::each_in_order(
                &items,
                batch,
                |x| {
                    if x % 97 == 0 {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    x * 2
                },
                |r| seen.push(r),
            );
            assert_eq!(seen, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        }
    }

    /// The point of the pool: later calls run on the threads the first one started, so
    /// their malloc arenas stay with them.
    #[test]
    fn workers_outlive_a_call() {
        if super::threads() == 1 {
            return; // one core: every call runs inline and no pool is started
        }
        let items: Vec<u32> = (0..256).collect();
        let workers = Mutex::new(HashSet::new());
        for _ in 0..6 {
            let seen: Vec<u32> = super::map(&items, 1, |x| {
                let me = std::thread::current().id();
                workers.lock().unwrap_or_else(|e| e.into_inner()).insert(me);
                std::thread::sleep(Duration::from_micros(50));
                *x
            })
            .collect();
            assert_eq!(seen, items);
        }
        let workers = workers.into_inner().unwrap_or_else(|e| e.into_inner());
        assert!(!workers.contains(&std::thread::current().id()));
        assert!(
            workers.len() <= super::threads(),
            "{} threads ran six calls on {} cores: workers were started per call",
            workers.len(),
            super::threads()
        );
    }

    /// A bug in `f` loses the batch it was in, not the process or the other results.
    #[test]
    fn a_panic_loses_its_batch_only() {
        if super::threads() == 1 {
            return; // everything runs inline: a panic is the caller's own
        }
        let items: Vec<u32> = (0..100).collect();
        let f = |x: &u32| {
            assert_ne!(*x, 42, "a planted bug");
            *x
        };
        let expected: Vec<u32> = items
            .iter()
            .copied()
            .filter(|x| !(40..50).contains(x))
            .collect();
        assert_eq!(super::map(&items, 10, f).collect::<Vec<_>>(), expected);
        let mut seen = Vec::new();
        super::each_in_order(&items, 10, f, |x| seen.push(x));
        assert_eq!(seen, expected);
    }

    /// `f` of one call calling `map` or `each_in_order` again runs on a pool thread: every
    /// worker may be such a caller at once, and none may wait for itself.
    #[test]
    fn nested_calls_do_not_deadlock() {
        within_a_minute(|| {
            let outer: Vec<u32> = (0..16).collect();
            let inner: Vec<u32> = (0..200).collect();
            let sums: Vec<u32> = super::map(&outer, 1, |o| {
                let mut sum = 0;
                super::each_in_order(
                    &inner,
                    3,
                    |i| {
                        if i % 50 == 0 {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        super::map(&[*i, *o], 1, |x| *x).sum::<u32>()
                    },
                    |x| sum += x,
                );
                sum
            })
            .collect();
            let expected: Vec<u32> = outer.iter().map(|o| 19_900 + 200 * o).collect();
            assert_eq!(sums, expected);
        });
    }

    /// Two decks loading at once (two Node or Python threads): their calls share the
    /// workers and both finish, each with its own results in order.
    #[test]
    fn concurrent_callers_share_the_workers() {
        within_a_minute(|| {
            let callers: Vec<_> = (0..3u32)
                .map(|c| {
                    std::thread::spawn(move || {
                        let items: Vec<u32> = (0..500).collect();
                        for _ in 0..20 {
                            let mut seen = Vec::new();
                            super::each_in_order(&items, 7, |x| x + c, |x| seen.push(x));
                            assert_eq!(seen, items.iter().map(|x| x + c).collect::<Vec<_>>());
                            let mapped: Vec<u32> = super::map(&items, 5, |x| x * c).collect();
                            assert_eq!(mapped, items.iter().map(|x| x * c).collect::<Vec<_>>());
                        }
                    })
                })
                .collect();
            for caller in callers {
                assert!(caller.join().is_ok(), "a caller panicked");
            }
        });
    }
}
