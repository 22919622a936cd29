//! Activation: load one skill's body (only now), substitute arguments and variables
//! ([`substitute`]), optionally expand commands and file references ([`expand`], opt-in),
//! and format it the way the host expects.
//!
//! Formats:
//! - `raw`: the body after substitution;
//! - `opencode`: OpenCode's `<skill_content name="…">` (heading, body, base directory as a
//!   `file://` URL, the relative-paths note, `<skill_files>` with up to 10 files);
//! - `codex`: Codex's `<skill>` item with `<name>` and `<path>` (Codex itself injects the
//!   whole file; we inject the substituted body);
//! - `kode`: Kode's (and Claude Code's) `Base directory for this skill: …` prompt;
//! - `cline`: Cline's `skills` tool answer;
//! - `gemini`: Gemini CLI's `activate_skill` tool answer (`<activated_skill>` with the body
//!   and the skill directory's folder tree);
//! - `qwen-code`: Qwen Code's `skill` tool answer (`Base directory for this skill: …`, the
//!   absolute-paths note, the body as written);
//! - `mistral-vibe`: Mistral Vibe's `skill` tool answer (`<skill_content name="…">`, the
//!   body as written, the base directory, `<skill_files>` with up to 10 sampled files);
//! - `copilot-cli`: GitHub Copilot CLI's skill context (`<skill-context name="…">`, the base
//!   directory, summarized folders and related files, the body as written);
//! - `openhands`: the OpenHands SDK's `invoke_skill` answer (the body as written, then a
//!   footer naming the skill's directory);
//! - `goose`: Goose's `load_skill` answer (`# Loaded Skill: …`, the description, the body
//!   with Goose's own argument placeholders, the supporting files).

mod copilot_cli;
mod goose;
mod openhands;
mod resource_order;

pub mod expand;
pub mod substitute;

use crate::catalog::Skill;
use crate::error::Result;
use crate::render::text::file_url;
use expand::Expansions;
use resource_order::ResourceOrder;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivationFormat {
    /// Body after substitution, nothing around it.
    #[default]
    Raw,
    /// OpenCode's `<skill_content name="...">` block.
    Opencode,
    /// Codex's `<skill><name/><path/>...</skill>`.
    Codex,
    /// Kode's `Base directory for this skill: ...` prompt.
    Kode,
    /// Cline's `skills` tool result: `<command-name>`, `<command-args>` when arguments were
    /// given, and `<command-instructions>` holding `Description: ...` and the body as
    /// written (trimmed; Cline substitutes nothing).
    Cline,
    /// Gemini CLI's `activate_skill` tool answer: `<activated_skill name="...">` holding the
    /// body as written (trimmed; Gemini substitutes nothing) in `<instructions>` and the skill
    /// directory's folder tree (up to 200 items) in `<available_resources>`.
    Gemini,
    /// Qwen Code's `skill` tool answer: `Base directory for this skill: ...`, the
    /// absolute-paths note, then the body as written (trimmed; Qwen substitutes nothing) and
    /// a final newline.
    QwenCode,
    /// Mistral Vibe's `skill` tool answer: `<skill_content name="...">`, `# Skill: name`,
    /// the body as written (trimmed; Vibe substitutes nothing), the skill directory and the
    /// relative-paths note, then `<skill_files>` with up to 10 files (sorted).
    MistralVibe,
    /// GitHub Copilot CLI's skill context message (its `skill` tool only answers that the
    /// skill loaded): `<skill-context name="...">`, the skill directory, folders of more than
    /// 50 entries with their count, up to 100 related files (absolute paths), then the body
    /// as written (Copilot substitutes nothing) with `\r\n` made `\n` and without leading
    /// blank lines.
    CopilotCli,
    /// The OpenHands SDK's `invoke_skill` tool answer: the body as written (stripped, line
    /// ends made `\n`; OpenHands substitutes nothing), then `---` and a line naming the
    /// skill's resolved directory (relative to the project directory when inside it).
    Openhands,
    /// Goose's `load_skill` tool answer: `# Loaded Skill: name (skill)`, the description,
    /// `## Content` with the trimmed body (Goose's placeholders `$ARGUMENTS`,
    /// `$ARGUMENTS[i]`, `$n` and `$name` for `metadata.arguments` filled, or `ARGUMENTS: …`
    /// appended), then `## Supporting Files` listing the skill's other files.
    Goose,
}

