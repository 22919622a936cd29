//! Plugins written in GitHub Copilot CLI's own layout (`PluginHost::CopilotCli`), checked
//! against what Copilot CLI 1.0.102 itself wrote (`tests/oracle/copilot-cli-1.0.102`), and
//! read back by the core engine's `copilot-cli` profile.

mod common;

use common::{commit, file_url, git, git_repo, skill_md, write_tree};
use serde_json::{json, Value};
use skilldeck_install::{
    marketplace_add, marketplace_list, marketplace_remove, marketplace_update, plugin_install,
    plugin_list, plugin_set_enabled, plugin_uninstall, plugin_update, Context, PluginContext,
    PluginHost, PluginInstallRequest, PluginScope,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

struct Env {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    market: PathBuf,
    ctx: PluginContext,
}

impl Env {
    /// The marketplace of the recording (tools, inline) plus a direct plugin `dp` in `dpdir`.
    fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let home = root.join("home");
        let project = root.join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        let mut ctx = PluginContext::new(&Context::new(&project)).unwrap();
        ctx.claude_dir = home.join(".claude");
        ctx.home_dir = Some(home.clone());
        ctx.managed_settings = root.join("managed-settings.json");
        ctx.host = PluginHost::CopilotCli;
        ctx.copilot_dir = Some(home.join(".copilot"));
        let market = root.join("market");
        write_tree(
            &market,
            &[
                (
                    ".claude-plugin/marketplace.json",
                    &serde_json::to_string_pretty(&json!({"name": "acme", "owner": {"name": "Acme"}, "plugins": [
                        {"name": "tools", "source": "./plugins/tools", "description": "PDF and CSV"},
                        {"name": "inline", "source": "./plugins/inline", "strict": false, "version": "0.3.0"},
                        {"name": "escape", "source": "./../outside", "strict": false}
                    ]}))
                    .unwrap(),
                ),
                (
                    "plugins/tools/.claude-plugin/plugin.json",
                    r#"{"name": "tools", "version": "1.0.0"}"#,
                ),
                ("plugins/tools/skills/pdf/SKILL.md", &skill_md("pdf")),
                ("plugins/inline/skills/notes/SKILL.md", &skill_md("notes")),
            ],
        );
        write_tree(
            &root.join("direct/dpdir"),
            &[
                ("plugin.json", r#"{"name": "dp", "version": "0.1.0"}"#),
                ("skills/dskill/SKILL.md", &skill_md("dskill")),
            ],
        );
        Env {
            _tmp: tmp,
            root,
            market,
            ctx,
        }
    }

    fn copilot(&self) -> PathBuf {
        self.ctx.copilot_dir.clone().unwrap()
    }

    fn install(
        &self,
        spec: &str,
    ) -> skilldeck_install::Result<skilldeck_install::PluginInstallReport> {
        plugin_install(
            &self.ctx,
            &PluginInstallRequest {
                plugin: spec.into(),
                scope: PluginScope::User,
                ..Default::default()
            },
            None,
        )
    }

    /// A file of Copilot's home as JSON (comment lines dropped), paths and times masked as
    /// the recording masks them.
    fn read(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.copilot().join(name)).unwrap();
        masked(
            &text
                .replace(self.market.to_str().unwrap(), "$MARKET")
                .replace(self.copilot().to_str().unwrap(), "$COPILOT")
                .replace(self.root.join("direct/dpdir").to_str().unwrap(), "$PLUGIN"),
        )
    }

    fn copilot_ids(&self) -> Vec<String> {
        let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
            profile: "copilot-cli".into(),
            project_dir: self.ctx.project_dir.clone(),
            home_dir: self.ctx.home_dir.clone(),
            env: Some(BTreeMap::new()),
            system_root: Some(self.root.join("system")),
            ..Default::default()
        })
        .unwrap();
        let catalog = deck.load().unwrap();
        catalog.skills.iter().map(|s| s.id.to_string()).collect()
    }
}

/// JSON after Copilot's `//` header, `installed_at` replaced by `$TIME`.
fn masked(text: &str) -> Value {
    let json: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut v: Value = serde_json::from_str(&json).unwrap();
    if let Some(list) = v.get_mut("installedPlugins").and_then(Value::as_array_mut) {
        for e in list {
            e["installed_at"] = json!("$TIME");
        }
    }
    v
}

