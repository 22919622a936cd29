//! `skilldeck completions SHELL`: print a completion script for bash, zsh, fish, powershell
//! or elvish on standard output.

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

pub fn run(args: Args) -> i32 {
    let mut command = crate::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "skilldeck", &mut script);
    if super::doctor::write_stdout(&String::from_utf8_lossy(&script)) {
        crate::EXIT_OK
    } else {
        crate::EXIT_FAILURE
    }
}
