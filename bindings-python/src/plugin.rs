//! Marketplaces and plugin packages (`skilldeck-install`'s `plugin` module, issue 16):
//! `marketplace_add`/`_list`/`_update`/`_remove` and `plugin_install`/`_list`/`_enable`/
//! `_disable`/`_update`/`_uninstall`, writing Claude Code's own plugin layout.
//!
//! Same conventions as `install.rs`: synchronous, the GIL released, keyword arguments turned
//! into the crate's `PluginContext`, reports as their serde dicts (`skilldeck.types`), errors
//! as `InstallError` with the crate's code. `host` picks whose files are written:
//! `"claude-code"` (default), `"codex"` or `"copilot-cli"` (user scope only for the last two).

#![allow(clippy::too_many_arguments)]

use crate::convert::{callback, from_json, to_py};
use crate::errors::{detached_as, install_pyerr, IntoPyResult};
use crate::install::{context, with_progress};
use pyo3::prelude::*;
use serde_json::Value;
use skilldeck_install::{PluginContext, PluginScope};
use std::path::PathBuf;

/// The plugin context: the install context's directories, then the overrides given.
fn plugin_context(
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<PluginContext> {
    let ctx = context(project_dir, home_dir, None, limits)?;
    let mut pctx = PluginContext::with_claude_dir(&ctx, claude_dir).map_err(install_pyerr)?;
    if let Some(file) = managed_settings {
        pctx.managed_settings = file;
    }
    if let Some(name) = host {
        // `claude-code`, `codex` or `copilot-cli`, read by the crate's own serde names.
        pctx.host = from_json("plugin host", Value::String(name)).py()?;
    }
    Ok(pctx)
}

/// `"user"`, `"project"`, `"local"` or `"managed"`, read by the crate's own serde names.
fn scope(name: &str) -> PyResult<PluginScope> {
    from_json("plugin scope", Value::String(name.to_string())).py()
}

/// Run `work` with the GIL released and the crate's errors mapped.
fn plain<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> skilldeck_install::Result<T> + Send,
) -> PyResult<T> {
    detached_as(py, work, install_pyerr)
}

/// Add a marketplace (a directory, a git URL, `github:owner/repo`) to Claude Code's
/// `known_marketplaces.json` (git ones cloned under `plugins/marketplaces/`). Returns the
/// `MarketplaceInfo` dict. Refused by managed-settings policy and reserved names.
#[pyfunction]
#[pyo3(signature = (
    source, *, project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn marketplace_add(
    py: Python<'_>,
    source: String,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let progress = callback("progress", progress)?;
    let info = with_progress(py, progress, move |p| {
        skilldeck_install::marketplace_add(&pctx, &source, p)
    })?;
    to_py(py, &info)
}

/// The known marketplaces, as `MarketplaceInfo` dicts.
#[pyfunction]
#[pyo3(signature = (
    *, project_dir=PathBuf::from("."), home_dir=None, claude_dir=None, managed_settings=None, host=None,
    limits=None
))]
fn marketplace_list(
    py: Python<'_>,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let list = plain(py, move || skilldeck_install::marketplace_list(&pctx))?;
    to_py(py, &list)
}

/// Re-fetch git marketplaces (all, or `name`) and re-read local ones. Returns a list of
/// `MarketplaceUpdate` dicts.
#[pyfunction]
#[pyo3(signature = (
    name=None, *, project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn marketplace_update(
    py: Python<'_>,
    name: Option<String>,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let progress = callback("progress", progress)?;
    let updates = with_progress(py, progress, move |p| {
        skilldeck_install::marketplace_update(&pctx, name.as_deref(), p)
    })?;
    to_py(py, &updates)
}

/// Remove a marketplace and uninstall its plugins. Returns the `MarketplaceRemoveReport`.
#[pyfunction]
#[pyo3(signature = (
    name, *, project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None, limits=None
))]
fn marketplace_remove(
    py: Python<'_>,
    name: String,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let report = plain(py, move || {
        skilldeck_install::marketplace_remove(&pctx, &name)
    })?;
    to_py(py, &report)
}