fn oracle(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle/copilot-cli-1.0.102")
        .join(name);
    masked(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn oracle_matches_copilot_cli_for_marketplace_plugins() {
    let env = Env::new();
    let added = marketplace_add(&env.ctx, "../market", None).unwrap();
    assert_eq!(added.name, "acme");
    assert_eq!(added.plugins, ["tools", "inline", "escape"]);
    let tools = env.install("tools@acme").unwrap();
    // Loaded live from the marketplace: nothing is copied.
    assert_eq!(
        tools.plugin.install_path,
        env.market.join("plugins/tools").to_string_lossy()
    );
    assert_eq!(tools.plugin.skills, ["pdf"]);
    env.install("inline@acme").unwrap();
    assert_eq!(env.read("settings.json"), oracle("settings.json"));
    assert!(!env.copilot().join("installed-plugins").exists());
    assert!(!env.copilot().join("config.json").exists());
    assert_eq!(env.copilot_ids(), ["pdf", "notes"]);

    plugin_set_enabled(&env.ctx, "inline@acme", PluginScope::User, false).unwrap();
    assert_eq!(env.copilot_ids(), ["pdf"]);
    plugin_set_enabled(&env.ctx, "inline", PluginScope::User, true).unwrap();
    assert_eq!(
        env.read("settings.json"),
        oracle("settings-after-enable.json")
    );

    plugin_set_enabled(&env.ctx, "inline@acme", PluginScope::User, false).unwrap();
    let gone = plugin_uninstall(&env.ctx, "tools@acme", PluginScope::User).unwrap();
    assert_eq!(
        gone.removed_path, None,
        "the marketplace's files are the user's"
    );
    assert!(env
        .market
        .join("plugins/tools/skills/pdf/SKILL.md")
        .is_file());
    assert_eq!(
        env.read("settings.json"),
        oracle("settings-after-disable-and-uninstall.json")
    );
    assert!(env.copilot_ids().is_empty());

    let list = plugin_list(&env.ctx, None).unwrap();
    assert_eq!(
        list.iter()
            .map(|p| (p.id.as_str(), p.enabled))
            .collect::<Vec<_>>(),
        [("tools@acme", false), ("inline@acme", false)]
    );
    let updated = plugin_update(&env.ctx, None, PluginScope::User, None).unwrap();
    assert_eq!(updated.up_to_date, ["tools@acme", "inline@acme"]);
    assert!(updated.changes.is_empty());
}

#[test]
fn marketplace_remove_keeps_enabled_plugins_as_copilot_cli_does() {
    let env = Env::new();
    marketplace_add(&env.ctx, "../market", None).unwrap();
    env.install("tools@acme").unwrap();
    env.install("inline@acme").unwrap();
    let removed = marketplace_remove(&env.ctx, "acme").unwrap();
    assert!(removed.uninstalled.is_empty());
    let recorded = oracle("settings-after-marketplace-remove.json");
    assert_eq!(env.read("settings.json"), recorded);
    assert!(marketplace_list(&env.ctx).unwrap().is_empty());
    // Enabled but from no known marketplace: the host loads nothing of them.
    assert!(env.copilot_ids().is_empty());
    let again = marketplace_remove(&env.ctx, "acme").unwrap_err();
    assert!(again.to_string().contains("not registered"), "{again}");
}

#[test]
fn oracle_matches_copilot_cli_for_direct_installs() {
    let env = Env::new();
    let report = env.install("../direct/dpdir").unwrap();
    assert_eq!(report.plugin.id, "dp");
    assert_eq!(report.plugin.skills, ["dskill"]);
    // The copy is named after the source directory, the entry after the manifest.
    let copy = env.copilot().join("installed-plugins/_direct/dpdir");
    assert!(copy.join("skills/dskill/SKILL.md").is_file());
    assert_eq!(env.read("config.json"), oracle("config-direct-named.json"));
    let text = std::fs::read_to_string(env.copilot().join("config.json")).unwrap();
    assert!(text.starts_with(
        "// User settings belong in settings.json.\n// This file is managed automatically.\n{"
    ));
    assert_eq!(env.copilot_ids(), ["dskill"]);

    plugin_set_enabled(&env.ctx, "dp", PluginScope::User, false).unwrap();
    assert_eq!(
        env.read("config.json"),
        oracle("config-direct-disabled.json")
    );
    assert!(env.copilot_ids().is_empty());

    // Update copies again and writes a fresh, enabled entry (recorded).
    std::fs::write(env.root.join("direct/dpdir/skills/dskill/extra.txt"), "new").unwrap();
    let updated = plugin_update(&env.ctx, Some("dp"), PluginScope::User, None).unwrap();
    assert_eq!(updated.changes.len(), 1);
    assert!(copy.join("skills/dskill/extra.txt").is_file());
    assert_eq!(env.read("config.json"), oracle("config-direct-named.json"));

    let gone = plugin_uninstall(&env.ctx, "dp", PluginScope::User).unwrap();
    assert_eq!(gone.removed_path.as_deref(), copy.to_str());
    assert_eq!(
        env.read("config.json"),
        oracle("config-direct-uninstalled.json")
    );
    assert!(!env.copilot().join("installed-plugins/_direct").exists());
    assert!(env.root.join("direct/dpdir/plugin.json").is_file());
}

#[test]
fn copilot_cli_refusals_leave_settings_untouched() {
    let env = Env::new();
    marketplace_add(&env.ctx, "../market", None).unwrap();
    let before = std::fs::read(env.copilot().join("settings.json")).unwrap();
    let escape = env.install("escape@acme").unwrap_err();
    assert!(
        escape.to_string().contains("escapes marketplace"),
        "{escape}"
    );
    let unknown = env.install("tools@nowhere").unwrap_err();
    assert!(unknown.to_string().contains("nowhere"), "{unknown}");
    let missing = env.install("ghost@acme").unwrap_err();
    assert!(missing.to_string().contains("ghost"), "{missing}");
    let scoped = plugin_install(
        &env.ctx,
        &PluginInstallRequest {
            plugin: "tools@acme".into(),
            scope: PluginScope::Project,
            ..Default::default()
        },
        None,
    )
    .unwrap_err();
    assert!(scoped.to_string().contains("--scope user"), "{scoped}");
    assert_eq!(
        std::fs::read(env.copilot().join("settings.json")).unwrap(),
        before
    );

    // A bare name is the marketplace's plugin first, as the host resolves it.
    env.install("../direct/dpdir").unwrap();
    std::fs::create_dir_all(env.root.join("direct/tools")).unwrap();
    let info = plugin_set_enabled(&env.ctx, "tools", PluginScope::User, false).unwrap();
    assert_eq!(info.id, "tools@acme");
}

/// The repository `tests/oracle/copilot-cli-1.0.102/git-record*.sh` gave Copilot CLI, and its
/// bare clone (work tree, bare).
fn git_market(root: &Path) -> (PathBuf, PathBuf) {
    let work = root.join("gitmarket");
    git_repo(
        &work,
        &[
            (
                ".claude-plugin/marketplace.json",
                r#"{"name": "acme", "owner": {"name": "Acme"}, "plugins": [
 {"name": "tools", "source": "./plugins/tools", "description": "PDF and CSV"},
 {"name": "inline", "source": "./plugins/inline", "strict": false, "version": "0.3.0"}
]}"#,
            ),
            (
                "plugins/tools/.claude-plugin/plugin.json",
                r#"{"name": "tools", "version": "1.0.0"}"#,
            ),
            (
                "plugins/tools/skills/pdf/SKILL.md",
                "---\nname: pdf\ndescription: d\n---\nbody\n",
            ),
            (
                "plugins/inline/skills/notes/SKILL.md",
                "---\nname: notes\ndescription: d\n---\nbody\n",
            ),
        ],
    );
    git(
        root,
        &["clone", "-q", "--bare", "gitmarket", "gitmarket.git"],
    );
    (work, root.join("gitmarket.git"))
}

