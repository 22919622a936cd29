//! A server's command line (`--mcp-server`, the bindings' `mcp_servers`) split into a
//! program and its arguments the way a POSIX shell splits words, without running a shell:
//! quotes and backslashes group and escape, nothing is expanded.

use crate::deck_source::ServerSpec;

/// Why a command line names no command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandLineError {
    #[error("`{line}`: no command")]
    Empty { line: String },
    #[error("`{line}`: unbalanced quote or trailing backslash; close the quote (or quote the backslash) so the words are unambiguous")]
    Unbalanced { line: String },
}

impl ServerSpec {
    /// `PROGRAM ARGS…` split into words as `sh` would (`'…'`, `"…"`, `\`), never through
    /// a shell: `$VAR`, globs and `;` are plain characters.
    pub fn command_line(line: &str) -> Result<ServerSpec, CommandLineError> {
        let Some(words) = shlex::split(line) else {
            return Err(CommandLineError::Unbalanced {
                line: line.to_string(),
            });
        };
        let mut words = words.into_iter();
        let Some(program) = words.next().filter(|p| !p.is_empty()) else {
            return Err(CommandLineError::Empty {
                line: line.to_string(),
            });
        };
        Ok(ServerSpec::Command {
            program,
            args: words.collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        match ServerSpec::command_line(line) {
            Ok(ServerSpec::Command { program, args }) => {
                std::iter::once(program).chain(args).collect()
            }
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn quotes_group_words_and_nothing_is_expanded() {
        assert_eq!(
            words(r#"python3 "my server.py" --root '/a b/c' x\ y"#),
            ["python3", "my server.py", "--root", "/a b/c", "x y"]
        );
        assert_eq!(
            words(r#"sh -c 'echo "$HOME"; ls *'"#),
            ["sh", "-c", r#"echo "$HOME"; ls *"#]
        );
        assert_eq!(words("  srv\t--flag  "), ["srv", "--flag"]);
        assert_eq!(
            words(r#"srv "" arg"#),
            ["srv", "", "arg"],
            "an empty quoted word is a word"
        );
    }

    #[test]
    fn unbalanced_quotes_and_empty_lines_are_errors() {
        for line in [r#"python3 "server.py"#, "srv 'a", r"srv a\"] {
            assert_eq!(
                ServerSpec::command_line(line),
                Err(CommandLineError::Unbalanced { line: line.into() }),
                "{line}"
            );
        }
        for line in ["", "   ", "''"] {
            assert_eq!(
                ServerSpec::command_line(line),
                Err(CommandLineError::Empty { line: line.into() })
            );
        }
        let message = ServerSpec::command_line("srv 'a").unwrap_err().to_string();
        assert!(message.contains("unbalanced quote"), "{message}");
    }
}
