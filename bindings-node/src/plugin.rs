//! Plugin marketplaces and plugins (`skilldeck-install`'s `plugin` operations), installed in
//! Claude Code's own layout (or, with `host`, Codex's or Copilot CLI's): `marketplaceAdd`, `marketplaceList`, `marketplaceUpdate`,
//! `marketplaceRemove`, `pluginInstall`, `pluginList`, `pluginEnable`, `pluginDisable`,
//! `pluginUpdate`, `pluginUninstall`.
//!
//! Same shape as `install.rs`: each raw native half runs its operation on a worker thread
//! behind a Promise of `main.cjs`, each `...Sync` twin on the calling thread. The options are
//! read on the JS thread (unknown keys refused there); the `PluginContext` is built on the
//! operation's thread, so its failure (no home directory known) is an `InstallError` like any
//! other failure of the operation.

use crate::deck::Json;
use crate::install::{max_severity, run_op, run_sync, sync_options, Op};
use crate::options::{from_json, json_options, overridden, take_path, JsonOptions};
use crate::worker::Message;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;
use skilldeck_install::{
    Context, MarketplaceInfo, MarketplaceRemoveReport, MarketplaceUpdate, PluginContext,
    PluginHost, PluginInfo, PluginInstallReport, PluginInstallRequest, PluginScope,
    PluginUninstallReport, PluginUpdateReport,
};
use std::path::PathBuf;

/// The keys every plugin operation takes: where the project, the home directory, Claude
/// Code's configuration directory and the managed settings are, and the caps.
const CONTEXT_KEYS: &[&str] = &[
    "projectDir",
    "homeDir",
    "claudeDir",
    "managedSettings",
    "limits",
    "host",
];

