//! # skilldeck-install
//!
//! Install Agent Skills from a local directory, a git repository, an archive URL or a site's
//! well-known discovery index, and keep an exact, checkable `skills-lock.json`.
//!
//! Every operation is a synchronous function taking plain data ([`Context`] plus a request)
//! and returning a serialisable report, so a binding can call it on a worker thread; an
//! optional [`ProgressFn`] hears what is happening.
//!
//! Safety: each skill is staged in a temporary directory beside its target and renamed into
//! place only after every selected skill staged cleanly, and the lock is written atomically
//! afterwards — a failure leaves the tree and the lock as they were. Symlinks leaving a skill
//! are skipped (never copied through), archives with `..`, absolute, device or escaping link
//! entries are refused, skills are capped (512 files, 16 MiB by default) and names must be
//! valid skill names.
//!
//! ```no_run
//! use skilldeck_install::{add, verify, AddRequest, Context, Progress, Scope};
//! let ctx = Context::new(".");
//! let request = AddRequest {
//!     source: "github:acme/skills@v1".into(),
//!     skills: vec!["pdf".into()],
//!     ..Default::default()
//! };
//! let show = |p: &Progress| eprintln!("{} {}", p.phase, p.message);
//! let report = add(&ctx, &request, Some(&show))?;
//! for skill in &report.installed {
//!     println!("{} {} {}", skill.name, skill.entry.path, skill.entry.digest);
//! }
//! assert!(verify(&ctx, Scope::Project)?.clean);
//! # Ok::<(), skilldeck_install::InstallError>(())
//! ```

#![warn(missing_docs)]

mod archive;
mod error;
mod git;
mod http;
mod index;
mod ops;
pub mod plugin;
mod select;
mod source;
mod stage;

pub use error::{InstallError, Result};
pub use ops::{
    add, install_frozen, installed, remove, update, verify, AddReport, AddRequest, FrozenReport,
    InstalledSkill, RemoveReport, SkillAudit, SkillVerify, UpdateChange, UpdateReport,
    VerifyReport,
};
pub use plugin::ops::{
    marketplace_add, marketplace_list, marketplace_remove, marketplace_update, plugin_install,
    plugin_list, plugin_set_enabled, plugin_uninstall, plugin_update, MarketplaceInfo,
    MarketplaceRemoveReport, MarketplaceUpdate, PluginContext, PluginInfo, PluginInstallReport,
    PluginInstallRequest, PluginUninstallReport, PluginUpdateChange, PluginUpdateReport,
};
pub use plugin::{PluginHost, PluginScope};
pub use source::Source;

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Which lock and which directories an operation works on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The project: `<project>/skills-lock.json`, skills under `<project>/.agents/skills`.
    #[default]
    Project,
    /// The user: skills under `~/.agents/skills`, the lock at
    /// `$XDG_CONFIG_HOME/skilldeck/skills-lock.json` (default `~/.config/skilldeck/…`).
    User,
}

/// Caps on what one operation may fetch and install.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Files per skill (default 512, the MCP skills limit).
    pub max_files: usize,
    /// Bytes per skill (default 16 MiB, the MCP skills limit).
    pub max_bytes: u64,
    /// Bytes of one download (an archive or an index; default 64 MiB).
    pub max_download_bytes: u64,
    /// Entries of one archive (default 10,000).
    pub max_archive_entries: u64,
    /// Bytes one archive may expand to (default 256 MiB).
    pub max_archive_bytes: u64,
    /// Whole-request HTTP timeout.
    #[serde(with = "secs")]
    pub timeout: Duration,
}

mod secs {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(Duration::from_secs(u64::deserialize(d)?))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_files: 512,
            max_bytes: 16 * 1024 * 1024,
            max_download_bytes: 64 * 1024 * 1024,
            max_archive_entries: 10_000,
            max_archive_bytes: 256 * 1024 * 1024,
            timeout: Duration::from_secs(60),
        }
    }
}

/// The directories an operation resolves against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Context {
    /// The project root (holds `skills-lock.json`).
    pub project_dir: PathBuf,
    /// The home directory, for `Scope::User`.
    pub home_dir: Option<PathBuf>,
    /// The user-scope lock; default `$XDG_CONFIG_HOME/skilldeck/skills-lock.json`, else
    /// `<home>/.config/skilldeck/skills-lock.json`.
    pub user_lock: Option<PathBuf>,
    /// Caps.
    pub limits: Limits,
}

impl Context {
    /// A context for `project_dir` with the current user's home and default caps.
    pub fn new(project_dir: impl Into<PathBuf>) -> Context {
        Context {
            project_dir: project_dir.into(),
            home_dir: std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .map(PathBuf::from),
            user_lock: None,
            limits: Limits::default(),
        }
    }

    /// The directory install paths are relative to, and the lock file, for `scope`.
    pub fn base_and_lock(&self, scope: Scope) -> Result<(PathBuf, PathBuf)> {
        match scope {
            Scope::Project => Ok((
                self.project_dir.clone(),
                self.project_dir.join(skilldeck::LOCK_FILE_NAME),
            )),
            Scope::User => {
                let Some(home) = self.home_dir.clone() else {
                    return Err(InstallError::BadSource {
                        source_spec: "--scope user".into(),
                        message: "no home directory is known; set HOME".into(),
                    });
                };
                let lock = self.user_lock.clone().unwrap_or_else(|| {
                    let config = std::env::var_os("XDG_CONFIG_HOME")
                        .map(PathBuf::from)
                        .filter(|p| p.is_absolute())
                        .unwrap_or_else(|| home.join(".config"));
                    config.join("skilldeck").join(skilldeck::LOCK_FILE_NAME)
                });
                Ok((home, lock))
            }
        }
    }
}

/// One step of an operation, for a progress display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// `fetch`, `stage`, `install`, `verify` or `lock`.
    pub phase: String,
    /// What is being done, e.g. the URL or the skill's name.
    pub message: String,
}

/// A progress callback; called on the operation's own thread. It may borrow from the caller
/// (the lifetime), so a binding can forward to a host callback without `'static` juggling.
pub type ProgressFn<'a> = dyn Fn(&Progress) + Send + Sync + 'a;

pub(crate) fn report(progress: Option<&ProgressFn<'_>>, phase: &str, message: impl Into<String>) {
    if let Some(progress) = progress {
        progress(&Progress {
            phase: phase.to_string(),
            message: message.into(),
        });
    }
}
