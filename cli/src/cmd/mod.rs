//! One module per subcommand; `deck_args` holds the discovery flags they share.

pub mod activate;
pub mod audit;
pub mod completions;
pub mod deck_args;
pub mod doctor;
#[cfg(all(feature = "run", unix))]
mod interrupt;
#[cfg(all(feature = "run", not(unix)))]
mod interrupt {
    /// No signal forwarding outside Unix.
    pub struct Guard;
    impl Guard {
        pub fn install(_: skilldeck_run::CancelHandle) -> Guard {
            Guard
        }
    }
}
#[cfg(feature = "install")]
pub mod install;
pub mod list;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "mcp")]
pub mod mcp_client;
#[cfg(feature = "install")]
pub mod plugin;
pub mod remote_args;
pub mod render;
#[cfg(feature = "run")]
pub mod run;
pub mod search;
pub mod show;
pub mod validate;

/// Free a loaded deck (and its catalog) on a detached thread once the output is written.
/// Dropping 10,000 skills costs tens of milliseconds of `free`, about a tenth of a whole
/// `list`; the binary exits without waiting for it, and a library caller's process (the
/// Python and Node packages run this command in-process) still gets the memory back.
pub fn release<T: Send + 'static>(loaded: T) {
    // On a failed spawn the closure, and with it `loaded`, is dropped right here instead.
    let _ = std::thread::Builder::new()
        .name("skilldeck-release".into())
        .spawn(move || drop(loaded));
}

/// A clap parser for a count of `unit` (`--budget-chars`, `--limit`, ...): a negative or
/// non-numeric value gets a message that says what is expected instead of clap's
/// "unexpected argument '-1'".
pub fn count_parser(unit: &'static str) -> impl Fn(&str) -> Result<usize, String> + Clone {
    move |value: &str| {
        let value = value.trim();
        match value.parse::<usize>() {
            Ok(n) => Ok(n),
            Err(_) if value.parse::<i128>().is_ok_and(|n| n < 0) => Err(format!(
                "must be a positive number of {unit} (a whole number, 0 or more), not {value}"
            )),
            Err(_) if value.parse::<i128>().is_ok() => {
                Err(format!("is too large a number of {unit}"))
            }
            Err(_) => Err(format!(
                "must be a positive number of {unit} (a whole number such as 2000)"
            )),
        }
    }
}
