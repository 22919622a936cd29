//! The HTTP headers a `url` marketplace is downloaded with, chosen as Claude Code 2.1.332
//! chooses them (its bundle: `Tdt` finds the declaration, `wxo` picks the headers, `oe`
//! filters them, `Ljt` sends them):
//!
//! - a *declaration* wins: the first `extraKnownMarketplaces` entry whose `source` is a `url`
//!   source with the same URL (host case and default port aside), looked up by the
//!   marketplace's name first, then in any entry; the settings are read in Claude Code's
//!   order: managed settings, the user's settings (both "operator" tiers), then the project's
//!   `.claude/settings.json` and `settings.local.json` (the "repo" tier);
//! - else the source recorded in `known_marketplaces.json` (its "state copy");
//! - values are sent as written: `${VAR}` is not expanded;
//! - a header whose name is not an HTTP token or whose value holds CR, LF or NUL is dropped;
//!   so are routing and identity headers (`host`, `cookie`, `forwarded`, `x-forwarded-*`,
//!   `proxy-*`, ...) unless an operator tier declared them; a `user-agent` is replaced by
//!   skilldeck's own ([`crate::http::get_with_headers`], which also drops them on a redirect
//!   to another origin);
//! - `headersHelper` (a command printing headers) is not run by skilldeck: a declaration
//!   with one for an `https://` URL is refused with an explanation (Claude Code would run it
//!   after asking); for plain http Claude Code skips it too.

use crate::error::{InstallError, Result};
use crate::plugin::claude::read_json;
use serde_json::Value;
use std::path::PathBuf;

/// Headers Claude Code never takes from a non-operator source (its `Hn` set).
const ROUTING: [&str; 21] = [
    "host",
    "cookie",
    "forwarded",
    "x-real-ip",
    "x-client-ip",
    "true-client-ip",
    "client-ip",
    "cf-connecting-ip",
    "fastly-client-ip",
    "x-originating-ip",
    "x-remote-ip",
    "x-remote-addr",
    "x-cluster-client-ip",
    "connection",
    "upgrade",
    "transfer-encoding",
    "content-length",
    "te",
    "trailer",
    "expect",
    "via",
];

/// Prefixes of the same (its `Ln`).
const ROUTING_PREFIXES: [&str; 3] = ["x-forwarded-", "x-original-", "proxy-"];

/// One settings file and whether its tier is an operator's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsTier {
    /// The settings file.
    pub path: PathBuf,
    /// Managed and user settings are; the project's are not.
    pub operator: bool,
}

/// The headers chosen for one download, and what was dropped (for the progress report).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChosenHeaders {
    /// Name and value, in the order written.
    pub headers: Vec<(String, String)>,
    /// Why each dropped header was dropped.
    pub dropped: Vec<String>,
}

