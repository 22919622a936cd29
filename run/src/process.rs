//! Starting the process in its own group, feeding standard input, capturing capped output,
//! and killing the whole group on timeout, on cancel, and when the leader exits.

use crate::error::RunError;
use crate::options::{ExecEvent, RunControl};
use crate::sandbox::Prepared;
use crate::script::Invocation;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Everything the process needs.
pub struct Spec {
    pub invocation: Invocation,
    pub cwd: PathBuf,
    pub env: Vec<(OsString, OsString)>,
    pub stdin: Option<Vec<u8>>,
    pub timeout: Duration,
    pub output_limit: usize,
}

/// How it ended.
#[derive(Debug, Default)]
pub struct Finished {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration: Duration,
}

#[derive(Default)]
struct Capture {
    bytes: Vec<u8>,
    truncated: bool,
}

/// How long the output readers may take after the group is gone (a descendant that
/// escaped the group, possible only without the sandbox, may hold a pipe open).
const DRAIN_GRACE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(5);
#[cfg(unix)]
const ENOSYS: i32 = libc::ENOSYS;
#[cfg(not(unix))]
const ENOSYS: i32 = 38;

/// Run `spec` to the end (or the timeout, or a cancel).
pub fn execute(
    spec: Spec,
    sandbox: Option<Prepared>,
    control: &RunControl,
) -> Result<Finished, RunError> {
    let sandboxed = sandbox.is_some();
    let mut command = Command::new(&spec.invocation.program);
    command
        .args(&spec.invocation.args)
        .current_dir(&spec.cwd)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        let mut sandbox = sandbox;
        // SAFETY: only async-signal-safe syscalls run here (prctl, setrlimit,
        // landlock_restrict_self, seccomp); everything was allocated before fork.
        unsafe {
            command.pre_exec(move || {
                #[cfg(target_os = "linux")]
                {
                    // If the runner dies (skilldeck killed), the skill dies with it.
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                match sandbox.as_mut() {
                    Some(prepared) => prepared.apply_in_child(),
                    None => Ok(()),
                }
            });
        }
    }
    #[cfg(not(unix))]
    drop(sandbox);
    let start = Instant::now();
    let mut child = command.spawn().map_err(|source| {
        // `apply_in_child` reports a sandbox the kernel would not apply as ENOSYS.
        if sandboxed && source.raw_os_error() == Some(ENOSYS) {
            RunError::SandboxUnavailable(
                "the kernel refused to apply Landlock or seccomp to the process".into(),
            )
        } else {
            RunError::Spawn {
                program: spec.invocation.program.clone(),
                source,
            }
        }
    })?;
    if let (Some(bytes), Some(mut stdin)) = (spec.stdin, child.stdin.take()) {
        // A child that does not read its input must not block us: write on a thread and
        // ignore a closed pipe.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let out = Arc::new(Mutex::new(Capture::default()));
    let err = Arc::new(Mutex::new(Capture::default()));
    if let Some(pipe) = child.stdout.take() {
        reader(
            pipe,
            out.clone(),
            spec.output_limit,
            control.clone(),
            true,
            done_tx.clone(),
        );
    }
    if let Some(pipe) = child.stderr.take() {
        reader(
            pipe,
            err.clone(),
            spec.output_limit,
            control.clone(),
            false,
            done_tx.clone(),
        );
    }
    drop(done_tx);

    let pid = child.id();
    let deadline = start + spec.timeout;
    let mut finished = Finished::default();
    loop {
        if exited(&mut child, pid)? {
            break;
        }
        if control.cancel.is_cancelled() {
            finished.cancelled = true;
            break;
        }
        if Instant::now() >= deadline {
            finished.timed_out = true;
            break;
        }
        std::thread::sleep(POLL);
    }
    // The leader exited (not yet reaped, so its group id is still ours) or we stop it:
    // either way nothing of the group may outlive the run.
    kill_group(pid, &mut child);
    let status = child.wait().map_err(|e| RunError::Spawn {
        program: spec.invocation.program.clone(),
        source: e,
    })?;
    finished.duration = start.elapsed();
    let drain_until = Instant::now() + DRAIN_GRACE;
    for _ in 0..2 {
        let left = drain_until.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            break;
        }
    }
    finished.exit_code = status.code();
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        finished.signal = status.signal();
    }
    let take = |capture: &Arc<Mutex<Capture>>| match capture.lock() {
        Ok(mut c) => (String::from_utf8_lossy(&c.bytes).into_owned(), {
            let t = c.truncated;
            c.bytes.clear();
            t
        }),
        Err(_) => (String::new(), false),
    };
    let (stdout, out_cut) = take(&out);
    let (stderr, err_cut) = take(&err);
    finished.stdout = stdout;
    finished.stderr = stderr;
    finished.truncated = out_cut || err_cut;
    Ok(finished)
}