impl ActivationFormat {
    /// Every format, in the order error messages list them.
    pub const ALL: [ActivationFormat; 11] = [
        ActivationFormat::Raw,
        ActivationFormat::Opencode,
        ActivationFormat::Codex,
        ActivationFormat::Kode,
        ActivationFormat::Cline,
        ActivationFormat::Gemini,
        ActivationFormat::QwenCode,
        ActivationFormat::MistralVibe,
        ActivationFormat::CopilotCli,
        ActivationFormat::Openhands,
        ActivationFormat::Goose,
    ];

    /// The order the host lists a skill's files in, which [`Activation::resources`] follows.
    pub(crate) fn resource_order(self) -> ResourceOrder {
        match self {
            ActivationFormat::CopilotCli => ResourceOrder::Components,
            ActivationFormat::Gemini => ResourceOrder::FolderTree,
            ActivationFormat::Goose => ResourceOrder::Directory,
            // Mistral Vibe sorts its sample as Python strings; the others list no files, or
            // are skilldeck's own.
            _ => ResourceOrder::Text,
        }
    }

    /// The public name (the serde name, the CLI's `--format` value).
    pub fn as_str(self) -> &'static str {
        match self {
            ActivationFormat::Raw => "raw",
            ActivationFormat::Opencode => "opencode",
            ActivationFormat::Codex => "codex",
            ActivationFormat::Kode => "kode",
            ActivationFormat::Cline => "cline",
            ActivationFormat::Gemini => "gemini",
            ActivationFormat::QwenCode => "qwen-code",
            ActivationFormat::MistralVibe => "mistral-vibe",
            ActivationFormat::CopilotCli => "copilot-cli",
            ActivationFormat::Openhands => "openhands",
            ActivationFormat::Goose => "goose",
        }
    }
}

