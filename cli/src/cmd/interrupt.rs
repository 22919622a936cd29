//! Ctrl-C during `run` (Unix; `cmd/mod.rs` has the no-op elsewhere): the skill runs in its own process group, so the terminal's SIGINT
//! does not reach it; forward it as a cancel (which kills the whole group) instead of
//! leaving the group running after skilldeck exits. Installed only for the run and
//! restored after, since the Python and Node packages run this command in-process.
//!
//! Several runs can be in flight at once in one process (threads of a Python or Node caller
//! each calling the embedded CLI). The handler is therefore installed by the first guard and
//! restored by the last one: saving and restoring per guard would let overlapping guards put
//! skilldeck's handler back after the caller's own was restored, swallowing every later
//! Ctrl-C of the host program.

use skilldeck_run::CancelHandle;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Signals seen since the process started; a guard cancels its run when this moves past
/// the value it started with, so one Ctrl-C reaches every run in flight and a new guard
/// never clears an interrupt another run has not seen yet.
static INTERRUPTS: AtomicU64 = AtomicU64::new(0);

type Saved = [(libc::c_int, libc::sighandler_t); 2];

/// How many guards are alive, and the handlers the first one replaced.
static INSTALLED: Mutex<(usize, Option<Saved>)> = Mutex::new((0, None));

extern "C" fn on_signal(_: libc::c_int) {
    // Async-signal-safe: one atomic add.
    INTERRUPTS.fetch_add(1, Ordering::SeqCst);
}

/// While alive, SIGINT and SIGTERM cancel the run.
pub struct Guard {
    stop: Arc<AtomicBool>,
}

impl Guard {
    pub fn install(cancel: CancelHandle) -> Guard {
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut installed = INSTALLED.lock().unwrap_or_else(PoisonError::into_inner);
            if installed.0 == 0 {
                installed.1 = Some(replace_handlers());
            }
            installed.0 += 1;
        }
        let seen = INTERRUPTS.load(Ordering::SeqCst);
        let watching = stop.clone();
        std::thread::spawn(move || {
            while !watching.load(Ordering::SeqCst) {
                if INTERRUPTS.load(Ordering::SeqCst) != seen {
                    cancel.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Guard { stop }
    }
}

fn replace_handlers() -> Saved {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: installing a handler that only adds to an atomic.
    unsafe {
        [
            (libc::SIGINT, libc::signal(libc::SIGINT, handler)),
            (libc::SIGTERM, libc::signal(libc::SIGTERM, handler)),
        ]
    }
}

fn restore_handlers(saved: Saved) {
    for (signal, handler) in saved {
        // SAFETY: restoring the handler that was there before the first guard.
        unsafe {
            libc::signal(signal, handler);
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let mut installed = INSTALLED.lock().unwrap_or_else(PoisonError::into_inner);
        installed.0 = installed.0.saturating_sub(1);
        if installed.0 == 0 {
            if let Some(saved) = installed.1.take() {
                restore_handlers(saved);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two tests share the process's signal dispositions.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn current_sigint() -> libc::sighandler_t {
        // SAFETY: reading the disposition by setting it and putting it straight back.
        unsafe {
            let current = libc::signal(libc::SIGINT, libc::SIG_IGN);
            libc::signal(libc::SIGINT, current);
            current
        }
    }

    #[test]
    fn overlapping_guards_restore_the_callers_handler_once_the_last_ends() {
        let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let before = current_sigint();
        let first = Guard::install(CancelHandle::default());
        let second = Guard::install(CancelHandle::default());
        let ours = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        assert_eq!(current_sigint(), ours);
        // Dropped in the order that used to leave skilldeck's handler in place.
        drop(first);
        assert_eq!(current_sigint(), ours, "the second run is still in flight");
        drop(second);
        assert_eq!(current_sigint(), before);
    }

    #[test]
    fn a_signal_cancels_every_run_in_flight() {
        let _serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
        let (one, two) = (CancelHandle::default(), CancelHandle::default());
        let guards = [Guard::install(one.clone()), Guard::install(two.clone())];
        on_signal(libc::SIGINT);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !(one.is_cancelled() && two.is_cancelled()) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(one.is_cancelled() && two.is_cancelled());
        drop(guards);
    }
}
