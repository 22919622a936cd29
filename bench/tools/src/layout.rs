//! Where things live in a generated corpus, and which roots the `universal` profile walks
//! there. The generator, the floor walker and the API timer all take their paths from here,
//! so every contender walks exactly the same directories.

use std::path::{Path, PathBuf};

/// Skill directories the `universal` profile looks for in the project directory and in
/// each ancestor up to the repository root.
pub const PROJECT_DIRS: [&str; 6] = [
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
    ".opencode/skills",
    ".opencode/skill",
    ".kode/skills",
];

/// The same under the home directory (OpenCode keeps its user skills in `.config/opencode`).
pub const HOME_DIRS: [&str; 6] = [
    ".agents/skills",
    ".claude/skills",
    ".codex/skills",
    ".config/opencode/skills",
    ".config/opencode/skill",
    ".kode/skills",
];

/// The fixed shape of a corpus below its base directory:
/// `repo/` (holds `.git`) ⊃ `repo/packages/app/` (the project dir), `home/`, `custom/`.
#[derive(Clone, Debug)]
pub struct Layout {
    pub base: PathBuf,
}

impl Layout {
    pub fn new(base: impl Into<PathBuf>) -> Self {
        Layout { base: base.into() }
    }

    pub fn repo(&self) -> PathBuf {
        self.base.join("repo")
    }

    /// The agent's working directory: two levels below the repository root, so the
    /// ancestor walk has something to do.
    pub fn project(&self) -> PathBuf {
        self.base.join("repo/packages/app")
    }

    pub fn home(&self) -> PathBuf {
        self.base.join("home")
    }

    /// The caller-given extra root (`--root`).
    pub fn custom(&self) -> PathBuf {
        self.base.join("custom")
    }

    /// Project dir and its ancestors up to the repository root, nearest first.
    pub fn project_chain(&self) -> Vec<PathBuf> {
        vec![self.project(), self.base.join("repo/packages"), self.repo()]
    }

    /// Every root the `universal` profile walks in this corpus, in precedence order
    /// (project chain, home, extra). Roots that do not exist are included: walkers must
    /// cope with them, as on a real machine.
    pub fn universal_roots(&self) -> Vec<PathBuf> {
        let mut roots = Vec::new();
        for dir in self.project_chain() {
            roots.extend(PROJECT_DIRS.iter().map(|d| dir.join(d)));
        }
        let home = self.home();
        roots.extend(HOME_DIRS.iter().map(|d| home.join(d)));
        roots.push(self.custom());
        roots
    }

    /// The deck every in-process benchmark loads: the universal profile with the corpus's
    /// project, home and custom root, and a fixed environment (the corpus must not see this
    /// machine's XDG/CODEX variables).
    pub fn deck_options(&self) -> skilldeck::DeckOptions {
        let home = self.home();
        let env =
            std::collections::BTreeMap::from([("HOME".into(), home.clone().into_os_string())]);
        skilldeck::DeckOptions {
            profile: "universal".into(),
            project_dir: self.project(),
            home_dir: Some(home),
            env: Some(env),
            roots: vec![skilldeck::RootSpec::new(self.custom())],
            ..Default::default()
        }
    }

    pub fn manifest_path(&self) -> PathBuf {
        self.base.join("corpus.json")
    }
}

/// `path` relative to `base` when it is below it (for compact reports).
pub fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
