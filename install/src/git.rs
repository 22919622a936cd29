//! Fetching a git repository with the system `git`, in a clean environment.

use crate::error::{InstallError, Result};
use std::path::Path;
use std::process::Command;

/// Environment variables passed through to `git`; everything else is cleared so a user's
/// `GIT_DIR`, `GIT_WORK_TREE` or editor settings cannot redirect the clone. The
/// `GIT_CONFIG_*` triples pass through so a caller (or a test) can add `insteadOf` rules
/// without touching the user's config files.
fn passes_through(name: &str) -> bool {
    matches!(
        name,
        "PATH"
            | "HOME"
            | "USER"
            | "USERPROFILE"
            | "SYSTEMROOT"
            | "TMPDIR"
            | "TEMP"
            | "TMP"
            | "SSH_AUTH_SOCK"
            | "GIT_SSH"
            | "GIT_SSH_COMMAND"
            | "GIT_CONFIG_COUNT"
            | "GIT_CONFIG_GLOBAL"
            | "GIT_CONFIG_NOSYSTEM"
            | "HTTPS_PROXY"
            | "HTTP_PROXY"
            | "NO_PROXY"
            | "https_proxy"
            | "http_proxy"
            | "no_proxy"
    ) || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
}

fn git(dir: Option<&Path>) -> Command {
    let mut cmd = Command::new("git");
    cmd.env_clear();
    for (name, value) in std::env::vars_os() {
        if name.to_str().is_some_and(passes_through) {
            cmd.env(name, value);
        }
    }
    // Never prompt: an install in CI or inside a binding must fail, not hang on a password.
    // ssh reads passwords and host-key questions from /dev/tty, not stdin: BatchMode stops it
    // (unless the caller chose their own ssh command).
    if std::env::var_os("GIT_SSH_COMMAND").is_none() && std::env::var_os("GIT_SSH").is_none() {
        cmd.env("GIT_SSH_COMMAND", "ssh -o BatchMode=yes");
    }
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ASKPASS", "")
        .env("SSH_ASKPASS", "")
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::null());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd
}

fn run(mut cmd: Command, url: &str, what: &str) -> Result<String> {
    let output = cmd.output().map_err(|err| InstallError::Git {
        url: url.to_string(),
        what: what.to_string(),
        message: format!("cannot run `git` ({err}); install git and make sure it is on PATH"),
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(InstallError::Git {
            url: url.to_string(),
            what: what.to_string(),
            message: stderr.trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Clone `url` into `dest` (which must not exist) at `git_ref` and return the commit checked
/// out. A branch or tag is fetched shallowly; a commit needs the full history.
pub fn clone(url: &str, git_ref: Option<&str>, dest: &Path) -> Result<String> {
    if url.starts_with('-') || git_ref.is_some_and(|r| r.starts_with('-')) {
        return Err(InstallError::BadSource {
            source_spec: url.to_string(),
            message: "a URL or ref cannot start with `-`".into(),
        });
    }
    let shallow = {
        let mut cmd = git(None);
        cmd.args(["clone", "--quiet", "--depth", "1", "--no-tags"]);
        if let Some(r) = git_ref {
            cmd.args(["--branch", r]);
        }
        cmd.arg("--").arg(url).arg(dest);
        run(cmd, url, "clone")
    };
    if let Err(err) = shallow {
        let Some(r) = git_ref else { return Err(err) };
        // `--branch` takes branches and tags only: retry for a commit with a full clone.
        let _ = std::fs::remove_dir_all(dest);
        let mut cmd = git(None);
        cmd.args(["clone", "--quiet", "--no-checkout", "--"])
            .arg(url)
            .arg(dest);
        run(cmd, url, "clone")?;
        let mut cmd = git(Some(dest));
        cmd.args(["checkout", "--quiet", "--detach", r, "--"]);
        run(cmd, url, "checkout").map_err(|e| match e {
            InstallError::Git { url, what, message } => InstallError::Git {
                url,
                what,
                message: format!("{message} (no branch, tag or commit `{r}`; check --ref)"),
            },
            other => other,
        })?;
    }
    let mut cmd = git(Some(dest));
    cmd.args(["rev-parse", "HEAD"]);
    run(cmd, url, "rev-parse")
}

/// The commit checked out in `dir`, or `None` when it is not a git work tree.
pub fn head(dir: &Path) -> Option<String> {
    if !dir.join(".git").exists() {
        return None;
    }
    let mut cmd = git(Some(dir));
    cmd.args(["rev-parse", "HEAD"]);
    run(cmd, &dir.display().to_string(), "rev-parse").ok()
}
