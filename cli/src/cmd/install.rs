//! `skilldeck add | remove | update | installed | verify | install --frozen` (cargo feature
//! `install`): thin wrappers over `skilldeck-install`, which does all the work.
//!
//! Exit codes: 0 success, 1 an operation failed or `verify` found a difference, 2 usage.

use skilldeck_install::{Context, InstallError, Progress, Scope};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Flags every install command shares.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// The project root holding skills-lock.json (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// project (into the project, default) or user (into the home directory; the lock lives
    /// at $XDG_CONFIG_HOME/skilldeck/skills-lock.json).
    #[arg(long, value_enum, default_value = "project")]
    pub scope: ScopeArg,
    /// Most files one skill may hold.
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_files: usize,
    /// Most bytes one skill may hold.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub max_bytes: u64,
    /// Print JSON instead of human output.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ScopeArg {
    Project,
    User,
}

impl Common {
    fn context(&self) -> Context {
        let project = self
            .project
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let mut ctx = Context::new(project);
        ctx.limits.max_files = self.max_files;
        ctx.limits.max_bytes = self.max_bytes;
        ctx
    }

    fn scope(&self) -> Scope {
        match self.scope {
            ScopeArg::Project => Scope::Project,
            ScopeArg::User => Scope::User,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// A directory, a git URL (https://, ssh://, git@host:path, file://; `#sub/dir` picks a
    /// directory), github:owner/repo[/path][@ref], an archive URL (.tar.gz, .tgz, .zip) or a
    /// site publishing /.well-known/agent-skills/index.json.
    pub source: String,
    /// Install only this skill (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    pub skills: Vec<String>,
    /// Branch, tag or commit (git sources).
    #[arg(long = "ref", value_name = "REF")]
    pub git_ref: Option<String>,
    /// Expected SHA-256 of the archive, checked before extracting.
    #[arg(long, value_name = "HEX")]
    pub sha256: Option<String>,
    /// Install where this host profile reads (repeatable; the first holds the real copy,
    /// the others get relative symlinks).
    #[arg(long = "host", value_name = "PROFILE")]
    pub hosts: Vec<String>,
    /// Do not ask (installs are never interactive; accepted for compatibility).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Replace a skill modified since it was installed, or not installed by skilldeck.
    #[arg(long)]
    pub force: bool,
    /// Refuse a skill whose audit (`skilldeck audit`) has a finding above this level: info,
    /// low, medium, high (default: refuse critical findings only) or critical (refuse nothing).
    #[arg(long, value_name = "LEVEL", value_parser = severity)]
    pub max_severity: Option<skilldeck::AuditSeverity>,
    #[command(flatten)]
    pub common: Common,
}

pub(crate) fn severity(text: &str) -> Result<skilldeck::AuditSeverity, String> {
    text.parse().map_err(|e: skilldeck::Error| e.to_string())
}

#[derive(clap::Args, Debug)]
pub struct RemoveArgs {
    /// Names of installed skills.
    #[arg(required = true)]
    pub names: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Args, Debug)]
pub struct UpdateArgs {
    /// Names of installed skills (default: all).
    pub names: Vec<String>,
    /// Show what would change without changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Replace skills modified since they were installed.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Args, Debug)]
pub struct FrozenArgs {
    /// Restore exactly what skills-lock.json records; fail on any difference.
    #[arg(long, required = true)]
    pub frozen: bool,
    #[command(flatten)]
    pub common: Common,
}

/// A relative directory is written relative to the current directory; the engine resolves
/// it against the project. Rewrite it so both agree (relative to the project when inside
/// it, so the lock stays portable; absolute otherwise).
fn local_source(spec: &str, project: &std::path::Path) -> String {
    let is_local = matches!(
        skilldeck_install::Source::parse(spec, None, None),
        Ok(skilldeck_install::Source::Local { .. })
    );
    let path = std::path::Path::new(spec);
    if !is_local || path.is_absolute() {
        return spec.to_string();
    }
    let (Ok(cwd), Ok(project)) = (std::env::current_dir(), std::fs::canonicalize(project)) else {
        return spec.to_string();
    };
    let Ok(absolute) = std::fs::canonicalize(cwd.join(path)) else {
        return spec.to_string();
    };
    match absolute.strip_prefix(&project) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => absolute.to_string_lossy().into_owned(),
    }
}

/// Progress lines on stderr, only when it is a terminal.
pub(crate) fn progress() -> Option<Box<skilldeck_install::ProgressFn<'static>>> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    Some(Box::new(|p: &Progress| {
        eprintln!("{:>8} {}", p.phase, p.message);
    }))
}

/// The first 12 characters of a commit or ref (a ref may be any text, so by characters).
pub(crate) fn short(text: &str) -> String {
    text.chars().take(12).collect()
}

pub(crate) fn fail(err: &InstallError) -> i32 {
    crate::style::eprint_error(Some(err.code()), &err.to_string());
    crate::EXIT_FAILURE
}

pub(crate) fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

pub(crate) fn json<T: serde::Serialize>(value: &T) -> i32 {
    match serde_json::to_string_pretty(value) {
        Ok(text) => {
            print(&(text + "\n"));
            crate::EXIT_OK
        }
        Err(err) => {
            eprintln!("skilldeck: cannot serialise the report: {err}");
            crate::EXIT_FAILURE
        }
    }
}

pub(crate) fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("skilldeck: warning: {w}");
    }
}

