//! The parallel-map helpers discovery uses: items handed out in small batches on demand
//! (the cost per item varies a lot: a cache hit vs a long frontmatter, a tiny root vs a
//! large one, and a fixed split leaves a core idle), results returned in item order, all
//! at once ([`map`]) or as they become ready ([`each_in_order`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `items.iter().map(f)` on every core; the results come back in item order, batch by
/// batch (each batch's memory is freed as it is consumed, so a large result never exists
/// twice). Runs on the calling thread when there is one core or no more than one batch of
/// work. A worker that panicked (a bug, never user input) loses its batches, not the whole
/// result.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    batch: usize,
    f: impl Fn(&T) -> R + Sync,
) -> std::iter::Flatten<std::vec::IntoIter<Vec<R>>> {
    let batch = batch.max(1);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 16);
    if threads == 1 || items.len() <= batch {
        let all: Vec<R> = items.iter().map(&f).collect();
        return vec![all].into_iter().flatten();
    }
    let next = AtomicUsize::new(0);
    let (f, next) = (&f, &next);
    let mut done: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len().div_ceil(batch)))
            .map(|_| {
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let start = next.fetch_add(batch, Ordering::Relaxed);
                        let Some(rest) = items.get(start..).filter(|r| !r.is_empty()) else {
                            break;
                        };
                        let chunk = &rest[..rest.len().min(batch)];
                        mine.push((start, chunk.iter().map(f).collect::<Vec<R>>()));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| w.join().ok())
            .flatten()
            .collect()
    });
    done.sort_unstable_by_key(|(start, _)| *start);
    let batches: Vec<Vec<R>> = done.into_iter().map(|(_, results)| results).collect();
    batches.into_iter().flatten()
}

/// `items.iter().map(f)` on every core, each result handed to `consume` on the calling
/// thread in item order as soon as it and every result before it are done. Unlike [`map`],
/// the results never exist all at once: a consumer that keeps a compact form of each (or
/// writes it out) holds only the batches that finished ahead of an unfinished one. Runs on
/// the calling thread when there is one core or no more than one batch of work. A worker
/// that panicked (a bug, never user input) loses its batches: the results after them are
/// still consumed, in order.
pub(crate) fn each_in_order<T: Sync, R: Send>(
    items: &[T],
    batch: usize,
    f: impl Fn(&T) -> R + Sync,
    mut consume: impl FnMut(R),
) {
    let batch = batch.max(1);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 16);
    if threads == 1 || items.len() <= batch {
        items.iter().map(&f).for_each(consume);
        return;
    }
    let next = AtomicUsize::new(0);
    let (f, next) = (&f, &next);
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel::<(usize, Vec<R>)>();
        for _ in 0..threads.min(items.len().div_ceil(batch)) {
            let send = send.clone();
            scope.spawn(move || loop {
                let start = next.fetch_add(batch, Ordering::Relaxed);
                let Some(rest) = items.get(start..).filter(|r| !r.is_empty()) else {
                    break;
                };
                let chunk = &rest[..rest.len().min(batch)];
                if send.send((start, chunk.iter().map(f).collect())).is_err() {
                    break;
                }
            });
        }
        // Only the workers hold senders now: the channel closes when the last one is done.
        drop(send);
        // Batches that arrived before an earlier one, by start index.
        let mut ahead: BTreeMap<usize, Vec<R>> = BTreeMap::new();
        let mut expected = 0;
        for (start, results) in receive {
            ahead.insert(start, results);
            while let Some(results) = ahead.remove(&expected) {
                expected += batch;
                results.into_iter().for_each(&mut consume);
            }
        }
        // Left only when a worker panicked before sending the batch at `expected`.
        ahead.into_values().flatten().for_each(consume);
    });
}

#[cfg(test)]
mod tests {
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
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    x * 2
                },
                |r| seen.push(r),
            );
            assert_eq!(seen, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        }
    }
}
