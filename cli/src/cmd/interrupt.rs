//! Ctrl-C during `run`: the skill runs in its own process group, so the terminal's SIGINT
//! does not reach it; forward it as a cancel (which kills the whole group) instead of
//! leaving the group running after skilldeck exits. Installed only for the run and
//! restored after, since the Python and Node packages run this command in-process.

use skilldeck_run::CancelHandle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    // Async-signal-safe: one atomic store.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// While alive, SIGINT and SIGTERM cancel the run.
pub struct Guard {
    #[cfg(unix)]
    previous: [(libc::c_int, libc::sighandler_t); 2],
    stop: Arc<AtomicBool>,
}

impl Guard {
    pub fn install(cancel: CancelHandle) -> Guard {
        INTERRUPTED.store(false, Ordering::SeqCst);
        let stop = Arc::new(AtomicBool::new(false));
        let watching = stop.clone();
        std::thread::spawn(move || {
            while !watching.load(Ordering::SeqCst) {
                if INTERRUPTED.load(Ordering::SeqCst) {
                    cancel.cancel();
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        #[cfg(unix)]
        {
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // SAFETY: installing a handler that only stores to an atomic.
            let previous = unsafe {
                [
                    (libc::SIGINT, libc::signal(libc::SIGINT, handler)),
                    (libc::SIGTERM, libc::signal(libc::SIGTERM, handler)),
                ]
            };
            Guard { previous, stop }
        }
        #[cfg(not(unix))]
        Guard { stop }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        #[cfg(unix)]
        for (signal, handler) in self.previous {
            // SAFETY: restoring the handler that was there before.
            unsafe {
                libc::signal(signal, handler);
            }
        }
    }
}