pub fn add(args: AddArgs) -> i32 {
    let ctx = args.common.context();
    let source = local_source(&args.source, &ctx.project_dir);
    let request = skilldeck_install::AddRequest {
        source,
        skills: args.skills,
        git_ref: args.git_ref,
        sha256: args.sha256,
        scope: args.common.scope(),
        hosts: args.hosts,
        force: args.force,
        max_severity: args.max_severity,
    };
    let progress = progress();
    match skilldeck_install::add(&ctx, &request, progress.as_deref()) {
        Ok(report) => {
            warn(&report.warnings);
            if args.common.json {
                return json(&report);
            }
            let mut text = String::new();
            for skill in &report.installed {
                let at = skill
                    .entry
                    .commit
                    .as_deref()
                    .map(|c| format!(" @ {}", short(c)))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "installed {} → {}{at} ({} files, {})\n",
                    skill.name,
                    skill.entry.path,
                    skill.entry.files.len(),
                    skill.entry.digest
                ));
            }
            for audit in &report.audit {
                let notable: Vec<_> = audit
                    .findings
                    .iter()
                    .filter(|f| f.severity > skilldeck::AuditSeverity::Info)
                    .collect();
                if let Some(worst) = notable.first() {
                    text.push_str(&format!(
                        "audit {}: {} finding(s), the most severe {} ({} at {}); `skilldeck audit` on the installed skill shows them all\n",
                        audit.name,
                        notable.len(),
                        worst.severity,
                        worst.code,
                        worst.path
                    ));
                }
            }
            print(&text);
            crate::EXIT_OK
        }
        Err(err) => fail(&err),
    }
}

pub fn remove(args: RemoveArgs) -> i32 {
    let ctx = args.common.context();
    match skilldeck_install::remove(&ctx, args.common.scope(), &args.names) {
        Ok(report) if args.common.json => json(&report),
        Ok(report) => {
            print(
                &report
                    .removed
                    .iter()
                    .map(|n| format!("removed {n}\n"))
                    .collect::<String>(),
            );
            crate::EXIT_OK
        }
        Err(err) => fail(&err),
    }
}

pub fn update(args: UpdateArgs) -> i32 {
    let ctx = args.common.context();
    let progress = progress();
    let result = skilldeck_install::update(
        &ctx,
        args.common.scope(),
        &args.names,
        args.dry_run,
        args.force,
        progress.as_deref(),
    );
    match result {
        Ok(report) => {
            warn(&report.warnings);
            if args.common.json {
                return json(&report);
            }
            let mut text = String::new();
            for change in &report.changes {
                let verb = if change.applied {
                    "updated"
                } else {
                    "would update"
                };
                let commits = match (&change.from_commit, &change.to_commit) {
                    (Some(a), Some(b)) if a != b => {
                        format!(" {} → {}", short(a), short(b))
                    }
                    _ => String::new(),
                };
                text.push_str(&format!("{verb} {}{commits}\n", change.name));
                for (mark, list) in [
                    ("~", &change.files.changed),
                    ("+", &change.files.added),
                    ("-", &change.files.missing),
                ] {
                    for f in list {
                        text.push_str(&format!("  {mark} {f}\n"));
                    }
                }
            }
            for name in &report.up_to_date {
                text.push_str(&format!("up to date {name}\n"));
            }
            print(&text);
            crate::EXIT_OK
        }
        Err(err) => fail(&err),
    }
}

pub fn installed(args: ListArgs) -> i32 {
    let ctx = args.common.context();
    match skilldeck_install::installed(&ctx, args.common.scope()) {
        Ok(list) if args.common.json => json(&list),
        Ok(list) => {
            let mut text = String::new();
            for skill in &list {
                let e = &skill.entry;
                let at = e
                    .commit
                    .as_deref()
                    .or(e.git_ref.as_deref())
                    .map(|c| format!(" @ {}", short(c)))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "{}\t{}\t{} ({}){at}\n",
                    skill.name, e.path, e.source, e.source_type
                ));
            }
            print(&text);
            crate::EXIT_OK
        }
        Err(err) => fail(&err),
    }
}

pub fn verify(args: ListArgs) -> i32 {
    let ctx = args.common.context();
    match skilldeck_install::verify(&ctx, args.common.scope()) {
        Ok(report) => {
            let code = if report.clean {
                crate::EXIT_OK
            } else {
                crate::EXIT_FAILURE
            };
            if args.common.json {
                json(&report);
                return code;
            }
            let mut text = String::new();
            for skill in &report.skills {
                if skill.diff.is_clean() {
                    text.push_str(&format!("ok {}\n", skill.name));
                    continue;
                }
                text.push_str(&format!("MODIFIED {} ({})\n", skill.name, skill.path));
                for (label, list) in [
                    ("changed", &skill.diff.changed),
                    ("added", &skill.diff.added),
                    ("missing", &skill.diff.missing),
                ] {
                    for f in list {
                        text.push_str(&format!("  {label}: {}/{f}\n", skill.path));
                    }
                }
            }
            print(&text);
            code
        }
        Err(err) => fail(&err),
    }
}

pub fn frozen(args: FrozenArgs) -> i32 {
    let ctx = args.common.context();
    let _ = args.frozen;
    let progress = progress();
    match skilldeck_install::install_frozen(&ctx, args.common.scope(), progress.as_deref()) {
        Ok(report) if args.common.json => json(&report),
        Ok(report) => {
            let mut text = String::new();
            for n in &report.restored {
                text.push_str(&format!("restored {n}\n"));
            }
            for n in &report.unchanged {
                text.push_str(&format!("ok {n}\n"));
            }
            print(&text);
            crate::EXIT_OK
        }
        Err(err) => fail(&err),
    }
}
