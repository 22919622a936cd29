fn main() {
    std::process::exit(skilldeck_cli::run(std::env::args_os()));
}
