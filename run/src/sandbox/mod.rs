//! Confinement prepared before the fork and applied in the child between fork and exec.
//!
//! Everything that allocates or opens files (Landlock rulesets with their path descriptors,
//! the compiled seccomp program) happens in [`prepare`], in the parent; the child only
//! makes syscalls ([`Prepared::apply_in_child`]), which is what `pre_exec` allows.
//!
//! What is enforced where:
//! - **Linux**: Landlock (ABI ≥ 1 required) makes the whole file system read-only, the work
//!   directory the only writable place (plus writing to `/dev/null`); with ABI ≥ 4 it also
//!   denies TCP connect and bind. seccomp denies `socket(AF_INET | AF_INET6)` unless the
//!   network is allowed, and `setsid`/`setpgid` so no process leaves the group the runner
//!   kills. rlimits cap address space, file size and process count, and disable core
//!   dumps. A kernel without Landlock or seccomp is refused (`SANDBOX_UNAVAILABLE`), and so
//!   is a run under a user-mode emulator (qemu-user), which answers those system calls itself
//!   instead of passing them to the kernel; the message names the call, its errno and which
//!   of the two it is.
//! - **macOS, Windows and other systems**: no sandbox is implemented; a run is refused
//!   unless the caller opts out with [`crate::SandboxMode::None`]. The work directory,
//!   environment allowlist, timeout, output cap and (Unix) process-group kill still apply.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::{prepare, Prepared};

#[cfg(not(target_os = "linux"))]
mod other {
    use crate::error::RunError;
    use crate::options::{FsView, Limits};
    use std::path::Path;

    /// Nothing to apply: no sandbox exists on this system.
    pub struct Prepared;

    impl Prepared {
        pub fn report(&self) -> crate::options::SandboxReport {
            crate::options::SandboxReport::default()
        }

        pub fn apply_in_child(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Always refused: the caller must opt out explicitly.
    pub fn prepare(
        _work: &Path,
        _skill: &Path,
        _view: &FsView,
        _network: bool,
        _limits: &Limits,
    ) -> Result<Prepared, RunError> {
        Err(RunError::SandboxUnavailable(format!(
            "no sandbox is implemented on {}",
            std::env::consts::OS
        )))
    }
}
#[cfg(not(target_os = "linux"))]
pub use other::{prepare, Prepared};