impl std::fmt::Display for ActivationFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The one place the accepted names are spelt: every binding and the CLI parse through it,
/// so an unknown name gets the same `INVALID_OPTIONS` message everywhere.
impl std::str::FromStr for ActivationFormat {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self> {
        ActivationFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ActivationFormat::ALL.iter().map(|f| f.as_str()).collect();
                crate::Error::invalid_options(format!(
                    "unknown activation format `{s}` (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ActivateOptions {
    /// The raw argument string (`$ARGUMENTS`).
    pub args: String,
    /// Caller-supplied variables for `${NAME}`.
    pub vars: BTreeMap<String, String>,
    pub format: ActivationFormat,
    /// Agent activating the skill (permission rules, event).
    pub agent: Option<String>,
    /// `${CLAUDE_SESSION_ID}`.
    pub session_id: Option<String>,
    /// Inline `@path` references (only files inside the skill or project directory). Off by
    /// default: the CLI's `--read-files`.
    pub read_files: bool,
    /// Run `` !`command` `` blocks whose program (first word) is in this list, with the
    /// system shell in the skill directory (the CLI's `--allow-command`). Empty by default:
    /// no command runs.
    pub allow_commands: Vec<String>,
}

/// The most argument text (`args` plus every `vars` value, in bytes) an activation takes:
/// generous for any real command line, small enough that a runaway caller is told.
pub const MAX_ARGS_BYTES: usize = 1 << 20;

impl ActivateOptions {
    /// Refuse argument text above [`MAX_ARGS_BYTES`].
    pub fn check(&self) -> Result<()> {
        let size = self.args.len()
            + self
                .vars
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>();
        if size > MAX_ARGS_BYTES {
            return Err(crate::Error::invalid_options(format!(
                "activation arguments are {size} bytes; at most {MAX_ARGS_BYTES} (1 MiB) are accepted"
            )));
        }
        Ok(())
    }
}

/// The activated skill: the formatted text plus the structured parts for hosts that build
/// their own message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub id: String,
    pub name: String,
    /// Output in the requested format.
    pub text: String,
    /// Body after substitution.
    pub body: String,
    #[serde(serialize_with = "crate::serde_path::lossy")]
    pub base_dir: PathBuf,
    /// Resource files (relative to `base_dir`, SKILL.md excluded), in the order the format's
    /// host lists files (per [`ActivationFormat`]: by text for most, by path components for
    /// `copilot-cli`, as a folder tree for `gemini`, in directory order for `goose`). For a
    /// skill from an MCP server, the URIs of its files at that server (the cache in `base_dir`
    /// holds only what was read).
    pub resources: Vec<String>,
    pub allowed_tools: Vec<String>,
    pub model: Option<String>,
    pub effort: Option<String>,
    pub context: Option<String>,
    pub agent: Option<String>,
    /// The permission decision for the activating agent: `allow`, or `ask` — the host must
    /// confirm with the user before the model follows the skill (the text then starts with
    /// a line saying so). A `deny` never activates.
    #[serde(default)]
    pub permission: crate::permissions::Decision,
}

impl Activation {
    /// Record an `ask` decision (`rule`: the rule that decided, if any): sets `permission`
    /// and puts a line saying so at the top of `text`, so the model is never handed a skill
    /// that needs confirmation without a word.
    pub fn mark_ask(&mut self, rule: Option<&crate::permissions::Rule>) {
        self.permission = crate::permissions::Decision::Ask;
        let why = match rule {
            Some(rule) => format!("rule `{rule}`"),
            None => "no permission rule matches this skill".to_string(),
        };
        self.text = format!(
            "{ASK_PREFIX}({why}). Confirm with the user before following the instructions of the skill `{}`.\n\n{}",
            self.id, self.text
        );
    }
}

/// How the line of an `ask` activation begins.
pub const ASK_PREFIX: &str = "Permission: ask ";

/// How many resource files OpenCode samples into `<skill_files>`.
const SAMPLED_FILES: usize = 10;
/// Bounds for listing a skill's files: a skill directory is small; anything bigger is not
/// listed further.
const MAX_RESOURCES: usize = 1_000;
const MAX_DEPTH: usize = 8;

/// Activate `skill` (permission checks are the caller's: see `Deck::activate`). Commands and
/// file references are left untouched; see [`activate_with`].
#[cfg(test)]
pub fn activate(
    skill: &Skill,
    project_dir: &Path,
    options: &ActivateOptions,
) -> Result<Activation> {
    activate_with(skill, project_dir, options, &Expansions::default())
}

/// [`activate`] with opt-in expansions: `` !`cmd` `` blocks run through `expansions.runner`
/// when `expansions.commands` allows them; `@path` references are inlined through
/// `expansions.reader` when they stay inside the skill or project directory.
pub fn activate_with(
    skill: &Skill,
    project_dir: &Path,
    options: &ActivateOptions,
    expansions: &Expansions<'_>,
) -> Result<Activation> {
    options.check()?;
    // The options' own opt-ins, where the caller supplied no runner or reader of its own.
    let policy = expand::CommandPolicy::AllowPrograms(options.allow_commands.clone());
    let mut expansions = *expansions;
    if expansions.runner.is_none() && !options.allow_commands.is_empty() {
        expansions.runner = Some(&expand::ShellRunner);
        expansions.commands = Some(&policy);
    }
    if expansions.reader.is_none() && options.read_files {
        expansions.reader = Some(&expand::FsReader);
    }
    let raw = crate::parse::read_body(&skill.location)?;
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    let skill_dir = skill.base_dir.to_string_lossy().into_owned();
    vars.insert("CLAUDE_SKILL_DIR".into(), skill_dir.clone());
    vars.insert("SKILL_DIR".into(), skill_dir);
    vars.insert(
        "CLAUDE_PROJECT_DIR".into(),
        project_dir.to_string_lossy().into_owned(),
    );
    if let Some(session) = &options.session_id {
        vars.insert("CLAUDE_SESSION_ID".into(), session.clone());
    }
    vars.extend(options.vars.iter().map(|(k, v)| (k.clone(), v.clone())));
    let ctx = substitute::Context {
        args: &options.args,
        names: &skill.manifest.claude_code.arguments,
        vars: &vars,
    };
    let (mut body, saw_argument) = substitute::substitute(&raw, &ctx);
    if !saw_argument && !options.args.trim().is_empty() {
        let trimmed = body.trim_end_matches('\n').len();
        body.truncate(trimmed);
        body.push_str(&format!("\n\nARGUMENTS: {}\n", options.args));
    }
    if let (Some(runner), Some(policy)) = (expansions.runner, expansions.commands) {
        body = expand::run_commands(&body, &skill.base_dir, runner, policy);
    }
    if let Some(reader) = expansions.reader {
        body = expand::read_files(&body, &skill.base_dir, project_dir, reader);
    }
    let resources = resources(&skill.base_dir, options.format.resource_order());
    let text = match options.format {
        ActivationFormat::Raw => body.clone(),
        ActivationFormat::Opencode => opencode(skill, &body, &resources),
        ActivationFormat::Codex => format!(
            "<skill>\n<name>{}</name>\n<path>{}</path>\n{}\n</skill>",
            skill.name,
            skill.location.to_string_lossy(),
            body.trim_end_matches('\n')
        ),
        ActivationFormat::Kode => format!(
            "Base directory for this skill: {}\n\n{}",
            skill.base_dir.to_string_lossy(),
            body.trim_start_matches('\n')
        ),
        ActivationFormat::Cline => cline(skill, &raw, &options.args),
        ActivationFormat::Gemini => gemini(skill, &raw),
        ActivationFormat::QwenCode => qwen_code(skill, &raw),
        ActivationFormat::MistralVibe => mistral_vibe(skill, &raw),
        ActivationFormat::CopilotCli => copilot_cli::skill_context(skill, &raw),
        ActivationFormat::Openhands => openhands::invoke_skill(skill, &raw, project_dir),
        ActivationFormat::Goose => goose::load_skill(skill, &raw, &options.args),
    };
    let m = &skill.manifest;
    Ok(Activation {
        id: skill.id.to_string(),
        name: skill.name.to_string(),
        text,
        body,
        base_dir: skill.base_dir.to_path_buf(),
        resources,
        allowed_tools: m.allowed_tools.clone(),
        model: m.claude_code.model.clone(),
        effort: m.claude_code.effort.clone(),
        context: m.claude_code.context.clone(),
        agent: m.claude_code.agent.clone(),
        permission: crate::permissions::Decision::Allow,
    })
}

/// Cline's `skills` tool answer (`@cline/core`: the executor's `formatSkill`), from the body
/// as written: Cline neither substitutes `$ARGUMENTS` nor appends them, it tags them.
fn cline(skill: &Skill, raw: &str, args: &str) -> String {
    let args = args.trim();
    let args = if args.is_empty() {
        String::new()
    } else {
        format!("\n<command-args>{args}</command-args>")
    };
    let description = match skill.manifest.description.as_deref().map(str::trim) {
        Some(d) if !d.is_empty() => format!("Description: {d}\n\n"),
        _ => String::new(),
    };
    format!(
        "<command-name>{}</command-name>{args}\n<command-instructions>\n{description}{}\n</command-instructions>",
        skill.name,
        raw.trim()
    )
}

/// Qwen Code's `skill` tool answer (`packages/core/src/tools/skill.ts` and `skill-utils.ts`
/// `buildSkillLlmContent`): the skill directory, the note, the body as written and trimmed
/// (the tool takes no arguments: nothing is substituted or appended), a final newline.
fn qwen_code(skill: &Skill, raw: &str) -> String {
    format!(
        "Base directory for this skill: {}\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\n{}\n",
        skill.base_dir.to_string_lossy(),
        raw.trim()
    )
}

/// Mistral Vibe's `skill` tool answer (`vibe/core/tools/builtins/skill.py`
/// `render_skill_result` with `sample_skill_files`): the body as written and trimmed (the
/// tool takes no arguments), the resolved skill directory, and the first 10 of the skill's
/// other files, sorted, as paths relative to the skill directory. No final newline.
fn mistral_vibe(skill: &Skill, raw: &str) -> String {
    let dir =
        std::fs::canonicalize(&skill.base_dir).unwrap_or_else(|_| skill.base_dir.to_path_buf());
    let files = vibe_sample_files(&skill.base_dir)
        .iter()
        .map(|f| format!("<file>{f}</file>"))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        "<skill_content name=\"{name}\">\n# Skill: {name}\n\n{body}\n\nBase directory for this skill: {dir}\nRelative paths in this skill are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n{files}\n</skill_files>\n</skill_content>",
        name = skill.name,
        body = raw.trim(),
        dir = dir.to_string_lossy(),
    )
}

/// Mistral Vibe's sample size and walk limit (`SAMPLED_SKILL_FILES`,
/// `MAX_WALKED_SKILL_ENTRIES`) and the folders its walk skips.
const VIBE_SAMPLED_FILES: usize = 10;
const VIBE_MAX_WALKED: usize = 200;
const VIBE_SKIPPED_DIRS: [&str; 10] = [
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "dist",
    "build",
];

/// Mistral Vibe's `sample_skill_files`: an `os.walk` of the skill directory (symbolic links
/// to folders not entered; any file named `SKILL.md` left out), stopped once 200 files are
/// collected, then sorted and cut to 10.
fn vibe_sample_files(dir: &Path) -> Vec<String> {
    if !dir.join("SKILL.md").is_file() {
        return Vec::new();
    }
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        let mut subdirs = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                let is_link = entry.file_type().map(|t| t.is_symlink()).unwrap_or(false);
                if !is_link && !VIBE_SKIPPED_DIRS.contains(&name.as_str()) {
                    subdirs.push(path);
                }
            } else if name != "SKILL.md" {
                if let Ok(rel) = path.strip_prefix(dir) {
                    files.push(rel.to_string_lossy().into_owned());
                }
            }
        }
        if files.len() >= VIBE_MAX_WALKED {
            break;
        }
        subdirs.sort();
        stack.extend(subdirs.into_iter().rev());
    }
    files.sort();
    files.truncate(VIBE_SAMPLED_FILES);
    files
}