fn keys(extra: &[&'static str]) -> Vec<&'static str> {
    CONTEXT_KEYS.iter().chain(extra).copied().collect()
}

/// The options that locate Claude Code's files, read but not yet resolved.
struct Where {
    ctx: Context,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    /// Whose files are written: `claude-code` (default), `codex` or `copilot-cli`.
    host: Option<PluginHost>,
}

impl Where {
    /// The plugin context: `PluginContext::new`'s defaults (`$CLAUDE_CONFIG_DIR` when absolute,
    /// else `<home>/.claude`; the platform's managed settings) under the caller's overrides.
    fn resolve(&self) -> skilldeck_install::Result<PluginContext> {
        let mut pctx = PluginContext::with_claude_dir(&self.ctx, self.claude_dir.clone())?;
        if let Some(file) = &self.managed_settings {
            pctx.managed_settings = file.clone();
        }
        if let Some(host) = self.host {
            pctx.host = host;
        }
        Ok(pctx)
    }
}

/// The options object with `known` keys; the context keys are taken out (what remains is
/// the operation's own).
fn prepare(
    what: &str,
    options: Option<Value>,
    known: &[&str],
) -> skilldeck::Result<(Where, JsonOptions)> {
    let mut options = json_options(what, options, known)?;
    let project_dir = take_path(&mut options, "projectDir")?.unwrap_or_else(|| ".".into());
    let mut ctx = Context::new(project_dir);
    if let Some(home) = take_path(&mut options, "homeDir")? {
        ctx.home_dir = Some(home);
    }
    if let Some(limits) = options.remove("limits") {
        ctx.limits = overridden("plugin limits", &ctx.limits, limits)?;
    }
    let claude_dir = take_path(&mut options, "claudeDir")?;
    let managed_settings = take_path(&mut options, "managedSettings")?;
    let host = options
        .remove("host")
        .map(|h| from_json("host", h))
        .transpose()?;
    let at = Where {
        ctx,
        claude_dir,
        managed_settings,
        host,
    };
    Ok((at, options))
}

/// `scope` (`user`, `project`, `local` or `managed`), when given.
fn scope_of(options: &mut JsonOptions) -> skilldeck::Result<Option<PluginScope>> {
    options
        .remove("scope")
        .map(|scope| from_json("scope", scope))
        .transpose()
}

fn marketplace_add_op(
    source: String,
    options: Option<Value>,
) -> skilldeck::Result<Op<MarketplaceInfo>> {
    let (at, _) = prepare("marketplaceAdd options", options, &keys(&["onProgress"]))?;
    Ok(Box::new(move |p| {
        skilldeck_install::marketplace_add(&at.resolve()?, &source, p)
    }))
}

fn marketplace_list_op(options: Option<Value>) -> skilldeck::Result<Op<Vec<MarketplaceInfo>>> {
    let (at, _) = prepare("marketplaceList options", options, &keys(&[]))?;
    Ok(Box::new(move |_| {
        skilldeck_install::marketplace_list(&at.resolve()?)
    }))
}

fn marketplace_update_op(
    name: Option<String>,
    options: Option<Value>,
) -> skilldeck::Result<Op<Vec<MarketplaceUpdate>>> {
    let (at, _) = prepare("marketplaceUpdate options", options, &keys(&["onProgress"]))?;
    Ok(Box::new(move |p| {
        skilldeck_install::marketplace_update(&at.resolve()?, name.as_deref(), p)
    }))
}

fn marketplace_remove_op(
    name: String,
    options: Option<Value>,
) -> skilldeck::Result<Op<MarketplaceRemoveReport>> {
    let (at, _) = prepare("marketplaceRemove options", options, &keys(&[]))?;
    Ok(Box::new(move |_| {
        skilldeck_install::marketplace_remove(&at.resolve()?, &name)
    }))
}

fn plugin_install_op(
    plugin: String,
    options: Option<Value>,
) -> skilldeck::Result<Op<PluginInstallReport>> {
    let known = keys(&["scope", "maxSeverity", "onProgress"]);
    let (at, mut rest) = prepare("pluginInstall options", options, &known)?;
    let request = PluginInstallRequest {
        plugin,
        scope: scope_of(&mut rest)?.unwrap_or_default(),
        max_severity: max_severity(rest.remove("maxSeverity"))?,
    };
    Ok(Box::new(move |p| {
        skilldeck_install::plugin_install(&at.resolve()?, &request, p)
    }))
}

fn plugin_list_op(options: Option<Value>) -> skilldeck::Result<Op<Vec<PluginInfo>>> {
    let (at, mut rest) = prepare("pluginList options", options, &keys(&["scope"]))?;
    let scope = scope_of(&mut rest)?;
    Ok(Box::new(move |_| {
        skilldeck_install::plugin_list(&at.resolve()?, scope)
    }))
}

fn plugin_set_enabled_op(
    what: &str,
    plugin: String,
    options: Option<Value>,
    enabled: bool,
) -> skilldeck::Result<Op<PluginInfo>> {
    let (at, mut rest) = prepare(what, options, &keys(&["scope"]))?;
    let scope = scope_of(&mut rest)?.unwrap_or_default();
    Ok(Box::new(move |_| {
        skilldeck_install::plugin_set_enabled(&at.resolve()?, &plugin, scope, enabled)
    }))
}

fn plugin_update_op(
    plugin: Option<String>,
    options: Option<Value>,
) -> skilldeck::Result<Op<PluginUpdateReport>> {
    let known = keys(&["scope", "onProgress"]);
    let (at, mut rest) = prepare("pluginUpdate options", options, &known)?;
    let scope = scope_of(&mut rest)?.unwrap_or_default();
    Ok(Box::new(move |p| {
        skilldeck_install::plugin_update(&at.resolve()?, plugin.as_deref(), scope, p)
    }))
}

fn plugin_uninstall_op(
    plugin: String,
    options: Option<Value>,
) -> skilldeck::Result<Op<PluginUninstallReport>> {
    let (at, mut rest) = prepare("pluginUninstall options", options, &keys(&["scope"]))?;
    let scope = scope_of(&mut rest)?.unwrap_or_default();
    Ok(Box::new(move |_| {
        skilldeck_install::plugin_uninstall(&at.resolve()?, &plugin, scope)
    }))
}

/// `marketplaceAdd(source, options)`: fetch a marketplace and record it in Claude Code's
/// `known_marketplaces.json`.
#[napi(js_name = "_marketplaceAdd", skip_typescript)]
pub fn marketplace_add(
    env: Env,
    source: String,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, marketplace_add_op(source, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `marketplaceAdd()` on the calling thread (no `onProgress`).
#[napi(
    ts_args_type = "source: string, options?: Omit<MarketplaceAddOptions, 'onProgress'> | null",
    ts_return_type = "MarketplaceInfo"
)]
pub fn marketplace_add_sync(env: Env, source: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("marketplaceAddSync options", options)
            .and_then(|o| marketplace_add_op(source, o)),
    )
}

/// `marketplaceList(options)`: the known marketplaces.
#[napi(js_name = "_marketplaceList", skip_typescript)]
pub fn marketplace_list(
    env: Env,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, marketplace_list_op(options))?;
    run_op(&env, dispatch, false, op)
}

