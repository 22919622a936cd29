//! The repository root and the ancestor walk from the project directory up to it.

use std::path::{Path, PathBuf};

/// The nearest ancestor of `project` (itself included) holding `.git` (a directory, or the
/// file a worktree or submodule uses); `project` itself when there is none. Also returns every
/// `.git` path probed, so the cache can notice a repository appearing or vanishing.
/// Use [`in_repository`] to tell the two cases apart.
pub fn repo_root(project: &Path) -> (PathBuf, Vec<PathBuf>) {
    let mut probed = Vec::new();
    for dir in project.ancestors() {
        let marker = dir.join(".git");
        let found = std::fs::symlink_metadata(&marker).is_ok();
        probed.push(marker);
        if found {
            return (dir.to_path_buf(), probed);
        }
    }
    (project.to_path_buf(), probed)
}

/// Whether `root` (from [`repo_root`]) really holds a `.git`.
pub fn in_repository(root: &Path) -> bool {
    std::fs::symlink_metadata(root.join(".git")).is_ok()
}

/// `project`, then each parent up to and including `root` (nearest first). When `root` is
/// not an ancestor of `project`, just `project`.
pub fn ancestors(project: &Path, root: &Path) -> Vec<PathBuf> {
    if !project.starts_with(root) {
        return vec![project.to_path_buf()];
    }
    let mut out = Vec::new();
    for dir in project.ancestors() {
        out.push(dir.to_path_buf());
        if dir == root {
            break;
        }
    }
    out
}

/// `project`, then `root` when it is another directory above `project` (the directories
/// between them are left out).
pub fn project_then_root(project: &Path, root: &Path) -> Vec<PathBuf> {
    let mut out = vec![project.to_path_buf()];
    if root != project && project.starts_with(root) {
        out.push(root.to_path_buf());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nearest_git_file_or_dir() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("repo");
        let project = root.join("a/b");
        std::fs::create_dir_all(&project).unwrap();
        assert_eq!(repo_root(&project).0, project);
        std::fs::write(root.join(".git"), "gitdir: elsewhere").unwrap();
        let (found, probed) = repo_root(&project);
        assert_eq!(found, root);
        assert_eq!(probed.len(), 3);
        assert_eq!(
            ancestors(&project, &root),
            vec![project.clone(), root.join("a"), root.clone()]
        );
    }

    #[test]
    fn project_then_root_skips_the_directories_between() {
        let (project, root) = (Path::new("/r/a/b"), Path::new("/r"));
        assert_eq!(
            project_then_root(project, root),
            vec![PathBuf::from("/r/a/b"), PathBuf::from("/r")]
        );
        assert_eq!(
            project_then_root(project, project),
            vec![project.to_path_buf()]
        );
        assert_eq!(
            project_then_root(project, Path::new("/c")),
            vec![project.to_path_buf()]
        );
    }

    #[test]
    fn unrelated_root_yields_only_the_project() {
        assert_eq!(
            ancestors(Path::new("/a/b"), Path::new("/c")),
            vec![PathBuf::from("/a/b")]
        );
    }
}