/// What the git recordings are compared with: the clone's directory name as `$CLONE`, the
/// URL as `$SOURCE`; the recorded `source_sha` is left out (not reproduced).
struct GitCase {
    env: Env,
    work: PathBuf,
    bare: PathBuf,
    url: String,
    clone_name: String,
}

impl GitCase {
    fn new() -> GitCase {
        let env = Env::new();
        let (work, bare) = git_market(&env.root);
        let url = file_url(&bare);
        let clone_name: String = url
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        GitCase {
            env,
            work,
            bare,
            url,
            clone_name,
        }
    }

    fn read(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.env.copilot().join(name)).unwrap();
        masked(
            &text
                .replace(&self.url, "$SOURCE")
                .replace(self.env.copilot().to_str().unwrap(), "$COPILOT"),
        )
    }

    fn oracle(&self, name: &str) -> Value {
        let mut v = oracle(name);
        if let Some(list) = v.get_mut("installedPlugins").and_then(Value::as_array_mut) {
            for e in list {
                e.as_object_mut().unwrap().shift_remove("source_sha");
            }
        }
        v
    }

    fn files(&self) -> Vec<String> {
        let home = self.env.copilot();
        let mut out = Vec::new();
        walk(&home, &home, &mut out);
        out.retain(|f| !f.split('/').any(|p| p == ".git"));
        let mut out: Vec<String> = out
            .into_iter()
            .map(|f| f.replace(&self.clone_name, "$CLONE"))
            .collect();
        out.sort();
        out
    }

    fn recorded_files(&self, name: &str) -> Vec<String> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/oracle/copilot-cli-1.0.102")
            .join(name);
        let mut out: Vec<String> = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        out.sort();
        out
    }
}

fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(base, &path, out);
        } else {
            out.push(
                path.strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}

#[test]
fn git_marketplace_install_and_uninstall_match_copilot_cli() {
    let case = GitCase::new();
    let env = &case.env;
    let info = marketplace_add(&env.ctx, &case.url, None).unwrap();
    assert_eq!(info.name, "acme");
    assert_eq!(info.plugins, ["tools", "inline"]);
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-add.json")
    );
    assert_eq!(case.files(), case.recorded_files("git-files-add.txt"));
    let clone = env
        .copilot()
        .join(".cache/copilot/marketplaces")
        .join(&case.clone_name);
    assert!(
        clone.join(".git/shallow").is_file(),
        "a shallow clone, as the host's"
    );
    let freshness: Value = serde_json::from_str(
        &std::fs::read_to_string(
            env.copilot()
                .join(".cache/copilot/marketplaces/freshness.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert!(freshness[clone.to_str().unwrap()].is_f64());

    let tools = env.install("tools@acme").unwrap();
    assert_eq!(
        tools.plugin.install_path,
        env.copilot()
            .join("installed-plugins/acme/tools")
            .to_string_lossy()
    );
    env.install("inline@acme").unwrap();
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-install.json")
    );
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-install.json")
    );
    assert_eq!(case.files(), case.recorded_files("git-files-install.txt"));
    let listed: Vec<String> = plugin_list(&env.ctx, None)
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(listed, ["tools@acme", "inline@acme"]);
    // The copilot-cli profile reads the copies through config.json's installedPlugins.
    assert_eq!(env.copilot_ids(), ["pdf", "notes"]);

    plugin_uninstall(&env.ctx, "tools@acme", PluginScope::User).unwrap();
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-uninstall.json")
    );
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-uninstall.json")
    );
    assert_eq!(case.files(), case.recorded_files("git-files-uninstall.txt"));
    // Refused while `inline` is installed, as the host refuses without --force.
    let err = marketplace_remove(&env.ctx, "acme").unwrap_err();
    assert!(
        err.to_string()
            .contains("Installed plugins from this marketplace: inline"),
        "{err}"
    );
}

#[test]
fn git_marketplace_enable_update_and_remove_match_copilot_cli() {
    let case = GitCase::new();
    let env = &case.env;
    marketplace_add(&env.ctx, &case.url, None).unwrap();
    let err = marketplace_add(&env.ctx, &case.url, None).unwrap_err();
    assert!(err.to_string().contains("already registered"), "{err}");
    env.install("tools@acme").unwrap();
    plugin_set_enabled(&env.ctx, "tools@acme", PluginScope::User, false).unwrap();
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-disable.json")
    );
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-disable.json")
    );
    plugin_set_enabled(&env.ctx, "tools", PluginScope::User, true).unwrap();
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-enable.json")
    );
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-enable.json")
    );

    commit(
        &case.work,
        &[(
            "plugins/tools/.claude-plugin/plugin.json",
            r#"{"name": "tools", "version": "1.1.0"}"#,
        )],
        "two",
    );
    git(
        &case.work,
        &["push", "-q", case.bare.to_str().unwrap(), "main"],
    );
    let head = git(&case.work, &["rev-parse", "HEAD"]);
    let up = marketplace_update(&env.ctx, Some("acme"), None).unwrap();
    assert_eq!(up[0].to_commit.as_deref(), Some(head.as_str()));
    assert_ne!(up[0].from_commit, up[0].to_commit);
    // The marketplace moved; the installed copy did not.
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-enable.json")
    );
    assert_eq!(case.files(), case.recorded_files("git-files-mupdate.txt"));
    let report = plugin_update(&env.ctx, Some("tools@acme"), PluginScope::User, None).unwrap();
    assert_eq!(report.changes.len(), 1);
    assert_eq!(report.changes[0].to_version.as_deref(), Some("1.1.0"));
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-pupdate.json")
    );

    plugin_uninstall(&env.ctx, "tools@acme", PluginScope::User).unwrap();
    marketplace_remove(&env.ctx, "acme").unwrap();
    assert_eq!(
        case.read("settings.json"),
        case.oracle("git-settings-mremove.json")
    );
    assert_eq!(
        case.read("config.json"),
        case.oracle("git-config-mremove.json")
    );
    assert_eq!(case.files(), case.recorded_files("git-files-mremove.txt"));
}
