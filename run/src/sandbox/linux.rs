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

/// The kernel's Landlock ABI version, or why the version query failed.
fn landlock_abi() -> std::io::Result<i64> {
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
    if version < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(version)
}

/// The machine the kernel runs on (`/proc/sys/kernel/arch`, Linux 6.1+). A user-mode
/// emulator does not translate /proc/sys, so under qemu-user this is the host's machine
/// while `uname` and our build say the guest's.
fn host_kernel_arch() -> Option<String> {
    let arch = std::fs::read_to_string("/proc/sys/kernel/arch").ok()?;
    Some(arch.trim().to_string())
}

/// Whether a program built for `ours` (`std::env::consts::ARCH`) on a kernel whose machine
/// is `kernel` (`uname -m` spelling) can only be running through a user-mode emulator: the
/// machines differ and no compat mode (a 32-bit build on its 64-bit kernel) explains it.
fn emulated(kernel: &str, ours: &str) -> bool {
    let kernel = match kernel {
        "i386" | "i486" | "i586" | "i686" => "x86",
        k if k.starts_with("armv") => "arm",
        "arm64" => "aarch64",
        "ppc" => "powerpc",
        "ppc64" | "ppc64le" => "powerpc64",
        k => k,
    };
    let compat = matches!(
        (ours, kernel),
        ("x86", "x86_64")
            | ("arm", "aarch64")
            | ("powerpc", "powerpc64")
            | ("mips", "mips64")
            | ("sparc", "sparc64")
    );
    !kernel.is_empty() && kernel != ours && !compat
}

/// Why `landlock_create_ruleset` failed on a kernel we talk to directly, by errno
/// (landlock(7): ENOSYS when the kernel lacks it, EOPNOTSUPP when it is built in but off).
fn why_no_landlock(err: &std::io::Error) -> &'static str {
    match err.raw_os_error() {
        Some(libc::EOPNOTSUPP) => {
            "the kernel has Landlock but it is disabled: add `landlock` to the `lsm=` boot parameter"
        }
        Some(libc::ENOSYS) => {
            "the kernel was built without Landlock (Linux 5.13+ with CONFIG_SECURITY_LANDLOCK), or a \
             seccomp profile around this process (a container runtime's) blocks the call"
        }
        _ => "a seccomp profile around this process (a container runtime's) or an LSM refuses the call",
    }
}

/// The symbolic name of the errnos these calls return, for the message.
fn errno_name(err: &std::io::Error) -> &'static str {
    match err.raw_os_error() {
        Some(libc::ENOSYS) => "ENOSYS",
        Some(libc::EOPNOTSUPP) => "EOPNOTSUPP",
        Some(libc::EINVAL) => "EINVAL",
        Some(libc::EPERM) => "EPERM",
        Some(libc::EACCES) => "EACCES",
        Some(libc::EFAULT) => "EFAULT",
        _ => "an error",
    }
}

/// The message for a sandbox syscall that failed: the call, its errno and the cause. Under a
/// user-mode emulator the cause is the emulator, whatever the errno: qemu-user (7.2:
/// linux-user/syscall.c) has no Landlock syscalls (`Unknown syscall 444`, ENOSYS), answers
/// `seccomp()` with ENOSYS and `prctl(PR_GET_SECCOMP/PR_SET_SECCOMP)` with EINVAL, because a
/// filter installed by the guest would apply to the emulator's own system calls.
fn refusal(call: &str, err: &std::io::Error, native_cause: &str, kernel: Option<&str>) -> String {
    let ours = std::env::consts::ARCH;
    let cause = match kernel {
        Some(kernel) if emulated(kernel, ours) => format!(
            "this {ours} build runs on an {kernel} kernel through a user-mode emulator (qemu-user, \
             binfmt_misc), which does not pass Landlock or seccomp on to the kernel; run the \
             {kernel} build of skilldeck to have the sandbox"
        ),
        Some(_) => native_cause.to_string(),
        // No /proc/sys/kernel/arch (Linux < 6.1): an emulator cannot be told apart.
        None => {
            format!("{native_cause}; or this program runs under a user-mode emulator (qemu-user)")
        }
    };
    format!("{call} failed with {} ({err}): {cause}", errno_name(err))
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
    let abi = landlock_abi().map_err(|e| {
        RunError::SandboxUnavailable(refusal(
            "landlock_create_ruleset (the Landlock ABI query)",
            &e,
            why_no_landlock(&e),
            host_kernel_arch().as_deref(),
        ))
    })?;
    if abi < 1 {
        return Err(RunError::SandboxUnavailable(format!(
            "landlock_create_ruleset reported Landlock ABI {abi}; version 1 (Linux 5.13) is the least it needs"
        )));
    }
    // SAFETY: a query without side effects.
    if unsafe { libc::prctl(libc::PR_GET_SECCOMP) } < 0 {
        let e = std::io::Error::last_os_error();
        return Err(RunError::SandboxUnavailable(refusal(
            "prctl(PR_GET_SECCOMP)",
            &e,
            "the kernel was built without seccomp (CONFIG_SECCOMP_FILTER)",
            host_kernel_arch().as_deref(),
        )));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_machine_is_emulation_and_a_compat_mode_is_not() {
        assert!(emulated("x86_64", "aarch64"));
        assert!(emulated("aarch64", "x86_64"));
        assert!(!emulated("x86_64", "x86_64"));
        assert!(!emulated("aarch64", "aarch64"));
        assert!(!emulated("x86_64", "x86"));
        assert!(!emulated("i686", "x86"));
        assert!(!emulated("armv7l", "arm"));
        assert!(!emulated("aarch64", "arm"));
        assert!(!emulated("ppc64le", "powerpc64"));
        assert!(!emulated("", "aarch64"));
    }

    #[test]
    fn the_message_names_the_call_the_errno_and_the_emulator() {
        let enosys = std::io::Error::from_raw_os_error(libc::ENOSYS);
        let foreign = if std::env::consts::ARCH == "x86_64" {
            "aarch64"
        } else {
            "x86_64"
        };
        let m = refusal(
            "landlock_create_ruleset",
            &enosys,
            why_no_landlock(&enosys),
            Some(foreign),
        );
        assert!(
            m.starts_with("landlock_create_ruleset failed with ENOSYS ("),
            "{m}"
        );
        assert!(m.contains("user-mode emulator"), "{m}");
        assert!(m.contains(&format!("run the {foreign} build")), "{m}");
        assert!(!m.contains("built without"), "{m}");

        let native = std::env::consts::ARCH;
        let m = refusal(
            "landlock_create_ruleset",
            &enosys,
            why_no_landlock(&enosys),
            Some(native),
        );
        assert!(m.contains("built without Landlock"), "{m}");
        assert!(!m.contains("emulator"), "{m}");

        let off = std::io::Error::from_raw_os_error(libc::EOPNOTSUPP);
        let m = refusal(
            "landlock_create_ruleset",
            &off,
            why_no_landlock(&off),
            Some(native),
        );
        assert!(m.contains("EOPNOTSUPP") && m.contains("`lsm=`"), "{m}");

        let m = refusal(
            "prctl(PR_GET_SECCOMP)",
            &std::io::Error::from_raw_os_error(libc::EINVAL),
            "no seccomp",
            None,
        );
        assert!(
            m.contains("EINVAL") && m.contains("no seccomp") && m.contains("qemu-user"),
            "{m}"
        );
    }
}
