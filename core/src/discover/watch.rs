//! Reload a [`Deck`] when its skill directories change (cargo feature `watch`).
//!
//! Every existing root is watched recursively; a root that does not exist yet is covered by
//! watching its nearest existing parent, so creating `.claude/skills` is noticed. Events are
//! debounced: a reload runs once the tree has been quiet for the debounce interval, and it
//! delivers `changed` events to the deck's subscribers like any other reload.

use crate::deck::Deck;
use crate::error::{Error, Result};
use notify::{RecursiveMode, Watcher as _};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// Keeps watching while alive; dropping it stops the watcher thread.
pub struct Watcher {
    // The only strong reference: dropping it drops the notify watcher, which closes the
    // event channel and ends the thread.
    _inner: Arc<Mutex<notify::RecommendedWatcher>>,
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

/// Start watching `deck` (loading it first if needed).
pub fn start(deck: &Deck, debounce: Duration) -> Result<Watcher> {
    deck.catalog()?;
    let (tx, rx) = channel::<()>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok() {
            let _ = tx.send(());
        }
    })
    .map_err(|e| Error::invalid_options(format!("cannot start a file watcher: {e}")))?;
    let inner = Arc::new(Mutex::new(watcher));
    let mut watching = targets(&deck.watched_roots());
    {
        let mut w = inner.lock().unwrap_or_else(|e| e.into_inner());
        for (path, recursive) in &watching {
            add(&mut w, path, *recursive)?;
        }
    }
    let weak: Weak<Mutex<notify::RecommendedWatcher>> = Arc::downgrade(&inner);
    let deck = deck.clone();
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
            if deck.reload().is_err() {
                continue;
            }
            // New directories may have become roots (or parents of roots): watch them too.
            let Some(strong) = weak.upgrade() else {
                return;
            };
            let now = targets(&deck.watched_roots());
            let mut w = strong.lock().unwrap_or_else(|e| e.into_inner());
            for (path, recursive) in now.difference(&watching) {
                let _ = add(&mut w, path, *recursive);
            }
            drop(w);
            watching = now;
        })
        .map_err(|e| Error::invalid_options(format!("cannot start the watcher thread: {e}")))?;
    Ok(Watcher { _inner: inner })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Event;
    use crate::options::DeckOptions;

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
    fn a_new_skill_triggers_a_changed_event() {
        let t = tempfile::tempdir().unwrap();
        let skills = t.path().join("project/.agents/skills");
        std::fs::create_dir_all(skills.join("a")).unwrap();
        std::fs::write(
            skills.join("a/SKILL.md"),
            "---\nname: a\ndescription: A.\n---\n",
        )
        .unwrap();
        let deck = Deck::new(DeckOptions {
            project_dir: t.path().join("project"),
            home_dir: Some(t.path().join("home")),
            env: Some(Default::default()),
            ..DeckOptions::default()
        })
        .unwrap();
        let (tx, rx) = channel();
        let tx = Mutex::new(tx);
        deck.subscribe(move |event| {
            if let Event::Changed { diff } = event {
                let _ = tx.lock().map(|tx| tx.send(diff.clone()));
            }
        });
        let _watcher = start(&deck, Duration::from_millis(50)).unwrap();
        std::fs::create_dir_all(skills.join("b")).unwrap();
        std::fs::write(
            skills.join("b/SKILL.md"),
            "---\nname: b\ndescription: B.\n---\n",
        )
        .unwrap();
        // Generous bound: this waits for the event, it does not time the engine.
        let diff = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("a changed event");
        assert_eq!(diff.added, ["b"]);
    }
}
