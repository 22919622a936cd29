//! The one parallel-map helper discovery uses: items handed out in small batches on demand
//! (the cost per item varies a lot: a cache hit vs a long frontmatter, a tiny root vs a
//! large one, and a fixed split leaves a core idle), results returned in item order.

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
}
