//! The I/O floor: the least work any skill loader must do on a corpus — walk the same
//! roots and read every `SKILL.md` completely — with no parsing at all. A loader that only
//! reads frontmatter prefixes and walks in parallel can beat it; everything else is
//! measured as a ratio to it.
//!
//! Same walk rules as the engine: `.git` and `node_modules` are skipped, directory
//! symlinks are followed once per (device, inode), so loops end and aliases are read once.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

/// What a walk saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub dirs: u64,
    pub files: u64,
    pub bytes: u64,
    pub errors: u64,
}

impl Totals {
    fn add(&mut self, other: Totals) {
        self.dirs += other.dirs;
        self.files += other.files;
        self.bytes += other.bytes;
        self.errors += other.errors;
    }
}

const SKIP: [&str; 2] = [".git", "node_modules"];

#[cfg(unix)]
fn dir_key(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn dir_key(_meta: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

struct Queue {
    state: Mutex<QueueState>,
    ready: Condvar,
}

struct QueueState {
    dirs: Vec<PathBuf>,
    /// Workers currently expanding a directory (which may push more work).
    busy: usize,
}

/// Walk `roots` with `threads` workers, reading every SKILL.md fully.
pub fn walk(roots: &[PathBuf], threads: usize) -> Totals {
    let visited = Mutex::new(HashSet::new());
    let queue = Queue {
        state: Mutex::new(QueueState {
            dirs: Vec::new(),
            busy: 0,
        }),
        ready: Condvar::new(),
    };
    for root in roots {
        if let Ok(meta) = std::fs::metadata(root) {
            if meta.is_dir()
                && visited
                    .lock()
                    .map(|mut v| v.insert(dir_key(&meta)))
                    .unwrap_or(false)
            {
                if let Ok(mut state) = queue.state.lock() {
                    state.dirs.push(root.clone());
                }
            }
        }
    }
    let totals = Mutex::new(Totals::default());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let local = worker(&queue, &visited);
                if let Ok(mut t) = totals.lock() {
                    t.add(local);
                }
            });
        }
    });
    totals.into_inner().unwrap_or_default()
}

fn worker(queue: &Queue, visited: &Mutex<HashSet<(u64, u64)>>) -> Totals {
    let mut totals = Totals::default();
    let mut buf = Vec::with_capacity(64 * 1024);
    loop {
        let dir = {
            let Ok(mut state) = queue.state.lock() else {
                return totals;
            };
            loop {
                if let Some(dir) = state.dirs.pop() {
                    state.busy += 1;
                    break dir;
                }
                if state.busy == 0 {
                    queue.ready.notify_all();
                    return totals;
                }
                state = match queue.ready.wait(state) {
                    Ok(s) => s,
                    Err(_) => return totals,
                };
            }
        };
        let found = expand(&dir, visited, &mut totals, &mut buf);
        let Ok(mut state) = queue.state.lock() else {
            return totals;
        };
        state.busy -= 1;
        state.dirs.extend(found);
        queue.ready.notify_all();
    }
}

/// List one directory: read its SKILL.md, return subdirectories not seen before.
fn expand(
    dir: &Path,
    visited: &Mutex<HashSet<(u64, u64)>>,
    totals: &mut Totals,
    buf: &mut Vec<u8>,
) -> Vec<PathBuf> {
    totals.dirs += 1;
    let mut subdirs = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        totals.errors += 1;
        return subdirs;
    };
    for entry in entries {
        let Ok(entry) = entry else {
            totals.errors += 1;
            continue;
        };
        let name = entry.file_name();
        if SKIP.iter().any(|s| name == *s) {
            continue;
        }
        let Ok(mut ft) = entry.file_type() else {
            totals.errors += 1;
            continue;
        };
        let path = entry.path();
        if ft.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(meta) => ft = meta.file_type(),
                Err(_) => {
                    totals.errors += 1; // dangling link or a link cycle
                    continue;
                }
            }
        }
        if ft.is_dir() {
            let Ok(meta) = std::fs::metadata(&path) else {
                totals.errors += 1;
                continue;
            };
            let fresh = visited
                .lock()
                .map(|mut v| v.insert(dir_key(&meta)))
                .unwrap_or(false);
            if fresh {
                subdirs.push(path);
            }
        } else if ft.is_file() && name == "SKILL.md" {
            buf.clear();
            match std::fs::File::open(&path).and_then(|mut f| f.read_to_end(buf)) {
                Ok(n) => {
                    totals.files += 1;
                    totals.bytes += n as u64;
                }
                Err(_) => totals.errors += 1,
            }
        }
    }
    subdirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    #[test]
    fn floor_reads_each_generated_skill_once_with_any_thread_count() {
        let tmp = std::env::temp_dir().join(format!("skilldeck-floor-test-{}", std::process::id()));
        let layout = Layout::new(&tmp);
        let summary = crate::corpus::generate(&layout, 80, 5).expect("generate");
        let roots = layout.universal_roots();
        let one = walk(&roots, 1);
        let two = walk(&roots, 2);
        assert_eq!(one.files as usize, summary.skill_files);
        assert_eq!(one.bytes, summary.skill_md_bytes);
        assert_eq!(one, two);
        // The cycle pair and the dangling link are reported, not fatal.
        assert!(one.errors >= 3);
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
