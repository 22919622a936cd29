//! `skilldeck show`

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub deck: super::deck_args::DeckArgs,
}

pub fn run(args: Args) -> i32 {
    let _ = args;
    eprintln!("skilldeck show: being built");
    crate::EXIT_FAILURE
}
