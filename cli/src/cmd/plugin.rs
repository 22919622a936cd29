//! `skilldeck marketplace …` and `skilldeck plugin …` (cargo feature `install`): thin
//! wrappers over `skilldeck_install::plugin`, which writes Claude Code's own files.
//!
//! Exit codes: 0 success, 1 an operation failed, 2 usage.

use super::install::{fail, json, print, progress, short, warn};
use skilldeck_install::{Context, PluginContext, PluginHost, PluginInfo, PluginScope};
use std::path::PathBuf;

/// Flags every marketplace and plugin command shares.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// The project (project scope enables plugins in <project>/.claude/settings.json;
    /// default: the current directory).
    #[arg(long, value_name = "DIR", global = true)]
    pub project: Option<PathBuf>,
    /// Claude Code's managed settings file, whose strictKnownMarketplaces and
    /// blockedMarketplaces apply (default: the platform's, e.g.
    /// /etc/claude-code/managed-settings.json).
    #[arg(long, value_name = "FILE", global = true)]
    pub managed_settings: Option<PathBuf>,
    /// Most files one plugin may hold.
    #[arg(long, value_name = "N", default_value_t = 512, global = true)]
    pub max_files: usize,
    /// Most bytes one plugin may hold.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024, global = true)]
    pub max_bytes: u64,
    /// Whose files to write: Claude Code's (default), Codex's ($CODEX_HOME/config.toml and
    /// plugins/cache; git marketplaces in .tmp/marketplaces) or Copilot CLI's
    /// ($COPILOT_HOME/settings.json and config.json); the last two: user scope only.
    #[arg(long, value_enum, default_value = "claude-code", global = true)]
    pub host: HostArg,
    /// Print JSON instead of human output.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum HostArg {
    /// Claude Code 2.1.197's layout.
    ClaudeCode,
    /// Codex 0.169.0's layout.
    Codex,
    /// GitHub Copilot CLI 1.0.102's layout.
    CopilotCli,
}

