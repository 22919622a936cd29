//! `skilldeck marketplace …` and `skilldeck plugin …` end to end against a temporary HOME:
//! Claude Code's files are written where Claude Code reads them, `--json` is parseable, and
//! `list --profile claude-code` shows the plugin's skills as `plugin:skill`.

#![cfg(feature = "install")]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n")
}

fn skilldeck(root: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skilldeck"));
    command.args(args);
    // Never the machine's own policy file.
    if matches!(args.first(), Some(&"marketplace") | Some(&"plugin")) {
        command.args([
            "--managed-settings",
            root.join("managed-settings.json").to_str().expect("utf-8"),
        ]);
    }
    command
        .current_dir(root.join("project"))
        .env("HOME", root.join("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("run skilldeck")
}

fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    std::fs::create_dir_all(root.join("project")).expect("mkdir");
    std::fs::create_dir_all(root.join("home")).expect("mkdir");
    let market = root.join("market");
    write(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name": "acme", "plugins": [
            {"name": "tools", "source": "./plugins/tools"},
            {"name": "escape", "source": "./../elsewhere"}
        ]}"#,
    );
    write(
        &market.join("plugins/tools/.claude-plugin/plugin.json"),
        r#"{"name": "tools", "version": "1.2.0"}"#,
    );
    write(
        &market.join("plugins/tools/skills/pdf/SKILL.md"),
        &skill_md("pdf"),
    );
    tmp
}

#[test]
fn marketplace_and_plugin_commands() {
    let tmp = setup();
    let root = tmp.path();
    let market = root.join("market");
    let claude = root.join("home/.claude");

    let added = ok_json(&skilldeck(
        root,
        &[
            "marketplace",
            "add",
            market.to_str().expect("utf-8"),
            "--json",
        ],
    ));
    assert_eq!(added["name"], "acme");
    let listed = ok_json(&skilldeck(root, &["marketplace", "list", "--json"]));
    assert_eq!(listed[0]["plugins"][0], "tools");

    let installed = ok_json(&skilldeck(
        root,
        &["plugin", "install", "tools@acme", "--json"],
    ));
    assert_eq!(installed["plugin"]["id"], "tools@acme");
    assert_eq!(installed["plugin"]["version"], "1.2.0");
    assert!(claude
        .join("plugins/cache/acme/tools/1.2.0/skills/pdf/SKILL.md")
        .is_file());
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(claude.join("settings.json")).expect("settings"),
    )
    .expect("json");
    assert_eq!(settings["enabledPlugins"]["tools@acme"], true);

    // The core engine lists the plugin's skill under the plugin's name.
    let out = skilldeck(root, &["list", "--profile", "claude-code", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"tools:pdf\""), "{text}");

    let out = skilldeck(root, &["plugin", "disable", "tools", "--json"]);
    assert_eq!(ok_json(&out)["enabled"], false);
    let list = ok_json(&skilldeck(root, &["plugin", "list", "--json"]));
    assert_eq!(list[0]["enabled"], false);
    let out = skilldeck(root, &["plugin", "enable", "tools@acme"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("enabled tools@acme (user)"));

    // Project scope: nothing installed there yet.
    let out = skilldeck(root, &["plugin", "list", "--scope", "project", "--json"]);
    assert_eq!(ok_json(&out), Value::Array(vec![]));

    let out = skilldeck(root, &["plugin", "install", "escape@acme"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("BAD_SOURCE") && err.contains("outside the marketplace"),
        "{err}"
    );

    let up = ok_json(&skilldeck(root, &["plugin", "update", "--json"]));
    assert_eq!(up["upToDate"][0], "tools@acme");

    let gone = ok_json(&skilldeck(
        root,
        &["plugin", "uninstall", "tools@acme", "--json"],
    ));
    assert_eq!(gone["scope"], "user");
    // Claude Code keeps an unused version 14 days, marked orphaned.
    assert!(claude
        .join("plugins/cache/acme/tools/1.2.0/.orphaned_at")
        .is_file());
    let removed = ok_json(&skilldeck(
        root,
        &["marketplace", "remove", "acme", "--json"],
    ));
    assert_eq!(removed["name"], "acme");
}

#[test]
fn blocked_marketplace_exits_1_with_the_policy_code() {
    let tmp = setup();
    let root = tmp.path();
    write(
        &root.join("managed-settings.json"),
        r#"{"blockedMarketplaces": [{"source": "pathPattern", "pathPattern": "market$"}]}"#,
    );
    let out = skilldeck(
        root,
        &[
            "marketplace",
            "add",
            root.join("market").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("POLICY_BLOCKED"), "{err}");
    assert!(!root
        .join("home/.claude/plugins/known_marketplaces.json")
        .exists());
}
