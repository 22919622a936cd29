//! Hands the free heap pages a load leaves behind back to the OS.
//!
//! Why the Node binding needs this and Rust or Python callers do not: glibc gives every
//! thread that calls `malloc` an arena of its own for the life of the thread. A load's
//! temporaries, freed when it returns, become holes in the arenas of the threads that made
//! them; in a Rust or Python process the next load runs on the same threads and fills those
//! holes again. In Node it does not: a Promise load runs on whichever of the four libuv pool
//! threads is free (each its own arena), and what it builds and frees on that thread lands
//! in whichever of them it was. (The core's reading workers used to be started per load, and
//! the arenas they released were taken over by Node threads; they are one persistent pool
//! now, `core/src/par.rs`, which cut ~230 B per real-world skill, but the trim is still worth
//! ~300-400 B per skill and ~17 MiB over eight loads: `bench/PROFILE.md` item 181.) Each
//! arena keeps its free pages resident while a live chunk sits above them, so a Node process
//! kept ~300 (mixed tree) to ~700 (real-world tree) B per loaded skill more than Rust or
//! Python, and grew with every load until each of its threads had an arena of its own.
//!
//! `malloc_trim(0)` walks every arena and returns the whole free pages inside it (not only
//! the top), for 1-6 ms on a 10,000-file tree against the tens (no-change load) to hundreds
//! (cold load) of milliseconds of the call it follows; the next load faults in again the
//! pages it needs. Measurements: `bench/PROFILE.md` item 130. Other allocators (macOS,
//! Windows, musl) keep no per-thread arenas of this kind and are left alone.

use std::sync::{Arc, Mutex, PoisonError, Weak};

/// Return the free pages of every malloc arena to the OS (glibc only; a no-op elsewhere).
/// Called after each call that reads a tree (the load family, `compareProfiles`, `doctor`,
/// `validate`), on the thread that ran it.
pub(crate) fn release_free_pages() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only inspects and advises glibc's own free chunks, under each
    // arena's lock; it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `result` after [`release_free_pages`]: what a call that reads a tree returns.
pub(crate) fn trimmed<T>(result: T) -> T {
    release_free_pages();
    result
}

/// The snapshot a deck's last `load()` returned, so that a load which found nothing changed
/// (the same `Arc` again, after one `stat` per file: the call an agent makes every turn)
/// skips the trim: it freed next to nothing, and the trim's walk of every arena (1-5 ms)
/// would be a sizeable part of such a call.
#[derive(Default)]
pub(crate) struct LastLoad(Mutex<Weak<skilldeck::Catalog>>);

impl LastLoad {
    /// `result` after trimming, unless it is the snapshot the previous load returned (a
    /// failed load trims: it may have read and dropped a whole tree).
    pub(crate) fn trimmed(
        &self,
        result: skilldeck::Result<Arc<skilldeck::Catalog>>,
    ) -> skilldeck::Result<Arc<skilldeck::Catalog>> {
        if result.as_ref().map_or(true, |catalog| self.is_new(catalog)) {
            release_free_pages();
        }
        result
    }

    /// Whether `catalog` is not the snapshot the previous load returned; remembers it.
    fn is_new(&self, catalog: &Arc<skilldeck::Catalog>) -> bool {
        let loaded = Arc::downgrade(catalog);
        let mut last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // The held `Weak` keeps its allocation, so an equal pointer is the same snapshot.
        if Weak::ptr_eq(&last, &loaded) {
            return false;
        }
        *last = loaded;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_load_returning_the_same_snapshot_is_not_new() {
        let last = LastLoad::default();
        let first = Arc::new(skilldeck::Catalog::default());
        assert!(last.is_new(&first));
        assert!(!last.is_new(&first.clone()));
        let second = Arc::new(skilldeck::Catalog::default());
        assert!(last.is_new(&second));
        // A dropped snapshot's address is not reused while it is remembered.
        drop(first);
        let third = Arc::new(skilldeck::Catalog::default());
        assert!(last.is_new(&third));
        assert!(!last.is_new(&third));
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn rss_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// A load in miniature: a thread's temporaries, freed between chunks that outlive the
    /// thread, stay resident in its arena until the trim hands them back.
    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn free_pages_between_live_chunks_are_returned() {
        const BLOCK: usize = 8 * 1024; // below the mmap threshold: served from the arena
        const BLOCKS: usize = 4096; // 32 MiB, of which every 16th block (2 MiB) is kept
        let baseline = rss_kib();
        let kept = std::thread::spawn(|| {
            let blocks: Vec<Vec<u8>> = (0..BLOCKS).map(|i| vec![i as u8; BLOCK]).collect();
            blocks
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % 16 == 15)
                .map(|(_, block)| block)
                .collect::<Vec<_>>()
        })
        .join()
        .expect("the allocating thread panicked");
        let held = rss_kib();
        release_free_pages();
        let trimmed = rss_kib();
        assert!(
            held >= baseline + 24 * 1024,
            "glibc returned the 30 free MiB by itself ({baseline} -> {held} KiB): \
             the trim would no longer be needed"
        );
        assert!(
            trimmed + 24 * 1024 <= held,
            "malloc_trim returned less than 24 of the 30 free MiB ({held} -> {trimmed} KiB)"
        );
        assert_eq!(kept.len(), BLOCKS / 16);
    }
}
