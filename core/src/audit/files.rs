//! The inventory: every entry below the audited root, walked without following links, each
//! regular file read up to the cap, plus the findings about the entries themselves (links,
//! executables, hidden, oversize, odd names, unreadable).

use super::text::suspicious_char;
use super::{finding, AuditFinding, AuditOptions, AuditSeverity};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Directories of version control metadata: never installed, never run, not the package.
const VCS_DIRS: [&str; 3] = [".git", ".hg", ".svn"];
/// Manifest folders whose `plugin.json` makes their parent a plugin.
const PLUGIN_MARKERS: [&str; 3] = [".claude-plugin", ".codex-plugin", ".kode-plugin"];
/// Extensions of files that are programs even without a shebang or a `scripts/` folder.
const SCRIPT_EXTENSIONS: [&str; 16] = [
    "sh", "bash", "zsh", "fish", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "ps1", "bat",
    "cmd", "lua",
];
/// How far into a file the binary sniff looks for a NUL byte.
const SNIFF: usize = 8192;

pub(super) struct File {
    /// Relative to the root, `/`-separated.
    pub path: String,
    pub size: u64,
    pub executable: bool,
    /// The head of the file (at most the cap); `None` when it could not be read.
    pub bytes: Option<Vec<u8>>,
}

impl File {
    fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    fn extension(&self) -> Option<&str> {
        let name = self.name();
        name.rsplit_once('.')
            .map(|(_, ext)| ext)
            .filter(|_| !name.starts_with('.') || name.matches('.').count() > 1)
    }

    pub fn is_binary(&self) -> bool {
        self.bytes
            .as_ref()
            .is_some_and(|b| b[..b.len().min(SNIFF)].contains(&0))
    }

    pub fn has_shebang(&self) -> bool {
        self.bytes.as_ref().is_some_and(|b| b.starts_with(b"#!"))
    }
}

/// What a file is to the package: decides which checks apply and how severe they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A skill's `SKILL.md`: frontmatter checks, `` !`…` `` blocks run at activation.
    SkillMd,
    /// A plugin's command or agent file (`commands/*.md`, `agents/*.md`): its `` !`…` ``
    /// blocks run when invoked, like a skill's.
    CommandMd,
    /// A program: shebang, a script extension, or a file in `scripts/` or `bin/`.
    Script,
    /// Hook configuration: its commands run automatically on agent events.
    Hooks,
    /// A plugin manifest (may declare hooks and MCP servers inline).
    PluginManifest,
    /// An MCP server configuration (`.mcp.json`): its commands start with the plugin.
    McpConfig,
    /// Documentation and data: only the Unicode checks apply.
    Text,
    /// Contains NUL bytes.
    Binary,
}

pub(super) struct Inventory {
    pub files: Vec<File>,
    /// Directories holding a `SKILL.md`, sorted.
    pub skills: Vec<String>,
    pub findings: Vec<AuditFinding>,
    plugin_root: bool,
}

impl Inventory {
    pub fn is_plugin(&self) -> bool {
        self.plugin_root
    }
}

pub(super) fn role(file: &File, inventory: &Inventory) -> Role {
    if file.is_binary() {
        return Role::Binary;
    }
    let name = file.name();
    let parts: Vec<&str> = file.path.split('/').collect();
    let parent = parts
        .len()
        .checked_sub(2)
        .and_then(|i| parts.get(i))
        .copied();
    if name == "SKILL.md" {
        return Role::SkillMd;
    }
    if name == "hooks.json" {
        return Role::Hooks;
    }
    if name == ".mcp.json" {
        return Role::McpConfig;
    }
    if name == "plugin.json"
        && (parent.is_some_and(|p| PLUGIN_MARKERS.contains(&p))
            || (parts.len() == 1 && inventory.plugin_root))
    {
        return Role::PluginManifest;
    }
    let in_dir = |dir: &str| parts[..parts.len().saturating_sub(1)].contains(&dir);
    if file.has_shebang()
        || in_dir("scripts")
        || in_dir("bin")
        || file
            .extension()
            .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    {
        return Role::Script;
    }
    if file.extension() == Some("md") && (in_dir("commands") || in_dir("agents")) {
        return Role::CommandMd;
    }
    Role::Text
}