/// Gemini CLI's `activate_skill` answer (`packages/core/src/tools/activate-skill.ts`): the
/// body as written, trimmed (Gemini neither substitutes nor appends arguments; its tool takes
/// none), and `getFolderStructure` of the skill directory. Only the body's first line is
/// indented, as the host's template does.
fn gemini(skill: &Skill, raw: &str) -> String {
    format!(
        "<activated_skill name=\"{}\">\n  <instructions>\n    {}\n  </instructions>\n\n  <available_resources>\n    {}\n  </available_resources>\n</activated_skill>",
        skill.name,
        raw.trim(),
        folder_structure(&skill.base_dir)
    )
}

/// Gemini CLI's folder listing limit (`getFolderStructure`'s `MAX_ITEMS`).
const GEMINI_MAX_ITEMS: usize = 200;
/// Folders Gemini CLI lists as `name/...` without entering them.
const GEMINI_IGNORED_FOLDERS: [&str; 4] = ["node_modules", ".git", "dist", "__pycache__"];

#[derive(Default)]
struct FolderNode {
    name: String,
    files: Vec<String>,
    sub_folders: Vec<usize>,
    ignored: bool,
    more_files: bool,
    more_sub_folders: bool,
}

/// Gemini CLI's `getFolderStructure` (`packages/core/src/utils/getFolderStructure.ts`) with
/// its defaults: breadth first, entries in locale order, files before folders, at most 200
/// items, the ignored folders shown as `name/...`, symbolic links left out.
fn folder_structure(dir: &Path) -> String {
    let sep = std::path::MAIN_SEPARATOR;
    let mut nodes = vec![FolderNode {
        name: dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        ..FolderNode::default()
    }];
    let mut queue = std::collections::VecDeque::from([(0usize, dir.to_path_buf())]);
    let mut count = 0usize;
    while let Some((node, path)) = queue.pop_front() {
        if count >= GEMINI_MAX_ITEMS {
            continue;
        }
        let entries = match std::fs::read_dir(&path) {
            Ok(entries) => entries,
            Err(e) if node == 0 && e.kind() == std::io::ErrorKind::NotFound => {
                return format!(
                    "Error: Could not read directory \"{}\". Check path and permissions.",
                    dir.to_string_lossy()
                );
            }
            Err(_) => continue,
        };
        let mut entries: Vec<(String, std::fs::FileType)> = entries
            .flatten()
            .filter_map(|e| {
                let kind = e.file_type().ok()?;
                Some((e.file_name().to_string_lossy().into_owned(), kind))
            })
            .collect();
        entries.sort_by(|(a, _), (b, _)| crate::discover::collate::compare(a, b));
        for (name, kind) in &entries {
            if !kind.is_file() {
                continue;
            }
            if count >= GEMINI_MAX_ITEMS {
                nodes[node].more_files = true;
                break;
            }
            nodes[node].files.push(name.clone());
            count += 1;
        }
        for (name, kind) in &entries {
            if !kind.is_dir() {
                continue;
            }
            if count >= GEMINI_MAX_ITEMS {
                nodes[node].more_sub_folders = true;
                break;
            }
            let ignored = GEMINI_IGNORED_FOLDERS.contains(&name.as_str());
            nodes.push(FolderNode {
                name: name.clone(),
                ignored,
                ..FolderNode::default()
            });
            let child = nodes.len() - 1;
            nodes[node].sub_folders.push(child);
            count += 1;
            if !ignored {
                queue.push_back((child, path.join(name)));
            }
        }
    }
    let mut lines = Vec::new();
    format_folder(&nodes, 0, "", true, true, &mut lines);
    let truncated = nodes
        .iter()
        .any(|n| n.more_files || n.more_sub_folders || n.ignored);
    let mut summary = format!("Showing up to {GEMINI_MAX_ITEMS} items (files + folders).");
    if truncated {
        summary.push_str(&format!(" Folders or files indicated with ... contain more items not shown, were ignored, or the display limit ({GEMINI_MAX_ITEMS} items) was reached."));
    }
    format!(
        "{summary}\n\n{}{sep}\n{}",
        dir.to_string_lossy(),
        lines.join("\n")
    )
}

