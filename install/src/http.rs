//! HTTP GET through ureq (rustls), with a timeout, a size cap and few redirects.

use crate::error::{InstallError, Result};
use std::time::Duration;

/// Fetch `url` fully into memory, refusing bodies over `max_bytes`.
pub fn get(url: &str, max_bytes: u64, timeout: Duration) -> Result<Vec<u8>> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(5)
        .https_only(false)
        .user_agent(concat!("skilldeck/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|err| InstallError::Http {
        url: url.to_string(),
        message: match err {
            ureq::Error::StatusCode(code) => format!("the server answered HTTP {code}"),
            other => format!("{other}; check the URL and the network"),
        },
    })?;
    response
        .body_mut()
        .with_config()
        .limit(max_bytes)
        .read_to_vec()
        .map_err(|err| InstallError::Http {
            url: url.to_string(),
            message: match err {
                ureq::Error::BodyExceedsLimit(limit) => {
                    format!("larger than the {limit}-byte download cap; raise it if you trust the source")
                }
                other => format!("reading the body failed: {other}"),
            },
        })
}

/// Resolve `reference` against the URL `base` (enough of RFC 3986 for index entries:
/// absolute URLs, host-absolute paths and relative paths).
pub fn join(base: &str, reference: &str) -> String {
    if reference.contains("://") {
        return reference.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let host_end = rest.find('/').unwrap_or(rest.len());
    let host = &rest[..host_end];
    if let Some(abs) = reference.strip_prefix('/') {
        return format!("{scheme}://{host}/{abs}");
    }
    let path = &rest[host_end..];
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    };
    format!("{scheme}://{host}{dir}{reference}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn join_resolves_relative_urls() {
        let base = "http://h:1/.well-known/agent-skills/index.json";
        assert_eq!(
            super::join(base, "a/SKILL.md"),
            "http://h:1/.well-known/agent-skills/a/SKILL.md"
        );
        assert_eq!(super::join(base, "/x.zip"), "http://h:1/x.zip");
        assert_eq!(super::join(base, "https://o/x"), "https://o/x");
    }
}