/// Install `plugin@marketplace` (or a plugin straight from a directory or git URL) into
/// Claude Code's cache, record it in `installed_plugins.json` and enable it in the scope's
/// settings. Its files are audited first: findings above `max_severity` (default: critical
/// ones) refuse it with code `AUDIT_REFUSED`. Returns the `PluginInstallReport`.
#[pyfunction]
#[pyo3(signature = (
    plugin, *, scope="user", max_severity=None, project_dir=PathBuf::from("."), home_dir=None,
    claude_dir=None, managed_settings=None, host=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn plugin_install(
    py: Python<'_>,
    plugin: String,
    scope: &str,
    max_severity: Option<String>,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let request = skilldeck_install::PluginInstallRequest {
        plugin,
        scope: self::scope(scope)?,
        max_severity: max_severity
            .as_deref()
            .map(str::parse::<skilldeck::AuditSeverity>)
            .transpose()
            .py()?,
    };
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let progress = callback("progress", progress)?;
    let report = with_progress(py, progress, move |p| {
        skilldeck_install::plugin_install(&pctx, &request, p)
    })?;
    to_py(py, &report)
}

/// Installed plugins (user scope and this project's, or only `scope`'s), as `PluginInfo`
/// dicts; `modified` flags files changed since skilldeck installed them.
#[pyfunction]
#[pyo3(signature = (
    *, scope=None, project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None, limits=None
))]
fn plugin_list(
    py: Python<'_>,
    scope: Option<&str>,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let only = scope.map(self::scope).transpose()?;
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let list = plain(py, move || skilldeck_install::plugin_list(&pctx, only))?;
    to_py(py, &list)
}

#[allow(clippy::too_many_arguments)]
fn set_enabled(
    py: Python<'_>,
    plugin: String,
    scope: &str,
    enabled: bool,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        None,
    )?;
    let info = plain(py, move || {
        skilldeck_install::plugin_set_enabled(&pctx, &plugin, scope, enabled)
    })?;
    to_py(py, &info)
}

/// Enable an installed plugin in the scope's `settings.json` (`enabledPlugins`). Returns its
/// `PluginInfo`.
#[pyfunction]
#[pyo3(signature = (
    plugin, *, scope="user", project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None
))]
fn plugin_enable(
    py: Python<'_>,
    plugin: String,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
) -> PyResult<Py<PyAny>> {
    set_enabled(
        py,
        plugin,
        scope,
        true,
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
    )
}

/// Disable an installed plugin in the scope's `settings.json` (it stays installed). Returns
/// its `PluginInfo`.
#[pyfunction]
#[pyo3(signature = (
    plugin, *, scope="user", project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None
))]
fn plugin_disable(
    py: Python<'_>,
    plugin: String,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
) -> PyResult<Py<PyAny>> {
    set_enabled(
        py,
        plugin,
        scope,
        false,
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
    )
}

/// Re-fetch installed plugins (all of the scope's, or `plugin`) and reinstall those whose
/// version, commit or digest changed; new files pass the audit. Returns the
/// `PluginUpdateReport`.
#[pyfunction]
#[pyo3(signature = (
    plugin=None, *, scope="user", project_dir=PathBuf::from("."), home_dir=None,
    claude_dir=None, managed_settings=None, host=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn plugin_update(
    py: Python<'_>,
    plugin: Option<String>,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        limits,
    )?;
    let progress = callback("progress", progress)?;
    let report = with_progress(py, progress, move |p| {
        skilldeck_install::plugin_update(&pctx, plugin.as_deref(), scope, p)
    })?;
    to_py(py, &report)
}

/// Uninstall a plugin from the scope (its `installed_plugins.json` entry and `enabledPlugins`
/// key; a cache version no scope uses is marked orphaned, as Claude Code does). Returns the
/// `PluginUninstallReport`.
#[pyfunction]
#[pyo3(signature = (
    plugin, *, scope="user", project_dir=PathBuf::from("."), home_dir=None, claude_dir=None,
    managed_settings=None, host=None
))]
fn plugin_uninstall(
    py: Python<'_>,
    plugin: String,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    claude_dir: Option<PathBuf>,
    managed_settings: Option<PathBuf>,
    host: Option<String>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let pctx = plugin_context(
        project_dir,
        home_dir,
        claude_dir,
        managed_settings,
        host,
        None,
    )?;
    let report = plain(py, move || {
        skilldeck_install::plugin_uninstall(&pctx, &plugin, scope)
    })?;
    to_py(py, &report)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(marketplace_add, m)?)?;
    m.add_function(wrap_pyfunction!(marketplace_list, m)?)?;
    m.add_function(wrap_pyfunction!(marketplace_update, m)?)?;
    m.add_function(wrap_pyfunction!(marketplace_remove, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_install, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_list, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_enable, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_disable, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_update, m)?)?;
    m.add_function(wrap_pyfunction!(plugin_uninstall, m)?)?;
    Ok(())
}
