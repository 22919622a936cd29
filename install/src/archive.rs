//! Extracting `.tar.gz`/`.tgz` and `.zip` archives, refusing any entry that could write
//! outside the destination or create something other than files, directories and links
//! that stay inside.

use crate::error::{InstallError, Result};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The archive formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// gzip-compressed tar.
    TarGz,
    /// zip (stored or deflate).
    Zip,
}

impl Kind {
    /// The format named by a URL's extension (query and fragment ignored).
    pub fn from_url(url: &str) -> Option<Kind> {
        let lower = url.to_ascii_lowercase();
        let path = lower.split(['?', '#']).next().unwrap_or("");
        if path.ends_with(".tar.gz") || path.ends_with(".tgz") {
            Some(Kind::TarGz)
        } else if path.ends_with(".zip") {
            Some(Kind::Zip)
        } else {
            None
        }
    }
}

/// Caps on what one archive may expand to (a zip bomb stops here, not on the disk).
#[derive(Debug, Clone, Copy)]
pub struct ExtractLimits {
    /// Entries in the archive.
    pub max_entries: u64,
    /// Bytes once expanded.
    pub max_bytes: u64,
}

struct Guard<'a> {
    label: &'a str,
    limits: ExtractLimits,
    entries: u64,
    bytes: u64,
}

