//! `--mcp-server` / `--mcp-url` on list, render, activate and show: MCP servers whose
//! skills join the deck beside the local ones (a [`skilldeck::RemoteSkillSource`] each,
//! from skilldeck-mcp). Without the `mcp` feature the flags do not exist.

#[cfg(feature = "mcp")]
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct RemoteArgs {
    /// An MCP server whose skills join the deck, as `[LABEL=]COMMAND ARGS…` split into
    /// words as a POSIX shell would (quotes and `\` group; nothing is expanded, no shell
    /// runs); repeatable. LABEL (letters, digits, `.`, `_`, `-`; default: the
    /// command's file name) namespaces its skills' ids, `LABEL:path`.
    #[cfg(feature = "mcp")]
    #[arg(long = "mcp-server", value_name = "[LABEL=]COMMAND")]
    pub servers: Vec<String>,
    /// An MCP server over streamable HTTP, as `[LABEL=]URL` (default label: the URL's
    /// host); repeatable.
    #[cfg(feature = "http")]
    #[arg(long = "mcp-url", value_name = "[LABEL=]URL")]
    pub urls: Vec<String>,
    /// A header sent to every --mcp-url server, as `Name: value`; repeatable.
    #[cfg(feature = "http")]
    #[arg(long = "mcp-header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Cache for verified skill content from MCP servers (default:
    /// $XDG_CACHE_HOME/skilldeck/mcp or ~/.cache/skilldeck/mcp); refused inside a skill
    /// discovery path.
    #[cfg(feature = "mcp")]
    #[arg(long = "mcp-cache", value_name = "DIR")]
    pub cache: Option<PathBuf>,
}

impl RemoteArgs {
    /// Connect to every server named and add it to `deck` (before the deck loads). An
    /// unreachable server, or one that does not serve the Skills extension, fails the
    /// command; entries it refuses become diagnostics of the catalog.
    #[cfg(feature = "mcp")]
    pub fn attach(&self, deck: &skilldeck::Deck) -> Result<(), i32> {
        let mut servers: Vec<(String, skilldeck_mcp::ServerSpec)> = Vec::new();
        for value in &self.servers {
            let (label, command) = split_label(value);
            let spec = skilldeck_mcp::ServerSpec::command_line(command)
                .map_err(|err| usage(&format!("--mcp-server: {err}")))?;
            let label = match (&spec, label) {
                (_, Some(label)) => label.to_string(),
                (skilldeck_mcp::ServerSpec::Command { program, .. }, None) => {
                    default_label(program)
                }
                (skilldeck_mcp::ServerSpec::Url { url, .. }, None) => default_label(url),
            };
            servers.push((label, spec));
        }
        #[cfg(feature = "http")]
        {
            let mut headers = Vec::new();
            for header in &self.headers {
                let Some(parsed) = super::mcp_client::parse_header(header) else {
                    return Err(usage(&format!(
                        "--mcp-header `{header}`: expected `Name: value`"
                    )));
                };
                headers.push(parsed);
            }
            for value in &self.urls {
                let (label, url) = split_label(value);
                let host = url
                    .split_once("://")
                    .map(|(_, rest)| rest.split(['/', ':', '?']).next().unwrap_or(rest))
                    .unwrap_or(url);
                let label = label.map_or_else(|| default_label(host), str::to_string);
                let spec = skilldeck_mcp::ServerSpec::Url {
                    url: url.to_string(),
                    headers: headers.clone(),
                };
                servers.push((label, spec));
            }
        }
        if servers.is_empty() {
            return Ok(());
        }
        let cache = self.cache_dir(deck)?;
        let mut taken: Vec<String> = Vec::new();
        for (label, spec) in servers {
            let mut unique = label.clone();
            let mut n = 2;
            while taken.contains(&unique) {
                unique = format!("{label}-{n}");
                n += 1;
            }
            taken.push(unique.clone());
            match skilldeck_mcp::McpDeckSource::connect(&unique, spec, &cache) {
                Ok(source) => deck.add_remote_source(std::sync::Arc::new(source)),
                Err(err) => {
                    crate::style::eprint_error(Some(err.code()), &err.to_string());
                    return Err(crate::EXIT_FAILURE);
                }
            }
        }
        Ok(())
    }

    #[cfg(not(feature = "mcp"))]
    pub fn attach(&self, _deck: &skilldeck::Deck) -> Result<(), i32> {
        Ok(())
    }

    /// The cache, absolute, outside every root the deck scans.
    #[cfg(feature = "mcp")]
    fn cache_dir(&self, deck: &skilldeck::Deck) -> Result<PathBuf, i32> {
        let Some(cache) = self.cache.clone().or_else(super::mcp_client::default_cache) else {
            return Err(usage(
                "no cache directory: pass --mcp-cache DIR (HOME is not set)",
            ));
        };
        let cache = std::path::absolute(&cache).unwrap_or(cache);
        let roots = deck.scan_roots();
        if let Some(root) = roots
            .iter()
            .find(|r| cache.starts_with(r) || r.starts_with(&cache))
        {
            return Err(usage(&format!(
                "the cache {} overlaps the skill discovery path {}; pass --mcp-cache with a directory outside every skill root",
                cache.display(),
                root.display()
            )));
        }
        Ok(cache)
    }
}

#[cfg(feature = "mcp")]
fn usage(message: &str) -> i32 {
    crate::style::eprint_error(None, message);
    crate::EXIT_USAGE
}

/// `LABEL=rest` when what precedes the first `=` is a label (no `/`, `:` or space).
#[cfg(feature = "mcp")]
fn split_label(value: &str) -> (Option<&str>, &str) {
    match value.split_once('=') {
        Some((label, rest))
            if !label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) =>
        {
            (Some(label), rest)
        }
        _ => (None, value),
    }
}

/// A label from a program path or a host: its file name, other characters as `-`.
#[cfg(feature = "mcp")]
fn default_label(from: &str) -> String {
    let name = std::path::Path::new(from)
        .file_name()
        .map_or_else(|| from.to_string(), |n| n.to_string_lossy().into_owned());
    let label: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if label.is_empty() || label == "." || label == ".." {
        "mcp".into()
    } else {
        label
    }
}

#[cfg(all(test, feature = "mcp"))]
mod tests {
    use super::*;

    #[test]
    fn labels_are_given_or_derived() {
        assert_eq!(
            split_label("docs=python3 s.py"),
            (Some("docs"), "python3 s.py")
        );
        assert_eq!(split_label("python3 -c a=b"), (None, "python3 -c a=b"));
        assert_eq!(split_label("http://h/x?a=b"), (None, "http://h/x?a=b"));
        assert_eq!(default_label("/usr/bin/python3"), "python3");
        assert_eq!(default_label("127.0.0.1"), "127.0.0.1");
        assert_eq!(default_label(".."), "mcp");
    }
}