fn token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+.^_`|~-".contains(c))
}

/// Claude Code's `XVn`: lower case, every other character `-`.
fn normalised(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn routing(name: &str) -> bool {
    let n = normalised(name);
    ROUTING.contains(&n.as_str()) || ROUTING_PREFIXES.iter().any(|p| n.starts_with(p))
}

/// Claude Code's `oe`: keep the well-formed headers, routing ones only from an operator.
pub fn filter(headers: Option<&Value>, operator: bool) -> ChosenHeaders {
    let mut out = ChosenHeaders::default();
    let Some(map) = headers.and_then(Value::as_object) else {
        return out;
    };
    for (name, value) in map {
        let Some(value) = value.as_str() else {
            out.dropped
                .push(format!("`{name}`: the value is not a string"));
            continue;
        };
        if !token(name) || value.contains(['\r', '\n', '\0']) {
            out.dropped
                .push(format!("`{name}`: malformed name or value"));
            continue;
        }
        if !operator && routing(name) {
            out.dropped.push(format!(
                "`{name}`: request-routing/identity headers are only taken from managed or user settings"
            ));
            continue;
        }
        out.headers.push((name.clone(), value.to_string()));
    }
    out
}

/// The same URL as Claude Code compares them (`new URL(u)` with its host normalised).
pub fn same_url(a: &str, b: &str) -> bool {
    fn split(u: &str) -> (Option<String>, String) {
        let rest = u.split_once("://").map(|x| x.1).unwrap_or(u);
        let path = rest.find(['/', '?', '#']).map(|i| &rest[i..]).unwrap_or("");
        let path = if path.is_empty() || path.starts_with(['?', '#']) {
            format!("/{path}")
        } else {
            path.to_string()
        };
        (crate::http::origin_of(u), path)
    }
    split(a.trim()) == split(b.trim())
}

/// The `url` source of `entry` (an `extraKnownMarketplaces` value) when it is `url`.
fn declared_url_source<'v>(entry: &'v Value, url: &str) -> Option<&'v Value> {
    let source = entry.get("source")?;
    (source.get("source")?.as_str()? == "url"
        && source
            .get("url")
            .and_then(Value::as_str)
            .is_some_and(|u| same_url(u, url)))
    .then_some(source)
}

/// The headers to download the `url` marketplace `name` (when known) with: a declaration in
/// `tiers` (in order), else `state` (the source `known_marketplaces.json` records).
pub fn choose(
    tiers: &[SettingsTier],
    url: &str,
    name: Option<&str>,
    state: Option<&Value>,
) -> Result<ChosenHeaders> {
    for tier in tiers {
        let Some(settings): Option<Value> = read_json(&tier.path)? else {
            continue;
        };
        let Some(declared) = settings
            .get("extraKnownMarketplaces")
            .and_then(Value::as_object)
        else {
            continue;
        };
        let by_name = name.and_then(|n| declared.get(n));
        let found = by_name
            .and_then(|e| declared_url_source(e, url))
            .or_else(|| declared.values().find_map(|e| declared_url_source(e, url)));
        let Some(source) = found else { continue };
        let helper = source
            .get("headersHelper")
            .and_then(Value::as_str)
            .filter(|h| !h.is_empty());
        if let (Some(helper), true) = (helper, url.to_ascii_lowercase().starts_with("https://")) {
            return Err(InstallError::Policy {
                message: format!(
                    "{} declares the marketplace {url} with headersHelper `{helper}`; skilldeck does not run header commands: put the headers in `headers` (or fetch it with Claude Code)",
                    tier.path.display()
                ),
            });
        }
        return Ok(filter(source.get("headers"), tier.operator));
    }
    Ok(filter(state.and_then(|s| s.get("headers")), false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headers_are_filtered_as_claude_code_filters_them() {
        let h = json!({"Authorization": "Bearer ${TOKEN}", "X-Forwarded-For": "1.2.3.4",
                       "Cookie": "a=b", "bad name": "x", "X-Ok": "a\nb", "X-Num": 3,
                       "proxy_authorization": "p"});
        let user = filter(Some(&h), false);
        assert_eq!(
            user.headers,
            [("Authorization".to_string(), "Bearer ${TOKEN}".to_string())]
        );
        assert_eq!(user.dropped.len(), 6);
        let operator = filter(Some(&h), true);
        let names: Vec<&str> = operator.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "Authorization",
                "X-Forwarded-For",
                "Cookie",
                "proxy_authorization"
            ]
        );
    }

    #[test]
    fn urls_compare_with_host_case_and_default_port_aside() {
        assert!(same_url(
            "https://Example.com:443/m.json",
            "https://example.com/m.json"
        ));
        assert!(same_url("https://example.com", "https://example.com/"));
        assert!(!same_url(
            "https://example.com/M.json",
            "https://example.com/m.json"
        ));
        assert!(!same_url("http://example.com/m", "https://example.com/m"));
    }

    #[test]
    fn a_declaration_wins_over_the_state_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let managed = tmp.path().join("managed.json");
        let user = tmp.path().join("user.json");
        let project = tmp.path().join("project.json");
        let url = "https://h.example/m.json";
        std::fs::write(
            &user,
            json!({"extraKnownMarketplaces": {
                "other": {"source": {"source": "url", "url": "https://x.example/m.json", "headers": {"A": "no"}}},
                "acme": {"source": {"source": "url", "url": url, "headers": {"A": "user", "Via": "v"}}}
            }})
            .to_string(),
        )
        .unwrap();
        std::fs::write(
            &project,
            json!({"extraKnownMarketplaces": {"p": {"source": {"source": "url", "url": url,
                "headers": {"A": "project"}}}}})
            .to_string(),
        )
        .unwrap();
        let tiers = [
            SettingsTier {
                path: managed.clone(),
                operator: true,
            },
            SettingsTier {
                path: user.clone(),
                operator: true,
            },
            SettingsTier {
                path: project.clone(),
                operator: false,
            },
        ];
        let state = json!({"source": "url", "url": url, "headers": {"A": "state"}});
        let chosen = choose(&tiers, url, None, Some(&state)).unwrap();
        assert_eq!(
            chosen.headers,
            [
                ("A".to_string(), "user".to_string()),
                ("Via".to_string(), "v".to_string())
            ]
        );
        // Only the project declares it: its routing headers are not an operator's.
        let chosen = choose(&tiers[2..], url, None, Some(&state)).unwrap();
        assert_eq!(chosen.headers, [("A".to_string(), "project".to_string())]);
        // No declaration: the state copy.
        let chosen = choose(&tiers[..1], url, Some("acme"), Some(&state)).unwrap();
        assert_eq!(chosen.headers, [("A".to_string(), "state".to_string())]);
        // A helper command is not run.
        std::fs::write(
            &managed,
            json!({"extraKnownMarketplaces": {"acme": {"source": {"source": "url", "url": url,
                "headersHelper": "print-token"}}}})
            .to_string(),
        )
        .unwrap();
        let err = choose(&tiers, url, Some("acme"), None).unwrap_err();
        assert!(err.to_string().contains("headersHelper"), "{err}");
    }
}