/// `marketplaceList()` on the calling thread.
#[napi(
    ts_args_type = "options?: PluginContextOptions | null",
    ts_return_type = "MarketplaceInfo[]"
)]
pub fn marketplace_list_sync(env: Env, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("marketplaceListSync options", options).and_then(marketplace_list_op),
    )
}

/// `marketplaceUpdate(name, options)`: re-fetch one marketplace, or every one.
#[napi(js_name = "_marketplaceUpdate", skip_typescript)]
pub fn marketplace_update(
    env: Env,
    name: Option<String>,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, marketplace_update_op(name, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `marketplaceUpdate()` on the calling thread (no `onProgress`; `name` null: every one).
#[napi(
    ts_args_type = "name?: string | null, options?: Omit<MarketplaceUpdateOptions, 'onProgress'> | null",
    ts_return_type = "MarketplaceUpdate[]"
)]
pub fn marketplace_update_sync(
    env: Env,
    name: Option<String>,
    options: Option<Unknown>,
) -> Result<Json> {
    run_sync(
        &env,
        sync_options("marketplaceUpdateSync options", options)
            .and_then(|o| marketplace_update_op(name, o)),
    )
}

/// `marketplaceRemove(name, options)`: forget a marketplace and uninstall its plugins.
#[napi(js_name = "_marketplaceRemove", skip_typescript)]
pub fn marketplace_remove(
    env: Env,
    name: String,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, marketplace_remove_op(name, options))?;
    run_op(&env, dispatch, false, op)
}

/// `marketplaceRemove()` on the calling thread.
#[napi(
    ts_args_type = "name: string, options?: PluginContextOptions | null",
    ts_return_type = "MarketplaceRemoveReport"
)]
pub fn marketplace_remove_sync(env: Env, name: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("marketplaceRemoveSync options", options)
            .and_then(|o| marketplace_remove_op(name, o)),
    )
}

/// `pluginInstall(plugin, options)`: install a plugin into Claude Code's cache and enable it.
#[napi(js_name = "_pluginInstall", skip_typescript)]
pub fn plugin_install(
    env: Env,
    plugin: String,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, plugin_install_op(plugin, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `pluginInstall()` on the calling thread (no `onProgress`).
#[napi(
    ts_args_type = "plugin: string, options?: Omit<PluginInstallOptions, 'onProgress'> | null",
    ts_return_type = "PluginInstallReport"
)]
pub fn plugin_install_sync(env: Env, plugin: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginInstallSync options", options)
            .and_then(|o| plugin_install_op(plugin, o)),
    )
}

