//! Install operations (`skilldeck-install`): `add`, `remove`, `update`, `installed`,
//! `verify`, `install_frozen`.
//!
//! Each is a synchronous function run with the GIL released. Keyword arguments become the
//! crate's request and `Context` through serde (the names and defaults are the crate's),
//! reports come back as their serde form (plain dicts, declared as TypedDicts in
//! `skilldeck.types`), and errors are `InstallError` carrying the crate's code.

use crate::convert::{callback, deliver, from_json, overridden, to_py};
use crate::errors::{detached_as, install_pyerr, IntoPyResult};
use pyo3::prelude::*;
use serde_json::{json, Value};
use skilldeck_install::{Context, Progress, ProgressFn, Scope};
use std::path::PathBuf;

/// The `Context` every operation takes: the project directory, the home directory (default:
/// `$HOME`), the user-scope lock (default under `$XDG_CONFIG_HOME`) and the caps.
pub(crate) fn context(
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Context> {
    let mut ctx = Context::new(project_dir);
    if home_dir.is_some() {
        ctx.home_dir = home_dir;
    }
    ctx.user_lock = user_lock;
    if let Some(limits) = limits.filter(|l| !l.is_none()) {
        ctx.limits = overridden("install limits", &ctx.limits, &limits)?;
    }
    Ok(ctx)
}

/// `"project"` or `"user"`, read by the crate's own serde names.
fn scope(name: &str) -> PyResult<Scope> {
    from_json("scope", Value::String(name.to_string())).py()
}

/// Run `work` with the GIL released, handing it the progress callback as the crate's
/// `ProgressFn` (each call re-takes the GIL; an exception in it is reported, not raised).
pub(crate) fn with_progress<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(Option<&ProgressFn<'_>>) -> skilldeck_install::Result<T> + Send,
) -> PyResult<T> {
    detached_as(
        py,
        move || {
            let forward = |p: &Progress| {
                if let Some(callback) = &progress {
                    deliver(callback, p);
                }
            };
            let progress_fn: Option<&ProgressFn<'_>> = match &progress {
                Some(_) => Some(&forward),
                None => None,
            };
            work(progress_fn)
        },
        install_pyerr,
    )
}

/// Install the skills of `source` (a directory, a git URL, `github:owner/repo[/path][@ref]`,
/// an archive URL or a site with a well-known index) and record them, with sha256 digests,
/// in the scope's `skills-lock.json`. Returns the `AddReport` dict.
#[pyfunction]
#[pyo3(signature = (
    source, *, skills=None, git_ref=None, sha256=None, scope="project", hosts=None,
    force=false, max_severity=None, project_dir=PathBuf::from("."), home_dir=None,
    user_lock=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn add(
    py: Python<'_>,
    source: String,
    skills: Option<Vec<String>>,
    git_ref: Option<String>,
    sha256: Option<String>,
    scope: &str,
    hosts: Option<Vec<String>>,
    force: bool,
    max_severity: Option<String>,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    // Parsed here for the engine's own message listing the levels.
    let max_severity = max_severity
        .as_deref()
        .map(str::parse::<skilldeck::AuditSeverity>)
        .transpose()
        .py()?;
    let mut request: skilldeck_install::AddRequest = from_json(
        "add request",
        json!({
            "source": source,
            "skills": skills.unwrap_or_default(),
            "gitRef": git_ref,
            "sha256": sha256,
            "scope": scope,
            "hosts": hosts.unwrap_or_default(),
            "force": force,
        }),
    )
    .py()?;
    request.max_severity = max_severity;
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let progress = callback("progress", progress)?;
    let report = with_progress(py, progress, move |p| {
        skilldeck_install::add(&ctx, &request, p)
    })?;
    to_py(py, &report)
}

/// Remove installed skills (their directories, links and lock entries). Raises
/// `InstallError` (code `NOT_FOUND`) when a name is not installed, before removing anything.
#[pyfunction]
#[pyo3(signature = (
    names, *, scope="project", project_dir=PathBuf::from("."), home_dir=None, user_lock=None,
    limits=None
))]
fn remove(
    py: Python<'_>,
    names: Vec<String>,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let report = detached_as(
        py,
        move || skilldeck_install::remove(&ctx, scope, &names),
        install_pyerr,
    )?;
    to_py(py, &report)
}

/// Re-fetch the named skills (all when empty) from their recorded sources and apply what
/// changed, unless `dry_run`. Returns the `UpdateReport` dict.
#[pyfunction]
#[pyo3(signature = (
    names=None, *, dry_run=false, force=false, scope="project", project_dir=PathBuf::from("."),
    home_dir=None, user_lock=None, limits=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
fn update(
    py: Python<'_>,
    names: Option<Vec<String>>,
    dry_run: bool,
    force: bool,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let names = names.unwrap_or_default();
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let progress = callback("progress", progress)?;
    let report = with_progress(py, progress, move |p| {
        skilldeck_install::update(&ctx, scope, &names, dry_run, force, p)
    })?;
    to_py(py, &report)
}

/// The skills the scope's lock records, as `InstalledSkill` dicts (`name`, `entry`).
#[pyfunction]
#[pyo3(signature = (
    *, scope="project", project_dir=PathBuf::from("."), home_dir=None, user_lock=None,
    limits=None
))]
fn installed(
    py: Python<'_>,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let skills = detached_as(
        py,
        move || skilldeck_install::installed(&ctx, scope),
        install_pyerr,
    )?;
    to_py(py, &skills)
}

/// Re-hash every installed skill and compare it with the lock: the `VerifyReport` dict
/// (`clean`, and per skill the `changed`/`added`/`missing` files).
#[pyfunction]
#[pyo3(signature = (
    *, scope="project", project_dir=PathBuf::from("."), home_dir=None, user_lock=None,
    limits=None
))]
fn verify(
    py: Python<'_>,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let report = detached_as(
        py,
        move || skilldeck_install::verify(&ctx, scope),
        install_pyerr,
    )?;
    to_py(py, &report)
}

/// Restore exactly what the lock records (`install --frozen`): every skill fetched at its
/// recorded commit or digest must hash to the recorded files, or nothing is installed
/// (`InstallError`, code `FROZEN_MISMATCH`). Returns the `FrozenReport` dict.
#[pyfunction]
#[pyo3(signature = (
    *, scope="project", project_dir=PathBuf::from("."), home_dir=None, user_lock=None,
    limits=None, progress=None
))]
fn install_frozen(
    py: Python<'_>,
    scope: &str,
    project_dir: PathBuf,
    home_dir: Option<PathBuf>,
    user_lock: Option<PathBuf>,
    limits: Option<Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let scope = self::scope(scope)?;
    let ctx = context(project_dir, home_dir, user_lock, limits)?;
    let progress = callback("progress", progress)?;
    let report = with_progress(py, progress, move |p| {
        skilldeck_install::install_frozen(&ctx, scope, p)
    })?;
    to_py(py, &report)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(add, m)?)?;
    m.add_function(wrap_pyfunction!(remove, m)?)?;
    m.add_function(wrap_pyfunction!(update, m)?)?;
    m.add_function(wrap_pyfunction!(installed, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(install_frozen, m)?)?;
    Ok(())
}
