//! Discovery flags shared by `list`, `show`, `render` and `activate`.

use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct DeckArgs {
    /// Host profile: universal, agentskills, claude-code, codex, opencode, kode.
    #[arg(long, default_value = "universal")]
    pub profile: String,
    /// Project directory (the agent's working directory).
    #[arg(long, default_value = ".")]
    pub project: PathBuf,
    /// Home directory (default: $HOME).
    #[arg(long)]
    pub home: Option<PathBuf>,
    /// Extra skill root (repeatable).
    #[arg(long = "root")]
    pub roots: Vec<PathBuf>,
}

impl DeckArgs {
    #[allow(dead_code)] // used by list/show/render/activate as they land
    pub fn to_options(&self) -> skilldeck::DeckOptions {
        skilldeck::DeckOptions {
            profile: self.profile.clone(),
            project_dir: self.project.clone(),
            home_dir: self.home.clone(),
            roots: self.roots.iter().map(skilldeck::RootSpec::new).collect(),
            ..Default::default()
        }
    }
}