/// `pluginList(options)`: the installed plugins (both scopes unless `scope`).
#[napi(js_name = "_pluginList", skip_typescript)]
pub fn plugin_list(
    env: Env,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, plugin_list_op(options))?;
    run_op(&env, dispatch, false, op)
}

/// `pluginList()` on the calling thread.
#[napi(
    ts_args_type = "options?: PluginScopeOptions | null",
    ts_return_type = "PluginInfo[]"
)]
pub fn plugin_list_sync(env: Env, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginListSync options", options).and_then(plugin_list_op),
    )
}

/// `pluginEnable(plugin, options)`: enable an installed plugin in the scope's settings.
#[napi(js_name = "_pluginEnable", skip_typescript)]
pub fn plugin_enable(
    env: Env,
    plugin: String,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(
        &env,
        plugin_set_enabled_op("pluginEnable options", plugin, options, true),
    )?;
    run_op(&env, dispatch, false, op)
}

/// `pluginEnable()` on the calling thread.
#[napi(
    ts_args_type = "plugin: string, options?: PluginScopeOptions | null",
    ts_return_type = "PluginInfo"
)]
pub fn plugin_enable_sync(env: Env, plugin: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginEnableSync options", options)
            .and_then(|o| plugin_set_enabled_op("pluginEnableSync options", plugin, o, true)),
    )
}

/// `pluginDisable(plugin, options)`: disable an installed plugin (it stays installed).
#[napi(js_name = "_pluginDisable", skip_typescript)]
pub fn plugin_disable(
    env: Env,
    plugin: String,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(
        &env,
        plugin_set_enabled_op("pluginDisable options", plugin, options, false),
    )?;
    run_op(&env, dispatch, false, op)
}

/// `pluginDisable()` on the calling thread.
#[napi(
    ts_args_type = "plugin: string, options?: PluginScopeOptions | null",
    ts_return_type = "PluginInfo"
)]
pub fn plugin_disable_sync(env: Env, plugin: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginDisableSync options", options)
            .and_then(|o| plugin_set_enabled_op("pluginDisableSync options", plugin, o, false)),
    )
}

/// `pluginUpdate(plugin, options)`: refresh and reinstall what changed (every plugin of the
/// scope when `plugin` is null).
#[napi(js_name = "_pluginUpdate", skip_typescript)]
pub fn plugin_update(
    env: Env,
    plugin: Option<String>,
    options: Option<Value>,
    progress: bool,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, plugin_update_op(plugin, options))?;
    run_op(&env, dispatch, progress, op)
}

/// `pluginUpdate()` on the calling thread (no `onProgress`; `plugin` null: every plugin).
#[napi(
    ts_args_type = "plugin?: string | null, options?: Omit<PluginUpdateOptions, 'onProgress'> | null",
    ts_return_type = "PluginUpdateReport"
)]
pub fn plugin_update_sync(
    env: Env,
    plugin: Option<String>,
    options: Option<Unknown>,
) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginUpdateSync options", options).and_then(|o| plugin_update_op(plugin, o)),
    )
}

/// `pluginUninstall(plugin, options)`: remove the scope's installation.
#[napi(js_name = "_pluginUninstall", skip_typescript)]
pub fn plugin_uninstall(
    env: Env,
    plugin: String,
    options: Option<Value>,
    dispatch: Function<'_, Message, ()>,
) -> Result<()> {
    let op = crate::error::check(&env, plugin_uninstall_op(plugin, options))?;
    run_op(&env, dispatch, false, op)
}

/// `pluginUninstall()` on the calling thread.
#[napi(
    ts_args_type = "plugin: string, options?: PluginScopeOptions | null",
    ts_return_type = "PluginUninstallReport"
)]
pub fn plugin_uninstall_sync(env: Env, plugin: String, options: Option<Unknown>) -> Result<Json> {
    run_sync(
        &env,
        sync_options("pluginUninstallSync options", options)
            .and_then(|o| plugin_uninstall_op(plugin, o)),
    )
}
