//! Plugins installed in Codex's own layout (`PluginHost::Codex`), checked against what Codex
//! 0.169.0 itself wrote (`tests/oracle/codex-0.169.0`), and read back by the core engine's
//! `codex` profile.

mod common;

use common::{commit, file_url, git, git_repo, skill_md, write_tree};
use serde_json::{json, Map, Value};
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
        ctx.host = PluginHost::Codex;
        ctx.codex_dir = Some(home.join(".codex"));
        let market = root.join("market");
        let pretty = |v: Value| serde_json::to_string_pretty(&v).unwrap();
        write_tree(
            &market,
            &[
                (
                    ".claude-plugin/marketplace.json",
                    &pretty(
                        json!({"name": "acme", "owner": {"name": "Acme"}, "plugins": [
                            {"name": "tools", "source": "./plugins/tools", "description": "PDF and CSV"},
                            {"name": "inline", "source": "./plugins/inline", "strict": false, "version": "0.3.0"},
                            {"name": "rich", "source": "./plugins/inline", "strict": false, "version": "2.0.0",
                             "description": "D", "author": {"name": "x"}, "category": "c"},
                            {"name": "escape", "source": "./../outside"}
                        ]}),
                    ),
                ),
                (
                    "plugins/tools/.claude-plugin/plugin.json",
                    r#"{"name": "tools", "version": "1.0.0"}"#,
                ),
                ("plugins/tools/skills/pdf/SKILL.md", &skill_md("pdf")),
                ("plugins/inline/skills/notes/SKILL.md", &skill_md("notes")),
            ],
        );
        Env {
            _tmp: tmp,
            root,
            market,
            ctx,
        }
    }

    fn codex(&self) -> PathBuf {
        self.ctx.codex_dir.clone().unwrap()
    }

    fn install(
        &self,
        id: &str,
    ) -> skilldeck_install::Result<skilldeck_install::PluginInstallReport> {
        plugin_install(
            &self.ctx,
            &PluginInstallRequest {
                plugin: id.into(),
                scope: PluginScope::User,
                ..Default::default()
            },
            None,
        )
    }

    /// config.toml as JSON, the marketplace path written as `$MARKET`.
    fn config(&self) -> Value {
        let text = std::fs::read_to_string(self.codex().join("config.toml")).unwrap();
        toml_json(&text.replace(self.market.to_str().unwrap(), "$MARKET"))
    }

    fn files(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk(&self.codex(), &self.codex(), &mut out);
        out.retain(|f| f.starts_with("plugins/"));
        out.sort();
        out
    }

    fn codex_ids(&self) -> Vec<String> {
        let deck = skilldeck::Deck::new(skilldeck::DeckOptions {
            profile: "codex".into(),
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

fn toml_json(text: &str) -> Value {
    fn item(i: &toml_edit::Item) -> Value {
        match i {
            toml_edit::Item::Table(t) => table(t.iter()),
            toml_edit::Item::Value(v) => value(v),
            _ => Value::Null,
        }
    }
    fn value(v: &toml_edit::Value) -> Value {
        match v {
            toml_edit::Value::String(s) => Value::String(s.value().clone()),
            toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
            toml_edit::Value::Integer(n) => json!(*n.value()),
            toml_edit::Value::Array(a) => Value::Array(a.iter().map(value).collect()),
            toml_edit::Value::InlineTable(t) => {
                Value::Object(t.iter().map(|(k, v)| (k.to_string(), value(v))).collect())
            }
            other => Value::String(other.to_string()),
        }
    }
    fn table<'a>(it: impl Iterator<Item = (&'a str, &'a toml_edit::Item)>) -> Value {
        Value::Object(
            it.map(|(k, v)| (k.to_string(), item(v)))
                .collect::<Map<_, _>>(),
        )
    }
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    table(doc.iter())
}

fn oracle(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/codex-0.169.0");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

#[test]
fn oracle_matches_codex() {
    let env = Env::new();
    let info = marketplace_add(&env.ctx, "../market", None).unwrap();
    assert_eq!(info.name, "acme");
    assert_eq!(info.plugins, ["tools", "inline", "rich", "escape"]);
    env.install("tools@acme").unwrap();
    let inline = env.install("inline@acme").unwrap();
    assert_eq!(inline.plugin.version.as_deref(), Some("0.3.0"));
    assert_eq!(inline.plugin.skills, ["inline:notes"]);
    env.install("rich@acme").unwrap();

    assert_eq!(env.config(), toml_json(&oracle("config.toml")));
    assert_eq!(env.files(), lines(&oracle("cache-files.txt")));
    let cache = env.codex().join("plugins/cache/acme");
    for (plugin, recorded) in [
        ("inline/0.3.0", "inline-codex-plugin.json"),
        ("rich/2.0.0", "rich-codex-plugin.json"),
    ] {
        let ours: Value = serde_json::from_str(
            &std::fs::read_to_string(cache.join(plugin).join(".codex-plugin/plugin.json")).unwrap(),
        )
        .unwrap();
        let want: Value = serde_json::from_str(&oracle(recorded)).unwrap();
        assert_eq!(ours, want, "{recorded}");
    }
    // What Codex lists: every enabled plugin's skills as plugin:skill.
    assert_eq!(env.codex_ids(), ["inline:notes", "rich:notes", "tools:pdf"]);

    plugin_uninstall(&env.ctx, "tools@acme", PluginScope::User).unwrap();
    assert_eq!(env.config(), toml_json(&oracle("config-after-remove.toml")));
    assert_eq!(env.files(), lines(&oracle("cache-files-after-remove.txt")));
    assert!(!cache.join("tools").exists());
    assert_eq!(env.codex_ids(), ["inline:notes", "rich:notes"]);
}

#[test]
fn reinstall_keeps_one_version_disable_hides_and_comments_survive() {
    let env = Env::new();
    let config = env.codex().join("config.toml");
    std::fs::create_dir_all(env.codex()).unwrap();
    std::fs::write(&config, "# mine\nmodel = \"o3\"\n").unwrap();
    marketplace_add(&env.ctx, env.market.to_str().unwrap(), None).unwrap();
    env.install("inline@acme").unwrap();
    // A new version replaces the directory, as Codex's install does.
    let listing = env.market.join(".claude-plugin/marketplace.json");
    let text = std::fs::read_to_string(&listing).unwrap();
    std::fs::write(&listing, text.replace("\"0.3.0\"", "\"0.4.0\"")).unwrap();
    env.install("inline@acme").unwrap();
    let versions: Vec<String> = std::fs::read_dir(env.codex().join("plugins/cache/acme/inline"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(versions, ["0.4.0"]);

    let off = plugin_set_enabled(&env.ctx, "inline", PluginScope::User, false).unwrap();
    assert!(!off.enabled);
    assert_eq!(env.codex_ids(), Vec::<String>::new());
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.starts_with("# mine\nmodel = \"o3\"\n"), "{text}");
    assert!(text.contains("enabled = false"), "{text}");
    let listed = plugin_list(&env.ctx, None).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].version.as_deref(), Some("0.4.0"));
    assert_eq!(marketplace_list(&env.ctx).unwrap()[0].name, "acme");
}

#[test]
fn codex_refusals_leave_nothing_behind() {
    let env = Env::new();
    marketplace_add(&env.ctx, env.market.to_str().unwrap(), None).unwrap();
    let err = env.install("escape@acme").unwrap_err();
    assert_eq!(err.code(), "BAD_SOURCE");
    assert!(err.to_string().contains("outside the marketplace"), "{err}");
    let err = plugin_install(
        &env.ctx,
        &PluginInstallRequest {
            plugin: "tools@acme".into(),
            scope: PluginScope::Project,
            ..Default::default()
        },
        None,
    )
    .unwrap_err();
    assert!(err.to_string().contains("user's config.toml only"), "{err}");
    assert!(!env.codex().join("plugins/cache/acme/tools").exists());
    for refused in ["a/b/c", "./market#v1", "./nothing-here"] {
        let err = marketplace_add(&env.ctx, refused, None).unwrap_err();
        assert_eq!(err.code(), "BAD_SOURCE", "{refused}");
    }
    // The marketplace of Env is local: Codex's upgrade only fetches git marketplaces.
    assert!(marketplace_update(&env.ctx, None, None).unwrap().is_empty());
    let err = marketplace_update(&env.ctx, Some("acme"), None).unwrap_err();
    assert!(
        err.to_string()
            .contains("not configured as a Git marketplace"),
        "{err}"
    );
}

/// The marketplace `tests/oracle/codex-0.169.0/git-record.sh` gave Codex, as a repository
/// (returned: the work tree and the bare repository cloned from it).
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
    let bare = root.join("gitmarket.git");
    git(
        root,
        &["clone", "-q", "--bare", "gitmarket", "gitmarket.git"],
    );
    (work, bare)
}

/// Every file under $CODEX_HOME but config.toml, nothing inside a `.git`.
fn all_files(env: &Env) -> Vec<String> {
    let mut out = Vec::new();
    walk(&env.codex(), &env.codex(), &mut out);
    out.retain(|f| f != "config.toml" && !f.split('/').any(|p| p == ".git"));
    out.sort();
    out
}

/// A recorded file list without the lock files Codex keeps beside its clones (not
/// reproduced: skilldeck does not lock).
fn recorded_files(name: &str) -> Vec<String> {
    let mut out = lines(&oracle(name));
    out.retain(|f| !f.starts_with(".tmp/marketplaces/.staging"));
    out
}

#[test]
fn git_marketplace_matches_codex() {
    let env = Env::new();
    let (work, bare) = git_market(&env.root);
    let url = file_url(&bare);
    let config = |name: &str| toml_json(&oracle(name).replace("$SOURCE", &url));
    let read_config =
        || toml_json(&std::fs::read_to_string(env.codex().join("config.toml")).unwrap());
    let info = marketplace_add(&env.ctx, &url, None).unwrap();
    assert_eq!(info.name, "acme");
    assert_eq!(info.plugins, ["tools", "inline"]);
    let clone = env.codex().join(".tmp/marketplaces/acme");
    assert_eq!(info.install_location, clone.to_string_lossy());
    env.install("tools@acme").unwrap();
    env.install("inline@acme").unwrap();
    assert_eq!(read_config(), config("git-config.toml"));
    assert_eq!(all_files(&env), recorded_files("git-files.txt"));
    assert!(clone.join(".git").is_dir(), "Codex keeps the clone's .git");
    // The same source again is "already added"; another one under the name is refused.
    marketplace_add(&env.ctx, &url, None).unwrap();
    let err = marketplace_add(&env.ctx, &format!("{url}#main"), None).unwrap_err();
    assert!(err.to_string().contains("different source"), "{err}");

    // The first upgrade fetches again and writes the install metadata.
    let first = git(&work, &["rev-parse", "HEAD"]);
    let up = marketplace_update(&env.ctx, None, None).unwrap();
    assert_eq!(up.len(), 1);
    assert_eq!(up[0].to_commit.as_deref(), Some(first.as_str()));
    let metadata = |rev: &str| {
        oracle("git-install-metadata.json")
            .replace("$SOURCE", &url)
            .replace("$REVISION", rev)
    };
    let written =
        || std::fs::read_to_string(clone.join(".codex-marketplace-install.json")).unwrap();
    assert_eq!(written(), metadata(&first));

    // A new commit: the clone is replaced and the configured plugins are installed again.
    commit(
        &work,
        &[
            (
                "plugins/tools/.claude-plugin/plugin.json",
                r#"{"name": "tools", "version": "1.1.0"}"#,
            ),
            (
                "plugins/inline/skills/notes/SKILL.md",
                "---\nname: notes\ndescription: d\n---\nbody\nmore\n",
            ),
        ],
        "two",
    );
    git(&work, &["push", "-q", bare.to_str().unwrap(), "main"]);
    let second = git(&work, &["rev-parse", "HEAD"]);
    let up = marketplace_update(&env.ctx, Some("acme"), None).unwrap();
    assert_eq!(up[0].from_commit.as_deref(), Some(first.as_str()));
    assert_eq!(up[0].to_commit.as_deref(), Some(second.as_str()));
    assert_eq!(written(), metadata(&second));
    assert_eq!(
        all_files(&env),
        recorded_files("git-files-after-upgrade.txt")
    );
    assert_eq!(read_config(), config("git-config-after-upgrade.toml"));
    let notes = env
        .codex()
        .join("plugins/cache/acme/inline/0.3.0/skills/notes/SKILL.md");
    assert!(std::fs::read_to_string(notes).unwrap().ends_with("more\n"));
    assert_eq!(env.codex_ids(), ["inline:notes", "tools:pdf"]);
    // Nothing new: the clone stays.
    let up = marketplace_update(&env.ctx, None, None).unwrap();
    assert_eq!(up[0].from_commit, up[0].to_commit);

    marketplace_remove(&env.ctx, "acme").unwrap();
    assert_eq!(read_config(), config("git-config-after-remove.toml"));
    assert_eq!(
        all_files(&env),
        recorded_files("git-files-after-remove.txt")
    );
}

#[test]
fn plugin_update_installs_again_and_keeps_enabled() {
    let env = Env::new();
    marketplace_add(&env.ctx, "../market", None).unwrap();
    env.install("inline@acme").unwrap();
    env.install("tools@acme").unwrap();
    plugin_set_enabled(&env.ctx, "inline", PluginScope::User, false).unwrap();
    let same = plugin_update(&env.ctx, None, PluginScope::User, None).unwrap();
    assert_eq!(same.up_to_date, ["inline@acme", "tools@acme"]);
    assert!(same.changes.is_empty());
    std::fs::write(
        env.market.join("plugins/inline/skills/notes/SKILL.md"),
        skill_md("notes") + "more\n",
    )
    .unwrap();
    let report = plugin_update(&env.ctx, Some("inline"), PluginScope::User, None).unwrap();
    assert_eq!(report.changes.len(), 1);
    assert_eq!(report.changes[0].id, "inline@acme");
    assert_ne!(
        report.changes[0].from_digest.as_deref(),
        Some(report.changes[0].to_digest.as_str())
    );
    let listed = plugin_list(&env.ctx, None).unwrap();
    let inline = listed.iter().find(|p| p.id == "inline@acme").unwrap();
    assert!(!inline.enabled, "an update keeps the plugin disabled");
    let err = plugin_update(&env.ctx, None, PluginScope::Project, None).unwrap_err();
    assert!(err.to_string().contains("user's config.toml only"), "{err}");
}