pub(super) fn inventory(root: &Path, options: &AuditOptions) -> std::io::Result<Inventory> {
    // The root itself must be listable; everything below is reported, never fatal.
    let first = std::fs::read_dir(root)?;
    let canonical_root = std::fs::canonicalize(root)?;
    let mut inv = Inventory {
        files: Vec::new(),
        skills: Vec::new(),
        findings: Vec::new(),
        plugin_root: PLUGIN_MARKERS
            .iter()
            .any(|m| root.join(m).join("plugin.json").is_file())
            || root.join("plugin.json").is_file(),
    };
    let mut stack: Vec<(PathBuf, String, usize, Option<std::fs::ReadDir>)> =
        vec![(root.to_path_buf(), String::new(), 0, Some(first))];
    let mut stopped = false;
    while let Some((dir, rel_dir, depth, listing)) = stack.pop() {
        let listing = match listing.map_or_else(|| std::fs::read_dir(&dir), Ok) {
            Ok(listing) => listing,
            Err(err) => {
                inv.findings.push(unreadable(&rel_dir, &err));
                continue;
            }
        };
        let mut entries: Vec<_> = listing.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let os_name = entry.file_name();
            let Some(name) = os_name.to_str().map(str::to_owned) else {
                let shown = os_name.to_string_lossy();
                inv.findings.push(finding(
                    AuditSeverity::Medium,
                    "non-utf8-file-name",
                    &join(&rel_dir, &shown),
                    None,
                    format!("the name `{shown}` is not valid UTF-8"),
                    "rename it: skilldeck will not serve it and most hosts cannot show it",
                ));
                continue;
            };
            let rel = join(&rel_dir, &name);
            if let Some((c, at)) = name
                .chars()
                .enumerate()
                .find_map(|(i, c)| suspicious_char(c).map(|kind| (kind, i)))
            {
                inv.findings.push(finding(
                    c.severity(),
                    "suspicious-file-name",
                    &rel,
                    None,
                    format!(
                        "the name holds {} at character {}: what a reviewer sees is not the real name",
                        c.describe(),
                        at + 1
                    ),
                    "rename the file with plain characters",
                ));
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                inv.findings.push(finding(
                    AuditSeverity::Medium,
                    "unreadable",
                    &rel,
                    None,
                    "its metadata cannot be read".to_string(),
                    "fix the permissions and audit again",
                ));
                continue;
            };
            if meta.file_type().is_symlink() {
                inv.findings
                    .push(link_finding(&entry.path(), &rel, root, &canonical_root));
                continue;
            }
            if meta.is_dir() {
                if VCS_DIRS.contains(&name.as_str()) {
                    continue;
                }
                if name.starts_with('.') && !PLUGIN_MARKERS.contains(&name.as_str()) {
                    inv.findings.push(hidden(&rel, "directory"));
                }
                if depth + 1 > options.max_depth {
                    inv.findings.push(finding(
                        AuditSeverity::Medium,
                        "too-deep",
                        &rel,
                        None,
                        format!(
                            "deeper than {} levels; not audited below",
                            options.max_depth
                        ),
                        "flatten the tree, or audit the subdirectory on its own",
                    ));
                    continue;
                }
                stack.push((entry.path(), rel, depth + 1, None));
                continue;
            }
            if !meta.is_file() {
                inv.findings.push(finding(
                    AuditSeverity::High,
                    "special-file",
                    &rel,
                    None,
                    "a device, socket or FIFO: reading it can block or touch hardware".to_string(),
                    "remove it; a skill holds only regular files",
                ));
                continue;
            }
            if inv.files.len() >= options.max_files {
                stopped = true;
                break;
            }
            if name.starts_with('.') && !matches!(name.as_str(), ".mcp.json" | ".gitignore") {
                inv.findings.push(hidden(&rel, "file"));
            }
            if name == "SKILL.md" {
                inv.skills.push(rel_dir.clone());
            }
            inv.files
                .push(read(&entry.path(), rel, &meta, options, &mut inv.findings));
        }
        if stopped {
            break;
        }
    }
    if stopped {
        inv.findings.push(finding(
            AuditSeverity::Medium,
            "too-many-files",
            "",
            None,
            format!(
                "more than {} files; the audit stopped there and the rest was not inspected",
                options.max_files
            ),
            "audit a smaller directory, or move bulk data out of the package",
        ));
    }
    inv.skills.sort();
    inv.files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(inv)
}

