//! `rusage -o FILE CMD [ARGS...]`: run CMD (stdin, stdout and stderr passed through), then
//! write its peak RSS (KiB) and user and system CPU (microseconds) to FILE as
//! `maxrss_kib utime_us stime_us`, and exit with its exit code.
//!
//! `/usr/bin/time -f %U` prints hundredths of a second, which is 1 µs per skill at
//! N = 10,000: as coarse as the differences the benchmark measures. Python could read the
//! child's rusage itself (`os.wait4`), but its peak RSS would then start from the Python
//! process's own: on Linux a child inherits its parent's high-water RSS up to `exec`. This
//! process is small, like `time`, so the figure is the command's.

use std::process::{exit, Command};

fn main() {
    let mut args = std::env::args_os().skip(1);
    let (Some(flag), Some(out)) = (args.next(), args.next()) else {
        usage();
    };
    if flag != "-o" {
        usage();
    }
    let Some(program) = args.next() else { usage() };
    let status = match Command::new(&program).args(args).status() {
        Ok(status) => status,
        Err(e) => {
            eprintln!("rusage: cannot run {}: {e}", program.to_string_lossy());
            exit(127);
        }
    };
    // RUSAGE_CHILDREN covers exactly the one child waited for (and whatever it reaped).
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole `rusage` into the pointer it is given.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()) != 0 {
            eprintln!(
                "rusage: getrusage failed: {}",
                std::io::Error::last_os_error()
            );
            exit(125);
        }
        usage.assume_init()
    };
    // `time_t`/`suseconds_t` are narrower than i64 on some targets.
    #[allow(clippy::unnecessary_cast)]
    let micros = |t: libc::timeval| t.tv_sec as i64 * 1_000_000 + t.tv_usec as i64;
    let line = format!(
        "{} {} {}\n",
        usage.ru_maxrss,
        micros(usage.ru_utime),
        micros(usage.ru_stime)
    );
    if let Err(e) = std::fs::write(&out, line) {
        eprintln!("rusage: cannot write {}: {e}", out.to_string_lossy());
        exit(125);
    }
    exit(status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + status.signal().unwrap_or(0)
    }));
}

fn usage() -> ! {
    eprintln!("usage: rusage -o FILE CMD [ARGS...]");
    exit(2);
}
