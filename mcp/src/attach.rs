//! MCP servers as deck sources from the same values the CLI's `--mcp-server`, `--mcp-url`,
//! `--mcp-header` and `--mcp-cache` take, so the CLI and every binding read them one way:
//! labels given or derived, a cache outside every discovery path, and a connection per
//! server added to the deck.

use crate::deck_source::{McpDeckSource, ServerSpec};
use std::path::PathBuf;
use std::sync::Arc;

/// The MCP servers whose skills join a deck.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct McpSources {
    /// `[LABEL=]COMMAND ARGS…`, split like a POSIX shell line ([`ServerSpec::command_line`]).
    pub servers: Vec<String>,
    /// `[LABEL=]URL` of servers over streamable HTTP (feature `http-client`).
    pub urls: Vec<String>,
    /// Sent to every `urls` server (e.g. `Authorization`).
    pub headers: Vec<(String, String)>,
    /// Cache for verified content; default `$XDG_CACHE_HOME/skilldeck/mcp` or
    /// `~/.cache/skilldeck/mcp`. Refused inside a skill discovery path.
    pub cache: Option<PathBuf>,
}

impl McpSources {
    /// Whether no server is named.
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty() && self.urls.is_empty()
    }

    /// Connect to every server and add it to `deck` (before it loads); returns the labels
    /// used (`label`, `label-2`… when two servers would share one). A bad value is
    /// `INVALID_OPTIONS`; a server that cannot be reached or serves no skills fails with
    /// its `REMOTE_*` code, and no later server is connected.
    pub fn attach(&self, deck: &skilldeck::Deck) -> skilldeck::Result<Vec<String>> {
        let mut servers: Vec<(String, ServerSpec)> = Vec::new();
        for value in &self.servers {
            let (label, command) = split_label(value);
            let spec = ServerSpec::command_line(command)
                .map_err(|err| skilldeck::Error::invalid_options(format!("MCP server: {err}")))?;
            let label = match (label, &spec) {
                (Some(label), _) => label.to_string(),
                (None, ServerSpec::Command { program, .. }) => default_label(program),
                (None, ServerSpec::Url { url, .. }) => default_label(url),
            };
            servers.push((label, spec));
        }
        for value in &self.urls {
            let (label, url) = split_label(value);
            let host = url
                .split_once("://")
                .map(|(_, rest)| rest.split(['/', ':', '?']).next().unwrap_or(rest))
                .unwrap_or(url);
            let label = label.map_or_else(|| default_label(host), str::to_string);
            let spec = ServerSpec::Url {
                url: url.to_string(),
                headers: self.headers.clone(),
            };
            servers.push((label, spec));
        }
        if servers.is_empty() {
            return Ok(Vec::new());
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
            let source = McpDeckSource::connect(&unique, spec, &cache)?;
            deck.add_remote_source(Arc::new(source));
            taken.push(unique);
        }
        Ok(taken)
    }

    /// The cache, absolute, outside every root the deck scans.
    fn cache_dir(&self, deck: &skilldeck::Deck) -> skilldeck::Result<PathBuf> {
        let Some(cache) = self.cache.clone().or_else(default_cache) else {
            return Err(skilldeck::Error::invalid_options(
                "no cache directory for MCP servers: give one (HOME is not set)",
            ));
        };
        let cache = std::path::absolute(&cache).unwrap_or(cache);
        if let Some(root) = deck
            .scan_roots()
            .iter()
            .find(|r| cache.starts_with(r) || r.starts_with(&cache))
        {
            return Err(skilldeck::Error::invalid_options(format!(
                "the MCP cache {} overlaps the skill discovery path {}; give a cache directory outside every skill root",
                cache.display(),
                root.display()
            )));
        }
        Ok(cache)
    }
}

/// `$XDG_CACHE_HOME/skilldeck/mcp`, else `~/.cache/skilldeck/mcp`.
pub fn default_cache() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("skilldeck").join("mcp"))
}

/// `LABEL=rest` when what precedes the first `=` is a label (no `/`, `:` or space).
pub fn split_label(value: &str) -> (Option<&str>, &str) {
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
pub fn default_label(from: &str) -> String {
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

#[cfg(test)]
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
