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

/// [`get`] with extra request `headers`, following redirects itself (at most 5) so the
/// headers go only where Claude Code 2.1.332 sends a marketplace's headers (`Ljt`, `qMl`):
/// kept on a redirect within the first URL's origin, dropped on one to another origin, which
/// must be `https://` and not a loopback, link-local or metadata host. skilldeck's own
/// User-Agent replaces any given one, as the host's does.
pub fn get_with_headers(
    url: &str,
    headers: &[(String, String)],
    max_bytes: u64,
    timeout: Duration,
) -> Result<Vec<u8>> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .https_only(false)
        .user_agent(concat!("skilldeck/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let failed = |at: &str, message: String| InstallError::Http {
        url: at.to_string(),
        message,
    };
    let origin = origin_of(url);
    let mut at = url.to_string();
    // Once a redirect leaves the origin the headers are gone for good (axios's
    // `beforeRedirect` deletes them from the request options).
    let mut send = true;
    for _ in 0..=5 {
        let mut request = agent.get(&at);
        if send {
            for (name, value) in headers {
                if !name.eq_ignore_ascii_case("user-agent") {
                    request = request.header(name.as_str(), value.as_str());
                }
            }
        }
        let mut response = request.call().map_err(|err| {
            failed(
                &at,
                match err {
                    ureq::Error::StatusCode(code) => format!("the server answered HTTP {code}"),
                    other => format!("{other}; check the URL and the network"),
                },
            )
        })?;
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            let location = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| failed(&at, format!("HTTP {status} without a Location")))?;
            let next = join(&at, location);
            if origin_of(&next) != origin {
                send = false;
            }
            if origin_of(&next) != origin && !redirect_target_ok(&next) {
                return Err(failed(
                    &at,
                    format!("redirected to {next}, refused: a redirect to another origin must use https:// and must not point at a loopback, link-local or metadata host"),
                ));
            }
            at = next;
            continue;
        }
        return response
            .body_mut()
            .with_config()
            .limit(max_bytes)
            .read_to_vec()
            .map_err(|err| {
                failed(
                    &at,
                    match err {
                        ureq::Error::BodyExceedsLimit(limit) => format!(
                            "larger than the {limit}-byte download cap; raise it if you trust the source"
                        ),
                        other => format!("reading the body failed: {other}"),
                    },
                )
            });
    }
    Err(failed(url, "more than 5 redirects".into()))
}

/// `scheme://host[:port]` in lower case, the default port left out.
pub(crate) fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let host_port = host_port.to_ascii_lowercase();
    let default = match scheme.as_str() {
        "https" => ":443",
        "http" => ":80",
        _ => "",
    };
    let host_port = host_port
        .strip_suffix(default)
        .filter(|_| !default.is_empty())
        .unwrap_or(&host_port);
    Some(format!("{scheme}://{host_port}"))
}

/// Where Claude Code lets a catalogue redirect to another origin: https, and not a loopback,
/// link-local or cloud-metadata host.
fn redirect_target_ok(url: &str) -> bool {
    let Some(origin) = origin_of(url) else {
        return false;
    };
    let Some(host) = origin.strip_prefix("https://") else {
        return false;
    };
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => host.split(':').next().unwrap_or(host),
    };
    let blocked = host == "localhost"
        || host.ends_with(".localhost")
        || host == "metadata.google.internal"
        || match host.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => {
                ip.is_loopback() || ip.is_link_local() || ip.is_unspecified()
            }
            Ok(std::net::IpAddr::V6(ip)) => {
                ip.is_loopback() || ip.is_unspecified() || (ip.segments()[0] & 0xffc0) == 0xfe80
            }
            Err(_) => false,
        };
    !blocked
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

    #[test]
    fn origins_and_redirect_targets() {
        assert_eq!(
            super::origin_of("HTTPS://Example.COM:443/a?b").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(
            super::origin_of("http://u@h:8080/x").as_deref(),
            Some("http://h:8080")
        );
        assert!(super::redirect_target_ok("https://cdn.example.com/m.json"));
        for refused in [
            "http://cdn.example.com/m.json",
            "https://127.0.0.1/m.json",
            "https://localhost:8443/m.json",
            "https://169.254.169.254/latest",
            "https://[::1]/x",
            "https://metadata.google.internal/x",
        ] {
            assert!(!super::redirect_target_ok(refused), "{refused}");
        }
    }
}
