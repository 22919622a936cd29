//! The plain data a caller (CLI or binding) hands the runner and gets back.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default output cap per stream: plenty for a tool result, small enough for a prompt.
pub const DEFAULT_OUTPUT_LIMIT: usize = 1 << 20;
/// Default timeout when neither the caller nor the skill's `timeout` gives one.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether to confine the process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    /// Confine it (Linux: Landlock + seccomp + rlimits); refuse to run where that is not
    /// possible.
    #[default]
    Enforce,
    /// No confinement: an explicit opt-out for trusted skills. The work directory, process
    /// group, timeout, output cap and environment allowlist still apply.
    None,
}

/// What a sandboxed process may read besides the skill directory (read-only) and the work
/// directory (read-write).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FsView {
    /// The whole file system, read-only.
    #[default]
    ReadOnly,
    /// Only these paths (and what is below them), read-only; everything else is hidden.
    /// Include the interpreter's directories (`/usr`, `/bin`, `/lib`, ...). A path that does
    /// not exist is skipped.
    Only(Vec<PathBuf>),
}

/// What a sandbox enforced on this system.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxReport {
    /// The kernel's Landlock ABI version (file system rules need 1; TCP rules need 4).
    pub landlock_abi: u32,
    /// File system: writes only in the work directory; reads as `fs_view` says.
    pub filesystem: bool,
    /// IPv4/IPv6 sockets denied (seccomp), and TCP connect/bind denied by Landlock when
    /// `landlock_abi >= 4`; false when the network was allowed.
    pub network_denied: bool,
    /// seccomp also keeps the process in its group (`setsid`/`setpgid` denied).
    pub seccomp: bool,
    pub limits: Limits,
}

/// Resource limits applied to the process (Linux and other Unix systems, via rlimits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Address space in bytes (`RLIMIT_AS`). Generous by default: V8 and the JVM reserve
    /// large address ranges they never touch.
    pub memory_bytes: u64,
    /// Largest file the process may write (`RLIMIT_FSIZE`).
    pub file_size_bytes: u64,
    /// Processes of the user (`RLIMIT_NPROC`; not enforced for root by the kernel).
    pub processes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 8 << 30,
            file_size_bytes: 256 << 20,
            processes: 4096,
        }
    }
}

/// How to run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunOptions {
    /// Overrides the skill's `timeout` (else [`DEFAULT_TIMEOUT`]).
    pub timeout: Option<Duration>,
    /// Bytes kept per stream (stdout, stderr); `None` is [`DEFAULT_OUTPUT_LIMIT`].
    pub output_limit: Option<usize>,
    pub sandbox: SandboxMode,
    /// What the sandboxed process may read.
    pub fs_view: FsView,
    /// Let the process open network sockets (off by default).
    pub allow_network: bool,
    pub limits: Limits,
    /// The agent whose permission rules apply (else the deck's).
    pub agent: Option<String>,
    /// The user approved a skill whose permission is `ask`.
    pub approved: bool,
    /// Where work directories are created (default: the system temporary directory).
    pub work_root: Option<PathBuf>,
    /// Keep the work directory after the run (its path is in the outcome).
    pub keep_work_dir: bool,
}

/// A command skill run: its `parameters` as one JSON object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CommandRequest {
    pub skill: String,
    /// The input object (validated against `parameters` before anything runs).
    pub input: serde_json::Map<String, serde_json::Value>,
}

/// A `run_skill_script` call (seed 003's arguments, plus standard input).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScriptRequest {
    pub skill: String,
    /// Path inside the skill's `scripts/` directory.
    pub script: String,
    pub args: Vec<String>,
    /// Text on standard input (none: standard input is empty).
    pub stdin: Option<String>,
    /// Copy the files the script wrote here; must resolve inside the workspace (the deck's
    /// project directory).
    pub destination: Option<PathBuf>,
}

/// What happened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    pub skill: String,
    /// `None` when a signal ended the process (timeout, cancel, a crash).
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// `stdout` parsed as JSON, when it is JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<serde_json::Value>,
    /// Output beyond the cap was dropped (from either stream).
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration_ms: u64,
    /// Whether the sandbox confined the process.
    pub sandboxed: bool,
    /// What the sandbox enforced, mechanism by mechanism (absent without a sandbox).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxReport>,
    /// The files delivered to the destination (absolute paths).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<PathBuf>,
    /// The work directory, when kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_dir: Option<PathBuf>,
}

impl RunOutcome {
    /// Exit code 0, not stopped.
    pub fn success(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out && !self.cancelled
    }
}

/// Stops a run from any thread: the whole process group is killed.
#[derive(Clone, Debug, Default)]
pub struct CancelHandle(Arc<AtomicBool>);

impl CancelHandle {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Streamed while a run goes on, on the runner's threads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ExecEvent {
    /// The process started.
    Started { skill: String, target: String },
    /// A chunk of standard output (lossy UTF-8), within the cap.
    Stdout { text: String },
    /// A chunk of standard error (lossy UTF-8), within the cap.
    Stderr { text: String },
    /// The process ended (the outcome follows from `run_*`).
    Finished {
        exit_code: Option<i32>,
        duration_ms: u64,
        timed_out: bool,
        cancelled: bool,
        truncated: bool,
    },
}

/// The output/event callback type.
pub type EventCallback = Arc<dyn Fn(&ExecEvent) + Send + Sync>;

/// Cancellation and streaming for one run.
#[derive(Clone, Default)]
pub struct RunControl {
    pub cancel: CancelHandle,
    pub on_event: Option<EventCallback>,
}

impl RunControl {
    pub(crate) fn send(&self, event: &ExecEvent) {
        if let Some(callback) = &self.on_event {
            callback(event);
        }
    }
}