impl Common {
    fn context(&self) -> Result<PluginContext, i32> {
        let project = self
            .project
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let mut ctx = Context::new(project);
        ctx.limits.max_files = self.max_files;
        ctx.limits.max_bytes = self.max_bytes;
        let mut pctx = PluginContext::new(&ctx).map_err(|e| fail(&e))?;
        if let Some(m) = &self.managed_settings {
            pctx.managed_settings = m.clone();
        }
        pctx.host = match self.host {
            HostArg::ClaudeCode => PluginHost::ClaudeCode,
            HostArg::Codex => PluginHost::Codex,
            HostArg::CopilotCli => PluginHost::CopilotCli,
        };
        Ok(pctx)
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ScopeArg {
    /// ${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json.
    User,
    /// <project>/.claude/settings.json.
    Project,
    /// <project>/.claude/settings.local.json (this checkout only).
    Local,
    /// The administrator's managed settings (list only; never written).
    Managed,
}

impl From<ScopeArg> for PluginScope {
    fn from(s: ScopeArg) -> PluginScope {
        match s {
            ScopeArg::User => PluginScope::User,
            ScopeArg::Project => PluginScope::Project,
            ScopeArg::Local => PluginScope::Local,
            ScopeArg::Managed => PluginScope::Managed,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct MarketplaceArgs {
    #[command(subcommand)]
    pub command: MarketplaceCommand,
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Subcommand, Debug)]
pub enum MarketplaceCommand {
    /// Add a marketplace: a directory holding .claude-plugin/marketplace.json (read in place),
    /// a git URL (https://…git, ssh://, git@host:path, file://; `#ref` picks a branch or tag),
    /// github:owner/repo or owner/repo (cloned to plugins/marketplaces/<name>).
    Add {
        /// The marketplace source.
        source: String,
    },
    /// List the known marketplaces and the plugins each lists.
    List,
    /// Fetch git marketplaces again (all, or NAME) and re-read local ones.
    Update {
        /// A marketplace name.
        name: Option<String>,
    },
    /// Forget a marketplace, uninstalling its plugins and deleting its clone.
    Remove {
        /// A marketplace name.
        name: String,
    },
}

#[derive(clap::Args, Debug)]
pub struct PluginArgs {
    #[command(subcommand)]
    pub command: PluginCommand,
    /// user (default, like Claude Code) or project; `plugin list` shows both unless given.
    #[arg(long, value_enum, global = true)]
    pub scope: Option<ScopeArg>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Subcommand, Debug)]
pub enum PluginCommand {
    /// Install PLUGIN@MARKETPLACE, or a plugin straight from a directory or git URL, into
    /// Claude Code's plugin cache, and enable it in the scope's settings.
    Install {
        /// PLUGIN@MARKETPLACE or a SOURCE.
        plugin: String,
        /// Refuse the plugin when its audit (`skilldeck audit`) has a finding above this
        /// level: info, low, medium, high (default: refuse critical findings only) or
        /// critical (refuse nothing).
        #[arg(long, value_name = "LEVEL", value_parser = super::install::severity)]
        max_severity: Option<skilldeck::AuditSeverity>,
    },
    /// List installed plugins: user scope and this project's (only --scope's when given).
    List,
    /// Enable an installed plugin in the scope's settings.json.
    Enable {
        /// PLUGIN@MARKETPLACE (or PLUGIN when one marketplace provides it).
        plugin: String,
    },
    /// Disable an installed plugin in the scope's settings.json (it stays installed).
    Disable {
        /// PLUGIN@MARKETPLACE (or PLUGIN).
        plugin: String,
    },
    /// Refresh marketplaces and reinstall plugins whose files, commit or version changed.
    Update {
        /// PLUGIN@MARKETPLACE (or PLUGIN); default: every plugin of the scope.
        plugin: Option<String>,
    },
    /// Uninstall a plugin from the scope (a cache version no scope uses is marked orphaned and
    /// deleted 14 days later, as Claude Code does).
    Uninstall {
        /// PLUGIN@MARKETPLACE (or PLUGIN).
        plugin: String,
    },
}

pub fn marketplace(args: MarketplaceArgs) -> i32 {
    let ctx = match args.common.context() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let as_json = args.common.json;
    let progress = progress();
    match args.command {
        MarketplaceCommand::Add { source } => {
            match skilldeck_install::marketplace_add(&ctx, &source, progress.as_deref()) {
                Ok(info) if as_json => json(&info),
                Ok(info) => {
                    print(&format!(
                        "added marketplace {} ({} plugins) → {}\n",
                        info.name,
                        info.plugins.len(),
                        info.install_location
                    ));
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
        MarketplaceCommand::List => match skilldeck_install::marketplace_list(&ctx) {
            Ok(list) if as_json => json(&list),
            Ok(list) => {
                let mut text = String::new();
                for m in &list {
                    let at = m
                        .commit
                        .as_deref()
                        .map(|c| format!(" @ {}", short(c)))
                        .unwrap_or_default();
                    text.push_str(&format!(
                        "{}\t{}{at}\t{}\n",
                        m.name,
                        m.install_location,
                        m.error.clone().unwrap_or_else(|| m.plugins.join(", "))
                    ));
                }
                print(&text);
                crate::EXIT_OK
            }
            Err(e) => fail(&e),
        },
        MarketplaceCommand::Update { name } => {
            match skilldeck_install::marketplace_update(&ctx, name.as_deref(), progress.as_deref())
            {
                Ok(list) if as_json => json(&list),
                Ok(list) => {
                    let mut text = String::new();
                    for u in &list {
                        match (&u.from_commit, &u.to_commit) {
                            (Some(a), Some(b)) if a != b => text.push_str(&format!(
                                "updated {} {} → {}\n",
                                u.name,
                                short(a),
                                short(b)
                            )),
                            _ => text.push_str(&format!("refreshed {}\n", u.name)),
                        }
                    }
                    print(&text);
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
        MarketplaceCommand::Remove { name } => {
            match skilldeck_install::marketplace_remove(&ctx, &name) {
                Ok(r) if as_json => json(&r),
                Ok(r) => {
                    let mut text = format!("removed marketplace {}\n", r.name);
                    for id in &r.uninstalled {
                        text.push_str(&format!("uninstalled {id}\n"));
                    }
                    print(&text);
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
    }
}

fn line(p: &PluginInfo) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}\n",
        p.id,
        p.version.as_deref().unwrap_or("-"),
        p.scope.as_str(),
        match (p.enabled, p.modified) {
            (_, true) => "MODIFIED",
            (true, false) => "enabled",
            (false, false) => "disabled",
        },
        p.skills.join(", ")
    )
}

pub fn plugin(args: PluginArgs) -> i32 {
    let ctx = match args.common.context() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let as_json = args.common.json;
    let only: Option<PluginScope> = args.scope.map(Into::into);
    let scope = only.unwrap_or_default();
    let progress = progress();
    match args.command {
        PluginCommand::Install {
            plugin,
            max_severity,
        } => {
            let request = skilldeck_install::PluginInstallRequest {
                plugin,
                scope,
                max_severity,
            };
            match skilldeck_install::plugin_install(&ctx, &request, progress.as_deref()) {
                Ok(r) => {
                    warn(&r.warnings);
                    if as_json {
                        return json(&r);
                    }
                    print(&format!(
                        "installed {} {} → {} ({} files, {}); skills: {}\n",
                        r.plugin.id,
                        r.plugin.version.as_deref().unwrap_or("-"),
                        r.plugin.install_path,
                        r.files.len(),
                        r.plugin.digest.as_deref().unwrap_or("-"),
                        r.plugin.skills.join(", ")
                    ));
                    let notable = r
                        .audit
                        .iter()
                        .filter(|f| f.severity > skilldeck::AuditSeverity::Info)
                        .count();
                    if let Some(worst) = r.audit.first().filter(|_| notable > 0) {
                        print(&format!(
                            "audit: {notable} finding(s), the most severe {} ({} at {}); run `skilldeck audit {}` for all\n",
                            worst.severity, worst.code, worst.path, r.plugin.install_path
                        ));
                    }
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
        PluginCommand::List => match skilldeck_install::plugin_list(&ctx, only) {
            Ok(list) if as_json => json(&list),
            Ok(list) => {
                print(&list.iter().map(line).collect::<String>());
                crate::EXIT_OK
            }
            Err(e) => fail(&e),
        },
        PluginCommand::Enable { plugin } => set(&ctx, &plugin, scope, true, as_json),
        PluginCommand::Disable { plugin } => set(&ctx, &plugin, scope, false, as_json),
        PluginCommand::Update { plugin } => {
            match skilldeck_install::plugin_update(
                &ctx,
                plugin.as_deref(),
                scope,
                progress.as_deref(),
            ) {
                Ok(r) => {
                    warn(&r.warnings);
                    if as_json {
                        return json(&r);
                    }
                    let mut text = String::new();
                    for c in &r.changes {
                        text.push_str(&format!(
                            "updated {} {} → {}\n",
                            c.id,
                            c.from_version.as_deref().unwrap_or("-"),
                            c.to_version.as_deref().unwrap_or("-")
                        ));
                    }
                    for id in &r.up_to_date {
                        text.push_str(&format!("up to date {id}\n"));
                    }
                    print(&text);
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
        PluginCommand::Uninstall { plugin } => {
            match skilldeck_install::plugin_uninstall(&ctx, &plugin, scope) {
                Ok(r) if as_json => json(&r),
                Ok(r) => {
                    print(&format!("uninstalled {} ({})\n", r.id, r.scope.as_str()));
                    crate::EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
    }
}

fn set(ctx: &PluginContext, plugin: &str, scope: PluginScope, enabled: bool, as_json: bool) -> i32 {
    match skilldeck_install::plugin_set_enabled(ctx, plugin, scope, enabled) {
        Ok(info) if as_json => json(&info),
        Ok(info) => {
            print(&format!(
                "{} {} ({})\n",
                if enabled { "enabled" } else { "disabled" },
                info.id,
                scope.as_str()
            ));
            crate::EXIT_OK
        }
        Err(e) => fail(&e),
    }
}