/// Has the child exited? On Unix, without reaping it (`WNOWAIT`), so its process group id
/// cannot be reused before we kill the group.
fn exited(child: &mut std::process::Child, pid: u32) -> Result<bool, RunError> {
    #[cfg(unix)]
    {
        let _ = child;
        // SAFETY: waitid on our own child with a zeroed siginfo it fills in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if rc != 0 {
            return Err(RunError::io(
                format!("process {pid}"),
                std::io::Error::last_os_error(),
            ));
        }
        // SAFETY: reading the pid field waitid filled in (0 when nothing changed).
        Ok(unsafe { info.si_pid() } != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        child
            .try_wait()
            .map(|s| s.is_some())
            .map_err(|e| RunError::io("child process", e))
    }
}

fn kill_group(pid: u32, child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = child;
        // SAFETY: a signal to the process group we created (`process_group(0)`).
        unsafe {
            libc::killpg(pid as libc::pid_t, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        let _ = child.kill();
    }
}

fn reader(
    mut pipe: impl Read + Send + 'static,
    capture: Arc<Mutex<Capture>>,
    limit: usize,
    control: RunControl,
    is_stdout: bool,
    done: mpsc::Sender<()>,
) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        // The end of a chunk may split a UTF-8 character: hold its first bytes back so each
        // streamed event is whole text.
        let mut pending: Vec<u8> = Vec::new();
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let kept = {
                let Ok(mut c) = capture.lock() else { break };
                let room = limit.saturating_sub(c.bytes.len());
                let keep = n.min(room);
                c.bytes.extend_from_slice(&buf[..keep]);
                if keep < n {
                    c.truncated = true;
                }
                keep
            };
            // Keep draining past the cap so the child never blocks on a full pipe.
            if kept > 0 && control.on_event.is_some() {
                pending.extend_from_slice(&buf[..kept]);
                let whole = complete_prefix(&pending);
                if whole > 0 {
                    let text = String::from_utf8_lossy(&pending[..whole]).into_owned();
                    pending.drain(..whole);
                    send_text(&control, is_stdout, text);
                }
            }
        }
        if !pending.is_empty() {
            send_text(
                &control,
                is_stdout,
                String::from_utf8_lossy(&pending).into_owned(),
            );
        }
        let _ = done.send(());
    });
}

fn send_text(control: &RunControl, is_stdout: bool, text: String) {
    control.send(&if is_stdout {
        ExecEvent::Stdout { text }
    } else {
        ExecEvent::Stderr { text }
    });
}

/// How many leading bytes of `bytes` end on a character boundary: all of them unless the
/// last few are the start of a UTF-8 sequence (invalid bytes count as whole: they become
/// U+FFFD either way).
fn complete_prefix(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(err) if err.error_len().is_none() => err.valid_up_to(),
        Err(_) => bytes.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::complete_prefix;

    #[test]
    fn a_split_character_is_held_back() {
        let text = "aé".as_bytes();
        assert_eq!(complete_prefix(text), 3);
        assert_eq!(complete_prefix(&text[..2]), 1);
        assert_eq!(complete_prefix(b"a\xff"), 2);
    }
}
