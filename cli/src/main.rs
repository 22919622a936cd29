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
    std::process::exit(skilldeck_cli::run(std::env::args_os()));
}