fn read(
    path: &Path,
    rel: String,
    meta: &std::fs::Metadata,
    options: &AuditOptions,
    findings: &mut Vec<AuditFinding>,
) -> File {
    let size = meta.len();
    let executable = is_executable(meta);
    if size > options.max_file_bytes {
        findings.push(finding(
            AuditSeverity::Low,
            "oversize-file",
            &rel,
            None,
            format!(
                "{size} bytes; only the first {} were inspected",
                options.max_file_bytes
            ),
            "check that the file belongs in the package; large files cost context and download time",
        ));
    }
    let bytes = std::fs::File::open(path).and_then(|f| {
        let mut buf = Vec::new();
        f.take(options.max_file_bytes).read_to_end(&mut buf)?;
        Ok(buf)
    });
    let bytes = match bytes {
        Ok(bytes) => Some(bytes),
        Err(err) => {
            findings.push(unreadable(&rel, &err));
            None
        }
    };
    File {
        path: rel,
        size,
        executable,
        bytes,
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

fn link_finding(link: &Path, rel: &str, root: &Path, canonical_root: &Path) -> AuditFinding {
    let target = std::fs::read_link(link).unwrap_or_default();
    let shown = target.display().to_string();
    let parent = link.parent().unwrap_or(root);
    // Lexically first: an absolute target or `..` past the root escapes even when dangling.
    let lexical_escape = target.is_absolute() || escapes(root, &parent.join(&target));
    let resolved = std::fs::canonicalize(link);
    let escape = match &resolved {
        Ok(real) => !real.starts_with(canonical_root),
        Err(_) => lexical_escape,
    };
    if escape {
        finding(
            AuditSeverity::Critical,
            "symlink-escape",
            rel,
            None,
            format!("a symbolic link to `{shown}`, outside the package: installing or serving it would expose that file"),
            "replace the link with the file it points to, or remove it",
        )
    } else if resolved.is_err() {
        finding(
            AuditSeverity::Low,
            "symlink-dangling",
            rel,
            None,
            format!("a symbolic link to `{shown}`, which does not exist"),
            "remove the link or add its target",
        )
    } else {
        finding(
            AuditSeverity::Low,
            "symlink",
            rel,
            None,
            format!("a symbolic link to `{shown}` inside the package; installers copy or skip links differently"),
            "prefer a regular file",
        )
    }
}

/// True when `path` (below `root` lexically) climbs out of `root` through `..`.
fn escapes(root: &Path, path: &Path) -> bool {
    let Ok(rest) = path.strip_prefix(root) else {
        return true;
    };
    let mut depth: i64 = 0;
    for component in rest.components() {
        match component {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return true,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

fn hidden(rel: &str, what: &str) -> AuditFinding {
    finding(
        AuditSeverity::Low,
        "hidden-file",
        rel,
        None,
        format!("a hidden {what}: easy to miss in a review, and hosts and skilldeck's MCP server do not serve it"),
        "remove it if the skill does not need it",
    )
}

fn unreadable(rel: &str, err: &std::io::Error) -> AuditFinding {
    finding(
        AuditSeverity::Medium,
        "unreadable",
        rel,
        None,
        format!("cannot be read ({err}); it was not inspected"),
        "fix the permissions and audit again",
    )
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}
