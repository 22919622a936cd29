//! Linux: Landlock + seccomp + rlimits (see the module above for what each enforces).

use crate::error::RunError;
use crate::options::{FsView, Limits, SandboxReport};
use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, ABI,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The newest Landlock ABI whose rights we ask for; older kernels get what they support
/// (best effort above ABI 1, which is required).
const FS_ABI: ABI = ABI::V5;
const NET_ABI: ABI = ABI::V4;

/// A sandbox ready to apply in the child.
pub struct Prepared {
    ruleset: Option<RulesetCreated>,
    seccomp: BpfProgram,
    limits: Limits,
    report: SandboxReport,
}

/// The kernel's Landlock ABI version (0 when Landlock is absent or disabled).
fn landlock_abi() -> i64 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the documented version query: no ruleset, size 0, the version flag.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    version.max(0)
}

fn unavailable(what: &str, err: impl std::fmt::Display) -> RunError {
    RunError::SandboxUnavailable(format!("{what}: {err}"))
}

/// Build the Landlock ruleset and the seccomp program for a run writing only to `work`,
/// reading `skill` and what `view` allows.
pub fn prepare(
    work: &Path,
    skill: &Path,
    view: &FsView,
    allow_network: bool,
    limits: &Limits,
) -> Result<Prepared, RunError> {
    let abi = landlock_abi();
    if abi < 1 {
        return Err(RunError::SandboxUnavailable(
            "this kernel has no Landlock (Linux 5.13+ with `landlock` in the `lsm=` boot list)"
                .into(),
        ));
    }
    // SAFETY: a query without side effects; -1/EINVAL means a kernel built without seccomp.
    if unsafe { libc::prctl(libc::PR_GET_SECCOMP) } < 0 {
        return Err(RunError::SandboxUnavailable(
            "this kernel has no seccomp (CONFIG_SECCOMP_FILTER)".into(),
        ));
    }
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(FS_ABI))
        .map_err(|e| unavailable("Landlock", e))?;
    if !allow_network {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(NET_ABI))
            .map_err(|e| unavailable("Landlock", e))?;
    }
    let work_fd = PathFd::new(work).map_err(|e| unavailable("Landlock work directory", e))?;
    let readable: Vec<&Path> = match view {
        FsView::ReadOnly => vec![Path::new("/")],
        FsView::Only(paths) => paths
            .iter()
            .map(PathBuf::as_path)
            .chain([skill])
            .filter(|p| p.exists())
            .collect(),
    };
    let mut created = ruleset
        .create()
        .map_err(|e| unavailable("Landlock", e))?
        .add_rules(path_beneath_rules(readable, AccessFs::from_read(FS_ABI)))
        .map_err(|e| unavailable("Landlock", e))?
        .add_rule(PathBeneath::new(work_fd, AccessFs::from_all(FS_ABI)))
        .map_err(|e| unavailable("Landlock", e))?;
    // Scripts write to /dev/null all the time; it holds nothing.
    if let Ok(null) = PathFd::new("/dev/null") {
        created = created
            .add_rule(PathBeneath::new(null, AccessFs::from_file(FS_ABI)))
            .map_err(|e| unavailable("Landlock", e))?;
    }
    Ok(Prepared {
        ruleset: Some(created),
        seccomp: seccomp_program(allow_network)?,
        limits: *limits,
        report: SandboxReport {
            landlock_abi: u32::try_from(abi).unwrap_or(u32::MAX),
            filesystem: true,
            network_denied: !allow_network,
            seccomp: true,
            limits: *limits,
        },
    })
}

fn seccomp_program(allow_network: bool) -> Result<BpfProgram, RunError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| unavailable("seccomp on this architecture", e))?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    // Leaving the process group would escape the kill on timeout and cancel.
    rules.insert(libc::SYS_setsid, Vec::new());
    rules.insert(libc::SYS_setpgid, Vec::new());
    if !allow_network {
        let domain = |family: i32| {
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family as u64)
                .and_then(|c| SeccompRule::new(vec![c]))
        };
        let socket_rules = vec![domain(libc::AF_INET), domain(libc::AF_INET6)]
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| unavailable("seccomp", e))?;
        rules.insert(libc::SYS_socket, socket_rules);
        // io_uring can open sockets without the socket syscall.
        rules.insert(libc::SYS_io_uring_setup, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(|e| unavailable("seccomp", e))?;
    filter.try_into().map_err(|e| unavailable("seccomp", e))
}

// glibc types setrlimit's resource as `__rlimit_resource_t`, musl as a plain `c_int`.
#[cfg(target_env = "gnu")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
type Resource = libc::c_int;

fn set_limit(resource: Resource, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value as libc::rlim_t,
        rlim_max: value as libc::rlim_t,
    };
    // SAFETY: setrlimit with a valid struct; async-signal-safe.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

impl Prepared {
    /// What this sandbox enforces.
    pub fn report(&self) -> SandboxReport {
        self.report.clone()
    }

    /// Runs in the child after fork, before exec: syscalls only, no allocation on success.
    pub fn apply_in_child(&mut self) -> std::io::Result<()> {
        set_limit(libc::RLIMIT_AS, self.limits.memory_bytes)?;
        set_limit(libc::RLIMIT_FSIZE, self.limits.file_size_bytes)?;
        set_limit(libc::RLIMIT_NPROC, self.limits.processes)?;
        set_limit(libc::RLIMIT_CORE, 0)?;
        let ruleset = self
            .ruleset
            .take()
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::EINVAL))?;
        match ruleset.restrict_self() {
            Ok(status) if status.ruleset != RulesetStatus::NotEnforced => {}
            _ => return Err(std::io::Error::from_raw_os_error(libc::ENOSYS)),
        }
        seccompiler::apply_filter(&self.seccomp)
            .map_err(|_| std::io::Error::from_raw_os_error(libc::ENOSYS))
    }
}