fn format_folder(
    nodes: &[FolderNode],
    index: usize,
    indent: &str,
    last: bool,
    root: bool,
    out: &mut Vec<String>,
) {
    const LAST: &str = "\u{2514}\u{2500}\u{2500}\u{2500}";
    const MID: &str = "\u{251c}\u{2500}\u{2500}\u{2500}";
    let sep = std::path::MAIN_SEPARATOR;
    let node = &nodes[index];
    if !root || node.ignored {
        out.push(format!(
            "{indent}{}{}{sep}{}",
            if last { LAST } else { MID },
            node.name,
            if node.ignored { "..." } else { "" }
        ));
    }
    let child_indent = if root {
        String::new()
    } else {
        format!("{indent}{}", if last { "    " } else { "\u{2502}   " })
    };
    let no_folders_after = node.sub_folders.is_empty() && !node.more_sub_folders;
    for (i, file) in node.files.iter().enumerate() {
        let connector = if i + 1 == node.files.len() && no_folders_after {
            LAST
        } else {
            MID
        };
        out.push(format!("{child_indent}{connector}{file}"));
    }
    if node.more_files {
        let connector = if no_folders_after { LAST } else { MID };
        out.push(format!("{child_indent}{connector}..."));
    }
    for (i, &child) in node.sub_folders.iter().enumerate() {
        let last_child = i + 1 == node.sub_folders.len() && !node.more_sub_folders;
        format_folder(nodes, child, &child_indent, last_child, false, out);
    }
    if node.more_sub_folders {
        out.push(format!("{child_indent}{LAST}..."));
    }
}

