//! Copying one skill into a staging directory: regular files only, symlinks followed only
//! while they stay inside the skill, capped in count and size.

use crate::error::{InstallError, Result};
use crate::Limits;
use std::path::Path;

/// Copy the skill at `src` into `dest` (created). Returns warnings for what was skipped.
pub fn copy_skill(src: &Path, dest: &Path, limits: &Limits) -> Result<Vec<String>> {
    let root = std::fs::canonicalize(src).map_err(|e| InstallError::io(src, e))?;
    let mut state = State {
        root,
        limits,
        files: 0,
        bytes: 0,
        warnings: Vec::new(),
        skill: src,
    };
    std::fs::create_dir_all(dest).map_err(|e| InstallError::io(dest, e))?;
    state.copy_dir(src, dest, "")?;
    Ok(state.warnings)
}

struct State<'a> {
    root: std::path::PathBuf,
    limits: &'a Limits,
    files: usize,
    bytes: u64,
    warnings: Vec<String>,
    skill: &'a Path,
}

impl State<'_> {
    fn copy_dir(&mut self, src: &Path, dest: &Path, rel: &str) -> Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(src)
            .map_err(|e| InstallError::io(src, e))?
            .collect::<std::io::Result<_>>()
            .map_err(|e| InstallError::io(src, e))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                return Err(InstallError::BadSource {
                    source_spec: path.display().to_string(),
                    message: "the file name is not UTF-8, so the lock cannot record it; rename it"
                        .into(),
                });
            };
            let rel_child = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let kind = entry.file_type().map_err(|e| InstallError::io(&path, e))?;
            if kind.is_dir() {
                if name == ".git" {
                    continue;
                }
                let sub = dest.join(&name);
                std::fs::create_dir(&sub).map_err(|e| InstallError::io(&sub, e))?;
                self.copy_dir(&path, &sub, &rel_child)?;
            } else if kind.is_file() {
                self.copy_file(&path, &dest.join(&name), &rel_child)?;
            } else if kind.is_symlink() {
                match std::fs::canonicalize(&path) {
                    Ok(target) if target.starts_with(&self.root) && target.is_file() => {
                        self.copy_file(&target, &dest.join(&name), &rel_child)?
                    }
                    Ok(target) if target.starts_with(&self.root) => self.warnings.push(format!(
                        "{}: `{rel_child}` is a symlinked directory; skipped (copy it in place of the link to install it)",
                        self.skill.display()
                    )),
                    _ => self.warnings.push(format!(
                        "{}: `{rel_child}` is a symlink that leaves the skill (or dangles); skipped, its target was not copied",
                        self.skill.display()
                    )),
                }
            } else {
                self.warnings.push(format!(
                    "{}: `{rel_child}` is not a regular file (fifo, socket or device); skipped",
                    self.skill.display()
                ));
            }
        }
        Ok(())
    }

    fn copy_file(&mut self, from: &Path, to: &Path, rel: &str) -> Result<()> {
        let size = std::fs::metadata(from)
            .map_err(|e| InstallError::io(from, e))?
            .len();
        self.files += 1;
        self.bytes = self.bytes.saturating_add(size);
        if self.files > self.limits.max_files {
            return Err(InstallError::TooLarge {
                path: self.skill.to_path_buf(),
                message: format!(
                    "more than {} files (at `{rel}`); raise the file cap (--max-files) if the skill really needs them",
                    self.limits.max_files
                ),
            });
        }
        if self.bytes > self.limits.max_bytes {
            return Err(InstallError::TooLarge {
                path: self.skill.to_path_buf(),
                message: format!(
                    "more than {} bytes (at `{rel}`); raise the size cap (--max-bytes) if the skill really needs them",
                    self.limits.max_bytes
                ),
            });
        }
        std::fs::copy(from, to).map_err(|e| InstallError::io(from, e))?;
        Ok(())
    }
}
