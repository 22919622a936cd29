//! Discovery flags shared by `list`, `show`, `render` and `activate`.

use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct DeckArgs {
    /// Host profile: universal, agentskills, claude-code, codex, opencode, kode, gemini,
    /// qwen-code, copilot-cli, mistral-vibe, goose, cursor, openhands, cline, copilot.
    #[arg(long, default_value = "universal")]
    pub profile: String,
    /// A custom profile file (TOML, or JSON when named *.json); replaces --profile.
    #[arg(long, value_name = "FILE")]
    pub profile_file: Option<PathBuf>,
    /// Project directory (the agent's working directory).
    #[arg(long, default_value = ".")]
    pub project: PathBuf,
    /// Home directory (default: $HOME).
    #[arg(long)]
    pub home: Option<PathBuf>,
    /// Extra skill root, searched for **/SKILL.md after the profile's roots (repeatable;
    /// relative to the current directory).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// Also load `.claude/skills` directories nested below the project (claude-code).
    #[arg(long)]
    pub nested: bool,
    /// Do not read the host's settings files (opencode.json, Claude settings.json, ...).
    #[arg(long)]
    pub no_host_settings: bool,
    /// Agent whose per-agent permission rules apply.
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
    /// Permission rules file (JSON): skilldeck's {"semantics", "rules": [{"pattern", "decision"}],
    /// "agents"}, OpenCode's {"permission": {"skill": ...}} or Claude Code's
    /// {"permissions": {"allow", "ask", "deny"}}. Unknown keys are an error (exit 2).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Force a skill on: id, path or glob (repeatable).
    #[arg(long, value_name = "ID")]
    pub enable: Vec<String>,
    /// Switch a skill off: id, path or glob (repeatable).
    #[arg(long, value_name = "ID")]
    pub disable: Vec<String>,
    /// Hide skills whose `os` / `requires` are unmet instead of listing them as unavailable.
    #[arg(long)]
    pub hide_unavailable: bool,
}

impl DeckArgs {
    /// Every flag except `--rules` (which needs a file read); prefer [`DeckArgs::options`].
    pub fn to_options(&self) -> skilldeck::DeckOptions {
        skilldeck::DeckOptions {
            profile: self.profile.clone(),
            profile_file: self.profile_file.clone(),
            project_dir: self.project.clone(),
            home_dir: self.home.clone(),
            roots: self
                .roots
                .iter()
                .map(|r| skilldeck::RootSpec::new(from_cwd(r)))
                .collect(),
            nested: self.nested,
            read_host_settings: !self.no_host_settings,
            agent: self.agent.clone(),
            enable: self.enable.clone(),
            disable: self.disable.clone(),
            hide_unavailable: self.hide_unavailable,
            ..Default::default()
        }
    }

    /// All flags, reading the `--rules` file (any shape [`skilldeck::PermissionRules::from_file`]
    /// accepts: skilldeck's, OpenCode's `permission`, Claude Code's `permissions`).
    pub fn options(&self) -> skilldeck::Result<skilldeck::DeckOptions> {
        let mut options = self.to_options();
        if let Some(path) = &self.rules {
            options.rules = Some(skilldeck::PermissionRules::from_file(path)?);
        }
        Ok(options)
    }

    /// Build the deck; on failure, print why and return the exit code to use.
    pub fn deck(&self) -> Result<skilldeck::Deck, i32> {
        let options = self.options().map_err(|err| match err {
            // A rules file the user named that cannot be read is a usage error too: the
            // command cannot run as asked.
            skilldeck::Error::Io { .. } => {
                crate::style::eprint_error(Some(err.code()), &err.to_string());
                crate::EXIT_USAGE
            }
            _ => report(&err),
        })?;
        skilldeck::Deck::new(options).map_err(|err| report(&err))
    }
}

/// A `--root` as the shell user meant it: relative to the working directory (the engine
/// resolves a relative extra root against the project, which is what a profile or a binding
/// caller means). A leading `~` is left for the engine to expand.
fn from_cwd(path: &std::path::Path) -> PathBuf {
    if path.is_absolute() || path.starts_with("~") {
        return path.to_path_buf();
    }
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Print an engine error and map it to an exit code (bad options and bad configuration
/// files are usage errors).
pub fn report(err: &skilldeck::Error) -> i32 {
    let mut message = err.to_string();
    if matches!(err, skilldeck::Error::NotFound { .. }) {
        message.push_str(" (`skilldeck list --all` shows what was found, and why a skill is off)");
    }
    crate::style::eprint_error(Some(err.code()), &message);
    match err {
        skilldeck::Error::InvalidOptions { .. } | skilldeck::Error::InvalidConfig { .. } => {
            crate::EXIT_USAGE
        }
        _ => crate::EXIT_FAILURE,
    }
}

/// `path` for humans: relative to the project when inside it, `~/...` when under home.
pub fn display_path(path: &std::path::Path, deck: &skilldeck::Deck) -> String {
    let inputs = deck.inputs();
    if let Ok(rel) = path.strip_prefix(&inputs.project) {
        if !rel.as_os_str().is_empty() {
            return rel.display().to_string();
        }
    }
    if let Some(home) = &inputs.home {
        if let Ok(rel) = path.strip_prefix(home) {
            return format!("~/{}", rel.display());
        }
    }
    path.display().to_string()
}
