//! Colour and terminal width: one `--color auto|always|never` choice for every command.
//!
//! `auto` colours a stream only when it is a terminal, and honours the usual conventions:
//! `NO_COLOR` (set and not empty) switches colour off, `CLICOLOR_FORCE` (set and not `0`)
//! switches it on even through a pipe, `TERM=dumb` switches it off. `always` and `never`
//! override the environment.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// The `--color` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour on a terminal (honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb).
    #[default]
    Auto,
    /// Always colour, even through a pipe.
    Always,
    /// Never colour.
    Never,
}

const AUTO: u8 = 0;
const ALWAYS: u8 = 1;
const NEVER: u8 = 2;

/// The choice of the command being run (set by `run` before dispatching).
static CHOICE: AtomicU8 = AtomicU8::new(AUTO);

pub fn set(choice: ColorChoice) {
    let value = match choice {
        ColorChoice::Auto => AUTO,
        ColorChoice::Always => ALWAYS,
        ColorChoice::Never => NEVER,
    };
    CHOICE.store(value, Ordering::Relaxed);
}

fn env_set(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// Whether output to a stream that `is_terminal` (or not) gets colour under `choice` and
/// the given environment lookup. Pure, for tests.
pub fn decide(
    choice: ColorChoice,
    is_terminal: bool,
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if env("NO_COLOR").is_some() {
                return false;
            }
            if env("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                return true;
            }
            if env("TERM").is_some_and(|v| v == "dumb") {
                return false;
            }
            is_terminal
        }
    }
}

fn current() -> ColorChoice {
    match CHOICE.load(Ordering::Relaxed) {
        ALWAYS => ColorChoice::Always,
        NEVER => ColorChoice::Never,
        _ => ColorChoice::Auto,
    }
}

/// Colour for standard output.
pub fn stdout() -> bool {
    decide(current(), std::io::stdout().is_terminal(), env_set)
}

/// Colour for standard error (diagnostics).
pub fn stderr() -> bool {
    decide(current(), std::io::stderr().is_terminal(), env_set)
}

/// The clap colour setting matching `choice` (clap's own `auto` already follows the same
/// conventions through anstream).
pub fn clap_choice(choice: ColorChoice) -> clap::ColorChoice {
    match choice {
        ColorChoice::Auto => clap::ColorChoice::Auto,
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
    }
}

/// The `--color` value named in raw arguments, before clap has parsed them (so clap's own
/// usage errors follow it too). The last one wins, as clap would decide.
pub fn scan<T: AsRef<std::ffi::OsStr>>(args: &[T]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut next_is_value = false;
    for arg in args.iter().skip(1) {
        let Some(arg) = arg.as_ref().to_str() else {
            next_is_value = false;
            continue;
        };
        if arg == "--" {
            break;
        }
        let value = if next_is_value {
            next_is_value = false;
            Some(arg)
        } else if arg == "--color" {
            next_is_value = true;
            None
        } else {
            arg.strip_prefix("--color=")
        };
        match value {
            Some("always") => choice = ColorChoice::Always,
            Some("never") => choice = ColorChoice::Never,
            Some("auto") => choice = ColorChoice::Auto,
            _ => {}
        }
    }
    choice
}

/// `text` in the SGR style `code` (e.g. `"1;31"`) when `on`.
pub fn paint(text: &str, code: &str, on: bool) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// An `error[CODE]: message` line for standard error (or `error: message` without a code).
pub fn error_line(code: Option<&str>, message: &str) -> String {
    let color = stderr();
    let head = match code {
        Some(code) => format!("error[{code}]"),
        None => "error".to_string(),
    };
    format!("{}: {message}", paint(&head, "1;31", color))
}

/// Print an error line to standard error.
pub fn eprint_error(code: Option<&str>, message: &str) {
    eprintln!("{}", error_line(code, message));
}

/// The width of the terminal standard output writes to, or `None` when it is not a
/// terminal (piped output gets full text). `COLUMNS` overrides the detected width.
pub fn stdout_width() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0);
    Some(
        columns
            .or_else(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
            .unwrap_or(80),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn auto_follows_the_terminal_and_the_conventions() {
        assert!(decide(ColorChoice::Auto, true, env(&[])));
        assert!(!decide(ColorChoice::Auto, false, env(&[])));
        assert!(!decide(ColorChoice::Auto, true, env(&[("NO_COLOR", "1")])));
        assert!(!decide(ColorChoice::Auto, true, env(&[("TERM", "dumb")])));
        assert!(decide(
            ColorChoice::Auto,
            false,
            env(&[("CLICOLOR_FORCE", "1")])
        ));
        assert!(!decide(
            ColorChoice::Auto,
            false,
            env(&[("CLICOLOR_FORCE", "0")])
        ));
        assert!(!decide(
            ColorChoice::Auto,
            true,
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")])
        ));
    }

    #[test]
    fn always_and_never_override_the_environment() {
        assert!(decide(
            ColorChoice::Always,
            false,
            env(&[("NO_COLOR", "1")])
        ));
        assert!(!decide(
            ColorChoice::Never,
            true,
            env(&[("CLICOLOR_FORCE", "1")])
        ));
    }

    #[test]
    fn scan_finds_the_last_color_flag() {
        assert_eq!(
            scan(&["x", "list", "--color", "always"]),
            ColorChoice::Always
        );
        assert_eq!(scan(&["x", "--color=never", "list"]), ColorChoice::Never);
        assert_eq!(
            scan(&["x", "list", "--", "--color=never"]),
            ColorChoice::Auto
        );
    }
}
