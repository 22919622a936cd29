//! Claude Code 2.1.197's orphaned plugin versions (its bundle's `r1e`, `OMl`, `jDf`): a cache
//! version directory no `installed_plugins.json` entry points at gets a `.orphaned_at` file
//! (the time in milliseconds) when an uninstall, update or marketplace removal gives it up;
//! the sweep Claude Code runs at start-up marks any other unreferenced version, deletes those
//! whose marker is older than 14 days, then removes emptied plugin and marketplace folders.
//! Installing into a marked directory replaces it, marker included. Claude Code also skips a
//! directory a live session still uses; skilldeck cannot see sessions and sweeps only during
//! its own plugin operations.

use crate::plugin::claude::{read_json, ClaudeLayout, InstalledPlugins};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The marker's name.
pub const MARKER: &str = ".orphaned_at";
/// How long a marked version is kept (Claude Code's `NDf`, 1 209 600 000 ms).
pub const KEEP_FOR: Duration = Duration::from_millis(1_209_600_000);

/// Mark `dir` orphaned now. Best effort, as in Claude Code: a failure is only logged there.
pub fn mark(dir: &Path) {
    let ms = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    let _ = std::fs::write(dir.join(MARKER), ms.to_string());
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

fn remove_if_empty(dir: &Path) {
    if subdirs(dir).is_empty() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Claude Code's start-up sweep over `<plugins>/cache/<marketplace>/<plugin>/<version>`, with
/// `now` as the time. Nothing happens when `installed_plugins.json` cannot be read (Claude
/// Code gives up the same way rather than treat every version as unused).
pub fn sweep_at(layout: &ClaudeLayout, now: SystemTime) {
    let installed: InstalledPlugins = match read_json(&layout.installed_plugins()) {
        Ok(Some(v)) => v,
        _ => return,
    };
    let used: HashSet<PathBuf> = installed
        .plugins
        .values()
        .flatten()
        .map(|i| PathBuf::from(&i.install_path))
        .collect();
    if used.is_empty() {
        return;
    }
    let cache = layout.plugins_dir().join("cache");
    for market in subdirs(&cache) {
        for plugin in subdirs(&market) {
            for version in subdirs(&plugin) {
                if used.contains(&version) {
                    continue;
                }
                let marked = std::fs::metadata(version.join(MARKER)).and_then(|m| m.modified());
                match marked {
                    Err(_) => mark(&version),
                    Ok(at) => {
                        if now.duration_since(at).is_ok_and(|age| age > KEEP_FOR) {
                            let _ = std::fs::remove_dir_all(&version);
                        }
                    }
                }
            }
            remove_if_empty(&plugin);
        }
        remove_if_empty(&market);
    }
}

/// [`sweep_at`] now.
pub fn sweep(layout: &ClaudeLayout) {
    sweep_at(layout, SystemTime::now());
}
