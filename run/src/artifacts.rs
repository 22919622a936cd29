//! Delivering the files a run wrote to a destination inside the workspace.

use crate::error::RunError;
use std::path::{Path, PathBuf};

/// `destination` (relative to `workspace`, or absolute) resolved, refused unless it stays
/// inside `workspace` once links in its existing part are resolved.
pub fn resolve_destination(workspace: &Path, destination: &Path) -> Result<PathBuf, RunError> {
    let refuse = || RunError::DestinationRefused {
        path: destination.to_path_buf(),
        workspace: workspace.to_path_buf(),
    };
    let root = workspace
        .canonicalize()
        .map_err(|e| RunError::io(workspace, e))?;
    let joined = if destination.is_absolute() {
        destination.to_path_buf()
    } else {
        root.join(destination)
    };
    // Resolve the longest existing prefix (links included), then append the rest, which
    // must be plain names.
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    let resolved = loop {
        match existing.canonicalize() {
            Ok(path) => break path,
            Err(_) => {
                let name = existing.file_name().ok_or_else(refuse)?;
                rest.push(name.to_os_string());
                existing = existing.parent().ok_or_else(refuse)?;
            }
        }
    };
    let mut path = resolved;
    for name in rest.into_iter().rev() {
        path.push(name);
    }
    if !path.starts_with(&root) {
        return Err(refuse());
    }
    Ok(path)
}

/// Copy every regular file under `work` (except `skip`) to `destination`, keeping relative
/// paths. Links are not followed; an existing link at a target is refused.
pub fn deliver(work: &Path, skip: &Path, destination: &Path) -> Result<Vec<PathBuf>, RunError> {
    let mut delivered = Vec::new();
    let mut stack = vec![work.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| RunError::io(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| RunError::io(&dir, e))?;
            let path = entry.path();
            if path == skip {
                continue;
            }
            let kind = entry.file_type().map_err(|e| RunError::io(&path, e))?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let rel = path.strip_prefix(work).unwrap_or(&path);
                let target = destination.join(rel);
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| RunError::io(parent, e))?;
                }
                if std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink()) {
                    return Err(RunError::DestinationRefused {
                        path: target,
                        workspace: destination.to_path_buf(),
                    });
                }
                std::fs::copy(&path, &target).map_err(|e| RunError::io(&target, e))?;
                delivered.push(target);
            }
        }
    }
    delivered.sort();
    Ok(delivered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_is_accepted_outside_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(ws.join("out")).expect("mkdir");
        let root = ws.canonicalize().expect("canonical");
        assert_eq!(
            resolve_destination(&ws, Path::new("out/new/deeper")).expect("inside"),
            root.join("out/new/deeper")
        );
        for bad in ["../elsewhere", "out/../../x", "/tmp", "/etc/x"] {
            assert!(
                matches!(
                    resolve_destination(&ws, Path::new(bad)),
                    Err(RunError::DestinationRefused { .. })
                ),
                "{bad}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_leading_out_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(&ws).expect("mkdir");
        std::os::unix::fs::symlink(dir.path(), ws.join("up")).expect("symlink");
        assert!(matches!(
            resolve_destination(&ws, Path::new("up/x")),
            Err(RunError::DestinationRefused { .. })
        ));
    }
}