impl Guard<'_> {
    fn refuse(&self, entry: &str, reason: &str) -> InstallError {
        InstallError::UnsafeArchive {
            archive: self.label.to_string(),
            entry: entry.to_string(),
            reason: reason.to_string(),
        }
    }

    /// The entry's path, relative and without `..`, or a refusal.
    fn relative(&self, raw: &str) -> Result<PathBuf> {
        if raw.starts_with('/') || raw.starts_with('\\') || raw.contains('\\') {
            return Err(self.refuse(raw, "has an absolute path or a backslash"));
        }
        let mut out = PathBuf::new();
        for part in Path::new(raw).components() {
            match part {
                Component::Normal(p) => out.push(p),
                Component::CurDir => {}
                Component::ParentDir => return Err(self.refuse(raw, "contains `..`")),
                Component::RootDir | Component::Prefix(_) => {
                    return Err(self.refuse(raw, "has an absolute path"))
                }
            }
        }
        Ok(out)
    }

    /// A link target must resolve, from the link's own directory, to a path inside the root.
    fn check_link(&self, entry: &str, rel: &Path, target: &str) -> Result<()> {
        if target.starts_with('/') || target.contains('\\') {
            return Err(self.refuse(entry, "is a link to an absolute path"));
        }
        let mut depth: i64 = rel.components().count() as i64 - 1;
        for part in Path::new(target).components() {
            match part {
                Component::ParentDir => depth -= 1,
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                _ => return Err(self.refuse(entry, "is a link to an absolute path")),
            }
            if depth < 0 {
                return Err(self.refuse(entry, "is a link that points outside the archive"));
            }
        }
        Ok(())
    }

    fn count(&mut self, entry: &str, size: u64) -> Result<()> {
        self.entries += 1;
        self.bytes = self.bytes.saturating_add(size);
        if self.entries > self.limits.max_entries {
            return Err(self.refuse(
                entry,
                &format!("exceeds the {}-entry cap", self.limits.max_entries),
            ));
        }
        if self.bytes > self.limits.max_bytes {
            return Err(self.refuse(
                entry,
                &format!(
                    "exceeds the {}-byte expanded-size cap",
                    self.limits.max_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// Extract `bytes` into the existing, empty directory `dest`.
pub fn extract(
    bytes: &[u8],
    kind: Kind,
    dest: &Path,
    label: &str,
    limits: ExtractLimits,
) -> Result<()> {
    let mut guard = Guard {
        label,
        limits,
        entries: 0,
        bytes: 0,
    };
    match kind {
        Kind::TarGz => extract_tar(bytes, dest, &mut guard),
        Kind::Zip => extract_zip(bytes, dest, &mut guard),
    }
}

fn write_file(
    dest: &Path,
    rel: &Path,
    reader: &mut dyn Read,
    guard: &Guard,
    declared: u64,
    mode: u32,
) -> Result<()> {
    let path = dest.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
    }
    let mut file = std::fs::File::create(&path).map_err(|e| InstallError::io(&path, e))?;
    // The budget counted the declared size; an entry that expands past it (a lying header)
    // is stopped here, not on the disk.
    let budget = declared.saturating_add(1);
    let written = std::io::copy(&mut reader.take(budget), &mut file)
        .map_err(|e| InstallError::io(&path, e))?;
    if written >= budget {
        let raw = rel.to_string_lossy();
        return Err(guard.refuse(&raw, "expands past its declared size"));
    }
    // Scripts keep their executable bit; nothing else of the stored mode (no setuid,
    // no world-writable files).
    #[cfg(unix)]
    if mode & 0o111 != 0 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| InstallError::io(&path, e))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    Ok(())
}

fn extract_tar(bytes: &[u8], dest: &Path, guard: &mut Guard) -> Result<()> {
    let gz = flate2::read::GzDecoder::new(bytes);
    let mut archive = tar::Archive::new(gz);
    let label = guard.label.to_string();
    let bad = |e: std::io::Error| InstallError::UnsafeArchive {
        archive: label.clone(),
        entry: String::new(),
        reason: format!("cannot be read ({e})"),
    };
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let rel = guard.relative(&raw)?;
        let kind = entry.header().entry_type();
        guard.count(&raw, entry.header().size().unwrap_or(0))?;
        if rel.as_os_str().is_empty() {
            continue;
        }
        match kind {
            tar::EntryType::Directory => {
                let dir = dest.join(&rel);
                std::fs::create_dir_all(&dir).map_err(|e| InstallError::io(&dir, e))?;
            }
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                let size = entry.header().size().unwrap_or(0);
                let mode = entry.header().mode().unwrap_or(0o644);
                write_file(dest, &rel, &mut entry, guard, size, mode)?;
            }
            tar::EntryType::Symlink | tar::EntryType::Link => {
                let target = entry
                    .link_name_bytes()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default();
                if kind == tar::EntryType::Link {
                    // A hard link names another entry by its archive path.
                    let target_rel = guard.relative(&target)?;
                    let from = dest.join(&target_rel);
                    let to = dest.join(&rel);
                    std::fs::copy(&from, &to).map_err(|e| InstallError::io(&from, e))?;
                } else {
                    guard.check_link(&raw, &rel, &target)?;
                    make_symlink(&target, &dest.join(&rel))?;
                }
            }
            tar::EntryType::XGlobalHeader
            | tar::EntryType::XHeader
            | tar::EntryType::GNULongName
            | tar::EntryType::GNULongLink => {}
            _ => return Err(guard.refuse(&raw, "is a device, fifo or other special file")),
        }
    }
    Ok(())
}

fn extract_zip(bytes: &[u8], dest: &Path, guard: &mut Guard) -> Result<()> {
    let label = guard.label.to_string();
    let bad = |e: zip::result::ZipError| InstallError::UnsafeArchive {
        archive: label.clone(),
        entry: String::new(),
        reason: format!("cannot be read ({e})"),
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(bad)?;
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).map_err(bad)?;
        let raw = file.name().to_string();
        let rel = guard.relative(&raw)?;
        guard.count(&raw, file.size())?;
        if rel.as_os_str().is_empty() {
            continue;
        }
        let mode = file.unix_mode().unwrap_or(0);
        let file_type = mode & 0o170000;
        if file.is_dir() {
            let dir = dest.join(&rel);
            std::fs::create_dir_all(&dir).map_err(|e| InstallError::io(&dir, e))?;
        } else if file_type == 0o120000 {
            let mut target = String::new();
            file.read_to_string(&mut target)
                .map_err(|e| guard.refuse(&raw, &format!("has an unreadable link target ({e})")))?;
            guard.check_link(&raw, &rel, &target)?;
            make_symlink(&target, &dest.join(&rel))?;
        } else if file_type == 0 || file_type == 0o100000 {
            let size = file.size();
            write_file(dest, &rel, &mut file, guard, size, mode)?;
        } else {
            return Err(guard.refuse(&raw, "is a device, fifo or other special file"));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn make_symlink(target: &str, at: &Path) -> Result<()> {
    if let Some(parent) = at.parent() {
        std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
    }
    std::os::unix::fs::symlink(target, at).map_err(|e| InstallError::io(at, e))
}

#[cfg(not(unix))]
fn make_symlink(_target: &str, _at: &Path) -> Result<()> {
    // Links inside a skill are dropped where the platform cannot make them portably.
    Ok(())
}
