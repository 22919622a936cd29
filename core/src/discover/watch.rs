//! Watch skill directories and call back when they change (cargo feature `watch`).
//!
//! This stage knows directories, not decks: the caller passes the roots to watch and a
//! callback, and the `Deck` wires its own reload into it (see `Deck::watch`), so the
//! dependency runs from the orchestrator down to the stage and never back.
//!
//! Every existing root is watched recursively; a root that does not exist yet is covered by
//! watching its nearest existing parent, so creating `.claude/skills` is noticed. Events are
//! debounced: the callback runs once the tree has been quiet for the debounce interval.

use crate::error::{Error, Result};
use notify::{RecursiveMode, Watcher as _};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// Keeps watching while alive; dropping it stops the watcher thread.
pub struct Watcher {
    // The only strong reference: dropping it drops the notify watcher, which closes the
    // event channel and ends the thread.
    _inner: Arc<Mutex<notify::RecommendedWatcher>>,
    /// A sender into the same channel, for changes no file event reports (a remote
    /// source's `list_changed`); handed out weakly so it dies with the watcher.
    wake: Arc<Mutex<Sender<()>>>,
}

impl Watcher {
    /// A callback that counts as a change (debounced like file events); a no-op once the
    /// watcher is dropped.
    pub(crate) fn waker(&self) -> Arc<dyn Fn() + Send + Sync> {
        let wake = Arc::downgrade(&self.wake);
        Arc::new(move || {
            if let Some(wake) = wake.upgrade() {
                let _ = wake.lock().unwrap_or_else(|e| e.into_inner()).send(());
            }
        })
    }
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

/// Directories to watch for `roots`, with whether to recurse.
fn targets(roots: &[PathBuf]) -> BTreeSet<(PathBuf, bool)> {
    let mut out = BTreeSet::new();
    for root in roots {
        if root.is_dir() {
            out.insert((root.clone(), true));
        } else if let Some(parent) = root.ancestors().skip(1).find(|p| p.is_dir()) {
            out.insert((parent.to_path_buf(), false));
        }
    }
    out
}

fn add(watcher: &mut notify::RecommendedWatcher, path: &Path, recursive: bool) -> Result<()> {
    let mode = if recursive {
        RecursiveMode::Recursive
    } else {
        RecursiveMode::NonRecursive
    };
    watcher
        .watch(path, mode)
        .map_err(|e| Error::invalid_options(format!("cannot watch {}: {e}", path.display())))
}

/// Watch `roots` and call `on_change` on a background thread once the tree has been quiet
/// for `debounce` after a change. `on_change` returns the roots to watch from then on (a
/// reload may have created directories that are roots, or parents of roots), or `None` to
/// keep watching what is watched. Newly listed directories are added; nothing is removed,
/// so a root that disappears and comes back is still seen.
pub fn start<F>(roots: &[PathBuf], debounce: Duration, mut on_change: F) -> Result<Watcher>
where
    F: FnMut() -> Option<Vec<PathBuf>> + Send + 'static,
{
    let (tx, rx) = channel::<()>();
    let wake = Arc::new(Mutex::new(tx.clone()));
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok() {
            let _ = tx.send(());
        }
    })
    .map_err(|e| Error::invalid_options(format!("cannot start a file watcher: {e}")))?;
    let inner = Arc::new(Mutex::new(watcher));
    let mut watching = targets(roots);
    {
        let mut w = inner.lock().unwrap_or_else(|e| e.into_inner());
        for (path, recursive) in &watching {
            add(&mut w, path, *recursive)?;
        }
    }
    // Weak: the thread must not keep the watcher (and so itself) alive.
    let weak: Weak<Mutex<notify::RecommendedWatcher>> = Arc::downgrade(&inner);
    std::thread::Builder::new()
        .name("skilldeck-watch".into())
        .spawn(move || loop {
            if rx.recv().is_err() {
                return;
            }
            loop {
                match rx.recv_timeout(debounce) {
                    Ok(()) => continue,
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            let Some(roots) = on_change() else {
                continue;
            };
            let Some(strong) = weak.upgrade() else {
                return;
            };
            let now = targets(&roots);
            let mut w = strong.lock().unwrap_or_else(|e| e.into_inner());
            for (path, recursive) in now.difference(&watching) {
                // A directory that vanished in between is picked up by a later change.
                let _ = add(&mut w, path, *recursive);
            }
            drop(w);
            watching.extend(now);
        })
        .map_err(|e| Error::invalid_options(format!("cannot start the watcher thread: {e}")))?;
    Ok(Watcher {
        _inner: inner,
        wake,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_roots_are_covered_by_their_parent() {
        let t = tempfile::tempdir().unwrap();
        let present = t.path().join("a");
        std::fs::create_dir_all(&present).unwrap();
        let got = targets(&[present.clone(), t.path().join("b/c/skills")]);
        assert!(got.contains(&(present, true)));
        assert!(got.contains(&(t.path().to_path_buf(), false)));
    }

    #[test]
    fn watch_calls_back_after_a_change_and_follows_new_roots() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("skills");
        let (tx, rx) = channel();
        let roots = vec![root.clone()];
        let next = roots.clone();
        let _watcher = start(&roots, Duration::from_millis(50), move || {
            let _ = tx.send(());
            Some(next.clone())
        })
        .unwrap();
        // Generous bounds: these wait for the callback, they do not time the watcher.
        let wait = Duration::from_secs(30);
        // The root does not exist yet: its parent is watched, so creating it is seen.
        std::fs::create_dir_all(root.join("a")).unwrap();
        rx.recv_timeout(wait).expect("a callback for the new root");
        // The callback ran before the new root was added to the watch: write until a change
        // is seen rather than racing that step.
        let deadline = std::time::Instant::now() + wait;
        let mut seen = false;
        for i in 0u32.. {
            if std::time::Instant::now() > deadline {
                break;
            }
            std::fs::write(root.join("a/SKILL.md"), format!("---\nname: a{i}\n---\n")).unwrap();
            if rx.recv_timeout(Duration::from_millis(500)).is_ok() {
                seen = true;
                break;
            }
        }
        assert!(seen, "no callback for a file written below the new root");
    }
}