fn opencode(skill: &Skill, body: &str, resources: &[String]) -> String {
    let files: Vec<String> = resources
        .iter()
        .take(SAMPLED_FILES)
        .map(|r| format!("<file>{}</file>", skill.base_dir.join(r).to_string_lossy()))
        .collect();
    [
        format!("<skill_content name=\"{}\">", skill.name),
        format!("# Skill: {}", skill.name),
        String::new(),
        body.trim().to_string(),
        String::new(),
        format!("Base directory for this skill: {}", file_url(&skill.base_dir)),
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory."
            .to_string(),
        "Note: file list is sampled.".to_string(),
        String::new(),
        "<skill_files>".to_string(),
        files.join("\n"),
        "</skill_files>".to_string(),
        "</skill_content>".to_string(),
    ]
    .join("\n")
}

/// Files below the skill directory, relative, `/`-separated, in `order`; SKILL.md files,
/// `.git` and `node_modules` excluded. Symlinked directories are not followed (a link could
/// point anywhere); bounded in depth and count.
fn resources(base_dir: &Path, order: ResourceOrder) -> Vec<String> {
    let mut out = Vec::new();
    collect_resources(base_dir, base_dir, 0, &mut out);
    order.apply(&mut out);
    out
}

/// Depth first in directory order, a folder's files where the folder comes.
fn collect_resources(base_dir: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if out.len() >= MAX_RESOURCES {
            return;
        }
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_symlink() && path.is_dir() {
            continue;
        }
        if kind.is_dir() {
            if depth < MAX_DEPTH && name != ".git" && name != "node_modules" {
                collect_resources(base_dir, &path, depth + 1, out);
            }
            continue;
        }
        // Like OpenCode, every SKILL.md (nested skills' too) is left out of the list.
        if name.eq_ignore_ascii_case("SKILL.md") {
            continue;
        }
        if let Ok(rel) = path.strip_prefix(base_dir) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activation_format_names_match_serde_and_parse_back() {
        for format in ActivationFormat::ALL {
            let serde_name = serde_json::to_value(format).expect("serialise");
            assert_eq!(serde_name, serde_json::Value::from(format.as_str()));
            assert_eq!(
                format.as_str().parse::<ActivationFormat>().ok(),
                Some(format)
            );
        }
        let err = "html"
            .parse::<ActivationFormat>()
            .expect_err("unknown name");
        assert_eq!(err.code(), "INVALID_OPTIONS");
        assert!(
            err.to_string().contains("raw, opencode, codex, kode"),
            "{err}"
        );
    }
    use crate::catalog::Scope;

    #[test]
    fn argument_text_is_capped_at_one_mebibyte() {
        let at = |args: usize, var: usize| ActivateOptions {
            args: "x".repeat(args),
            vars: BTreeMap::from([("V".to_string(), "y".repeat(var))]),
            ..ActivateOptions::default()
        };
        assert!(at(MAX_ARGS_BYTES - 2, 1).check().is_ok());
        for options in [at(MAX_ARGS_BYTES + 1, 0), at(0, MAX_ARGS_BYTES)] {
            let err = options.check().expect_err("over the cap");
            assert_eq!(err.code(), "INVALID_OPTIONS");
            assert!(err.to_string().contains("1 MiB"), "{err}");
        }
    }

    fn skill_in(dir: &Path, text: &str) -> Skill {
        let base = dir.join("greet");
        std::fs::create_dir_all(base.join("scripts")).expect("mkdir");
        std::fs::write(base.join("SKILL.md"), text).expect("write");
        std::fs::write(base.join("scripts/run.sh"), "echo").expect("write");
        std::fs::write(base.join("a.txt"), "a").expect("write");
        Skill {
            id: "greet".into(),
            name: "greet".into(),
            location: base.join("SKILL.md").into(),
            base_dir: base.into(),
            scope: Scope::Project,
            source: dir.into(),
            plugin: None,
            kind: Default::default(),
            manifest: std::sync::Arc::new(crate::manifest::Manifest {
                description: Some("Greets".to_string()),
                ..Default::default()
            }),
            diagnostics: Vec::new().into(),
            status: Default::default(),
        }
    }

    #[test]
    fn gemini_sorts_names_like_locale_compare() {
        // Node 20's `[...].sort((a, b) => a.localeCompare(b))` on these names.
        let mut names = [
            "b", "A", "a", "_x", "1", "B.md", "a.txt", "ab", "a-b", "Z", "z10", "z9", ".hidden",
            "~t",
        ];
        names.sort_by(|a, b| crate::discover::collate::compare(a, b));
        assert_eq!(
            names,
            [
                "_x", ".hidden", "~t", "1", "a", "A", "a-b", "a.txt", "ab", "b", "B.md", "Z",
                "z10", "z9"
            ]
        );
    }

    #[test]
    fn formats_and_append() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        let skill = skill_in(
            &root,
            "---\nname: greet\ndescription: Greets\n---\nHello.\n",
        );
        let mut options = ActivateOptions {
            args: "Ada Lovelace".into(),
            ..Default::default()
        };
        let a = activate(&skill, &root, &options).expect("activates");
        assert_eq!(a.body, "Hello.\n\nARGUMENTS: Ada Lovelace\n");
        assert_eq!(a.resources, vec!["a.txt", "scripts/run.sh"]);
        options.format = ActivationFormat::Kode;
        let k = activate(&skill, &root, &options).expect("activates");
        assert!(k.text.starts_with(&format!(
            "Base directory for this skill: {}\n\nHello.",
            root.join("greet").display()
        )));
        options.format = ActivationFormat::Opencode;
        let o = activate(&skill, &root, &options).expect("activates");
        assert!(o.text.starts_with("<skill_content name=\"greet\">\n# Skill: greet\n\nHello.\n\nARGUMENTS: Ada Lovelace\n\nBase directory for this skill: file://"));
        assert!(o.text.ends_with(&format!("<skill_files>\n<file>{0}/a.txt</file>\n<file>{0}/scripts/run.sh</file>\n</skill_files>\n</skill_content>", root.join("greet").display())));
    }
}
