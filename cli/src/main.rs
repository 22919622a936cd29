fn main() {
    // Rust starts every program with SIGPIPE ignored, so `println!` into a closed pipe
    // (`skilldeck show x | head -1`) panics and reports an internal error. A command-line
    // tool ends quietly there, like every Unix tool. Only the binary does this: `run` is also
    // called in-process by the bindings, whose host process owns its signal dispositions.
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // One malloc arena instead of one per thread: a command runs a few seconds at most, and
    // the discovery workers' per-thread arenas held ~2.5 MiB of freed, unreturned memory at
    // `list`'s peak on a 10,000-skill tree (bench/PROFILE.md, "a summary load"); tcache
    // keeps small allocations lock-free, so the cost in CPU time is within noise. glibc
    // only: musl and other platforms have no arenas to limit.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any thread exists; mallopt only tunes the allocator.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    std::process::exit(skilldeck_cli::run(std::env::args_os()));
}
