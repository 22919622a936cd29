//! The corpus generator: N skills spread over the roots of the `universal` profile
//! (project dir, its ancestors up to the repository root, home, two plugins, a custom
//! root), with sibling `scripts/` and `references/`, and the noise a scanner meets on a
//! real machine (`node_modules` and `.git` trees with thousands of files, broken files,
//! duplicate names across roots, symlinked skill dirs, a symlink loop, a dangling link).
//!
//! Same `(n, seed)` → byte-identical tree. A summary goes to `corpus.json`, written last,
//! so a half-written corpus is never mistaken for a complete one.

use crate::layout::Layout;
use crate::realworld;
use crate::rng::Rng;
use crate::skillfile::{self, Broken};
use crate::text;
use serde_json::json;
use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

/// Bump when the generated tree changes, so `./scripts/bench` regenerates stale corpora.
pub const GENERATOR_VERSION: u32 = 2;

/// Which SKILL.md files the corpus holds; the tree around them (roots, noise, links) is
/// the same for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The stress mix of [`skillfile`]: long descriptions in every quoting style, 2% broken
    /// files, 5% duplicate names.
    Mixed,
    /// The public-repository mix of [`realworld`] (`../shared/REALWORLD.md`): mostly plain
    /// and double-quoted descriptions of ~180 characters, 2.5% without frontmatter, and
    /// names repeated across roots as often as in the measured tree (45% shadowed).
    RealWorld,
}

impl Shape {
    /// The `--shape` value naming this shape.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Mixed => "mixed",
            Shape::RealWorld => "realworld",
        }
    }

    pub fn parse(value: &str) -> Option<Shape> {
        match value {
            "mixed" => Some(Shape::Mixed),
            "realworld" => Some(Shape::RealWorld),
            _ => None,
        }
    }
}

/// A place skills are written to, relative to the corpus base, with its share of N.
struct Slot {
    dir: &'static str,
    weight: u32,
}

const SLOTS: &[Slot] = &[
    Slot {
        dir: "repo/packages/app/.claude/skills",
        weight: 14,
    },
    Slot {
        dir: "repo/packages/app/.agents/skills",
        weight: 8,
    },
    Slot {
        dir: "repo/packages/app/.opencode/skills",
        weight: 4,
    },
    Slot {
        dir: "repo/packages/app/.codex/skills",
        weight: 3,
    },
    Slot {
        dir: "repo/packages/.agents/skills",
        weight: 3,
    },
    Slot {
        dir: "repo/.claude/skills",
        weight: 8,
    },
    Slot {
        dir: "repo/.agents/skills",
        weight: 4,
    },
    Slot {
        dir: "home/.claude/skills",
        weight: 16,
    },
    Slot {
        dir: "home/.agents/skills",
        weight: 8,
    },
    Slot {
        dir: "home/.codex/skills",
        weight: 5,
    },
    Slot {
        dir: "home/.config/opencode/skills",
        weight: 5,
    },
    Slot {
        dir: "home/.kode/skills",
        weight: 2,
    },
    Slot {
        dir: "home/.claude/skills/team-plugin/skills",
        weight: 5,
    },
    Slot {
        dir: "custom/acme-plugin/skills",
        weight: 3,
    },
    Slot {
        dir: "custom",
        weight: 12,
    },
];
/// Index of `repo/packages/app/.agents/skills`, where symlinked skill dirs are linked from.
const LINK_SLOT: usize = 1;
/// Index of `repo/.claude/skills`, which holds a git-cloned skill collection.
const VENDOR_SLOT: usize = 5;
const CATEGORIES: &[&str] = &["engineering", "writing", "data", "ops", "design", "sales"];

/// What the generator wrote (goes to `corpus.json`).
#[derive(Debug, Default)]
pub struct Summary {
    pub skill_files: usize,
    pub broken: usize,
    pub duplicates: usize,
    pub symlinked: usize,
    pub non_ascii: usize,
    pub crlf: usize,
    pub bom: usize,
    pub needs_repair: usize,
    pub sibling_files: usize,
    pub noise_git_files: usize,
    pub noise_node_modules_files: usize,
    pub node_modules_skill_files: usize,
    pub skill_md_bytes: u64,
    pub no_frontmatter: usize,
    pub flow_sequence: usize,
    pub nested_metadata: usize,
    pub block_scalar: usize,
    pub touch: Option<PathBuf>,
}

struct Gen<'a> {
    shape: Shape,
    rng: Rng,
    pool: String,
    layout: &'a Layout,
    names: Vec<(String, usize)>,
    taken_names: HashSet<String>,
    taken_dirs: HashSet<PathBuf>,
    summary: Summary,
}

fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, bytes)
}

#[cfg(unix)]
fn symlink(target: &str, link: &Path) -> io::Result<()> {
    if let Some(parent) = link.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn symlink(_target: &str, _link: &Path) -> io::Result<()> {
    // Symlinks need privileges on Windows; the corpus is then simply without them.
    Ok(())
}

impl Gen<'_> {
    fn fresh_name(&mut self) -> String {
        let base = text::skill_name(&mut self.rng);
        let mut name = base.clone();
        let mut i = 2;
        while self.taken_names.contains(&name) {
            name = format!("{base}-{i}");
            i += 1;
        }
        self.taken_names.insert(name.clone());
        name
    }

    /// The directory for a new skill in `slot`: usually directly under the root, sometimes
    /// in a category folder (the `**/SKILL.md` pattern finds both).
    fn skill_dir(&mut self, slot: usize, name: &str) -> PathBuf {
        let root = self.layout.base.join(SLOTS[slot].dir);
        if slot == VENDOR_SLOT && self.rng.chance(0.5) {
            return root.join("vendor-collection").join(name);
        }
        match self.rng.weighted(&[80, 15, 5]) {
            0 => root.join(name),
            1 => root.join(self.rng.pick(CATEGORIES)).join(name),
            _ => {
                let cat = *self.rng.pick(CATEGORIES);
                let sub = *self.rng.pick(CATEGORIES);
                root.join(cat).join(sub).join(name)
            }
        }
    }

    fn siblings(&mut self, dir: &Path) -> io::Result<()> {
        if self.rng.chance(0.5) {
            for i in 0..self.rng.range(1, 2) {
                let file = if i == 0 { "run.py" } else { "helper.sh" };
                let len = self.rng.log_range(200, 4096);
                let code = text::slice_pool(&self.pool, &mut self.rng, len).to_string();
                write(&dir.join("scripts").join(file), code.as_bytes())?;
                self.summary.sibling_files += 1;
            }
        }
        if self.rng.chance(0.4) {
            for i in 0..self.rng.range(1, 3) {
                let len = self.rng.log_range(1024, 8192);
                let doc = text::slice_pool(&self.pool, &mut self.rng, len).to_string();
                write(
                    &dir.join("references").join(format!("guide-{i}.md")),
                    doc.as_bytes(),
                )?;
                self.summary.sibling_files += 1;
            }
        }
        if self.rng.chance(0.05) {
            write(&dir.join("assets/template.txt"), b"{{title}}\n\n{{body}}\n")?;
            self.summary.sibling_files += 1;
        }
        Ok(())
    }

    fn skill(&mut self) -> io::Result<()> {
        let slot = self
            .rng
            .weighted(&SLOTS.iter().map(|s| s.weight).collect::<Vec<_>>());
        // Duplicate names across roots: the resolver must pick a winner and report losers.
        let mut name = None;
        // 7,063 of 15,728 public files are shadowed by an earlier one with the same name.
        let repeat = match self.shape {
            Shape::Mixed => 0.05,
            Shape::RealWorld => 0.45,
        };
        if self.rng.chance(repeat) && !self.names.is_empty() {
            let (existing, existing_slot) = self.names[self.rng.below(self.names.len())].clone();
            if existing_slot != slot {
                name = Some(existing);
            }
        }
        let duplicate = name.is_some();
        let name = match name {
            Some(name) => name,
            None => self.fresh_name(),
        };
        let mut dir = self.skill_dir(slot, &name);
        if self.taken_dirs.contains(&dir) {
            let fresh = self.fresh_name();
            dir = self.skill_dir(slot, &fresh);
            if self.taken_dirs.contains(&dir) {
                return Ok(());
            }
        } else if duplicate {
            self.summary.duplicates += 1;
        }
        self.taken_dirs.insert(dir.clone());
        self.names.push((name.clone(), slot));

        // Some skill dirs are symlinks into a shared checkout outside every root.
        let linked = slot == LINK_SLOT
            && dir.parent() == Some(&self.layout.base.join(SLOTS[LINK_SLOT].dir))
            && self.rng.chance(0.12);
        let real_dir = if linked {
            let real = self.layout.repo().join("shared-skills").join(&name);
            symlink(&format!("../../../../shared-skills/{name}"), &dir)?;
            self.summary.symlinked += 1;
            real
        } else {
            dir.clone()
        };

        let dir_name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let broken_share = match self.shape {
            Shape::Mixed => 0.02,
            // Files that are not merely frontmatter-less (counted in `realworld`) but broken.
            Shape::RealWorld => 0.003,
        };
        let bytes = if self.rng.chance(broken_share) {
            self.summary.broken += 1;
            let kind = Broken::random(&mut self.rng);
            skillfile::broken_md(&mut self.rng, &self.pool, &name, kind)
        } else {
            let (bytes, traits) = match self.shape {
                Shape::Mixed => {
                    let body_len = self.rng.log_range(1024, 40 * 1024);
                    skillfile::skill_md(&mut self.rng, &self.pool, &name, &dir_name, body_len)
                }
                Shape::RealWorld => {
                    let (bytes, traits, shape) =
                        realworld::skill_md(&mut self.rng, &self.pool, &name, &dir_name);
                    self.summary.no_frontmatter += usize::from(shape.no_frontmatter);
                    self.summary.flow_sequence += usize::from(shape.flow_sequence);
                    self.summary.nested_metadata += usize::from(shape.nested_metadata);
                    self.summary.block_scalar += usize::from(shape.block_scalar);
                    (bytes, traits)
                }
            };
            self.summary.non_ascii += usize::from(traits.non_ascii);
            self.summary.crlf += usize::from(traits.crlf);
            self.summary.bom += usize::from(traits.bom);
            self.summary.needs_repair += usize::from(traits.needs_repair);
            if self.summary.touch.is_none() && slot == 0 && !linked {
                self.summary.touch = Some(real_dir.join("SKILL.md"));
            }
            bytes
        };
        write(&real_dir.join("SKILL.md"), &bytes)?;
        self.summary.skill_files += 1;
        self.summary.skill_md_bytes += bytes.len() as u64;
        self.siblings(&real_dir)
    }

    /// A git clone inside a skills root: thousands of object files no walker should read.
    fn git_noise(&mut self, count: usize) -> io::Result<()> {
        let git = self
            .layout
            .base
            .join(SLOTS[VENDOR_SLOT].dir)
            .join("vendor-collection/.git");
        write(&git.join("HEAD"), b"ref: refs/heads/main\n")?;
        write(
            &git.join("config"),
            b"[core]\n\trepositoryformatversion = 0\n\tbare = false\n",
        )?;
        write(
            &git.join("refs/heads/main"),
            b"3f786850e387550fdab836ed7e6dc881de23001b\n",
        )?;
        let mut payload = vec![0u8; 1600];
        for _ in 0..count {
            let id = format!(
                "{:016x}{:016x}{:08x}",
                self.rng.next_u64(),
                self.rng.next_u64(),
                self.rng.next_u64() as u32
            );
            let len = self.rng.range(100, 1500);
            for b in payload.iter_mut().take(len) {
                *b = self.rng.next_u64() as u8;
            }
            write(
                &git.join("objects").join(&id[..2]).join(&id[2..]),
                &payload[..len],
            )?;
        }
        self.summary.noise_git_files = count + 3;
        Ok(())
    }

    /// A skill whose `scripts/` has an installed `node_modules` with thousands of files,
    /// some of which are SKILL.md files of vendored packages.
    fn node_modules_noise(&mut self, count: usize) -> io::Result<()> {
        let dir = self.layout.base.join(SLOTS[8].dir).join("node-tooling");
        let (bytes, _) = skillfile::skill_md(
            &mut self.rng,
            &self.pool,
            "node-tooling",
            "node-tooling",
            2048,
        );
        write(&dir.join("SKILL.md"), &bytes)?;
        self.summary.skill_files += 1;
        self.summary.skill_md_bytes += bytes.len() as u64;
        write(
            &dir.join("scripts/package.json"),
            b"{\"private\": true, \"dependencies\": {}}\n",
        )?;
        let nm = dir.join("scripts/node_modules");
        let packages = count.div_ceil(4);
        for i in 0..packages {
            let pkg = nm.join(format!("pkg-{i}"));
            write(
                &pkg.join("package.json"),
                format!(
                    "{{\"name\": \"pkg-{i}\", \"version\": \"1.0.{i}\", \"main\": \"index.js\"}}\n"
                )
                .as_bytes(),
            )?;
            let len = self.rng.log_range(200, 6000);
            let code = text::slice_pool(&self.pool, &mut self.rng, len).to_string();
            write(&pkg.join("index.js"), code.as_bytes())?;
            write(&pkg.join("lib/util.js"), b"module.exports = (x) => x;\n")?;
            if i % 100 == 7 {
                let name = format!("vendored-{i}");
                let (bytes, _) = skillfile::skill_md(&mut self.rng, &self.pool, &name, &name, 1024);
                write(&pkg.join("skills").join(&name).join("SKILL.md"), &bytes)?;
                self.summary.node_modules_skill_files += 1;
            } else {
                write(&pkg.join("README.md"), b"# package\n")?;
            }
        }
        self.summary.noise_node_modules_files = packages * 4 + 1;
        Ok(())
    }

    /// Links a walker must survive: a directory loop, a two-link cycle, a dangling link, a
    /// second path to an existing skill (same canonical file), and a directory named SKILL.md.
    fn hostile_entries(&mut self) -> io::Result<()> {
        let home_agents = self.layout.base.join(SLOTS[8].dir);
        let (bytes, _) =
            skillfile::skill_md(&mut self.rng, &self.pool, "loop-skill", "loop-skill", 2048);
        write(&home_agents.join("loop-skill/SKILL.md"), &bytes)?;
        self.summary.skill_files += 1;
        self.summary.skill_md_bytes += bytes.len() as u64;
        symlink("..", &home_agents.join("loop-skill/loop"))?;
        symlink("cycle-b", &home_agents.join("cycle-a"))?;
        symlink("cycle-a", &home_agents.join("cycle-b"))?;
        symlink("missing-skill-dir", &home_agents.join("dangling"))?;
        if let Some((name, _)) = self
            .names
            .iter()
            .find(|(name, slot)| {
                *slot == VENDOR_SLOT
                    && self
                        .taken_dirs
                        .contains(&self.layout.base.join(SLOTS[VENDOR_SLOT].dir).join(name))
            })
            .cloned()
        {
            let link = self
                .layout
                .base
                .join(SLOTS[LINK_SLOT].dir)
                .join(format!("alias-of-{name}"));
            symlink(&format!("../../../../.claude/skills/{name}"), &link)?;
        }
        write(
            &self.layout.custom().join("odd/SKILL.md/README.md"),
            b"a directory named SKILL.md\n",
        )?;
        Ok(())
    }

    fn plugins_and_markers(&self) -> io::Result<()> {
        write(
            &self.layout.repo().join(".git/HEAD"),
            b"ref: refs/heads/main\n",
        )?;
        write(
            &self.layout.base.join("home/.claude/skills/team-plugin/.claude-plugin/plugin.json"),
            b"{\"name\": \"team-plugin\", \"version\": \"1.0.0\", \"description\": \"Team skills\"}\n",
        )?;
        write(
            &self
                .layout
                .custom()
                .join("acme-plugin/.claude-plugin/plugin.json"),
            b"{\"name\": \"acme\", \"version\": \"2.3.0\"}\n",
        )?;
        Ok(())
    }
}

/// Generate a corpus of `n` skills under `layout.base` (which must not exist yet).
pub fn generate(layout: &Layout, n: usize, seed: u64) -> io::Result<Summary> {
    generate_shaped(layout, n, seed, Shape::Mixed)
}

/// [`generate`] with the SKILL.md files of the given shape.
pub fn generate_shaped(layout: &Layout, n: usize, seed: u64, shape: Shape) -> io::Result<Summary> {
    if layout.base.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} already exists; remove it or pass --force",
                layout.base.display()
            ),
        ));
    }
    let mut rng = Rng::new(seed);
    let pool = text::body_pool(&mut rng);
    let mut gen = Gen {
        shape,
        rng,
        pool,
        layout,
        names: Vec::with_capacity(n),
        taken_names: HashSet::with_capacity(n),
        taken_dirs: HashSet::with_capacity(n),
        summary: Summary::default(),
    };
    gen.plugins_and_markers()?;
    // Noise scales with N but never drops below "thousands of files".
    let noise = (n / 4).max(2000);
    gen.git_noise(noise)?;
    gen.node_modules_noise(noise)?;
    let fixed = gen.summary.skill_files + 1; // node-tooling, and loop-skill below
    while gen.summary.skill_files + 1 < n.max(fixed) {
        gen.skill()?;
    }
    gen.hostile_entries()?;
    let summary = gen.summary;
    write_manifest(layout, n, seed, shape, &summary)?;
    Ok(summary)
}

fn write_manifest(
    layout: &Layout,
    n: usize,
    seed: u64,
    shape: Shape,
    s: &Summary,
) -> io::Result<()> {
    // Absolute paths, so every consumer (Node, Python, the CLI) can use them from any cwd.
    let layout = &Layout::new(std::fs::canonicalize(&layout.base)?);
    let touch = match &s.touch {
        Some(t) => Some(std::fs::canonicalize(t)?),
        None => None,
    };
    let path = |p: PathBuf| p.to_string_lossy().into_owned();
    let doc = json!({
        "generator_version": GENERATOR_VERSION,
        "n": n,
        "shape": shape.as_str(),
        "seed": seed,
        "base": path(layout.base.clone()),
        "repo": path(layout.repo()),
        "project": path(layout.project()),
        "home": path(layout.home()),
        "custom": path(layout.custom()),
        "roots": layout.universal_roots().into_iter().map(path).collect::<Vec<_>>(),
        "touch": touch.map(path),
        "skill_files": s.skill_files,
        "skill_md_bytes": s.skill_md_bytes,
        "broken": s.broken,
        "duplicate_names": s.duplicates,
        "symlinked_dirs": s.symlinked,
        "non_ascii": s.non_ascii,
        "crlf": s.crlf,
        "bom": s.bom,
        "needs_yaml_repair": s.needs_repair,
        "sibling_files": s.sibling_files,
        "noise_git_files": s.noise_git_files,
        "noise_node_modules_files": s.noise_node_modules_files,
        "node_modules_skill_files": s.node_modules_skill_files,
        "no_frontmatter": s.no_frontmatter,
        "flow_sequence": s.flow_sequence,
        "nested_metadata": s.nested_metadata,
        "block_scalar": s.block_scalar,
    });
    let text = serde_json::to_string_pretty(&doc).map_err(io::Error::other)?;
    std::fs::write(layout.manifest_path(), text + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree_listing(base: &Path) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        let mut stack = vec![base.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(ft) = entry.file_type() else { continue };
                if ft.is_dir() {
                    stack.push(path.clone());
                }
                let size = if ft.is_file() {
                    entry.metadata().map(|m| m.len()).unwrap_or(0)
                } else {
                    0
                };
                out.push((
                    path.strip_prefix(base)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .into_owned(),
                    size,
                ));
            }
        }
        out.sort();
        out
    }

    #[test]
    fn same_seed_same_tree_and_requested_count() {
        let tmp =
            std::env::temp_dir().join(format!("skilldeck-corpus-test-{}", std::process::id()));
        let a = Layout::new(tmp.join("a"));
        let b = Layout::new(tmp.join("b"));
        let sa = generate(&a, 60, 11).expect("generate a");
        let sb = generate(&b, 60, 11).expect("generate b");
        assert_eq!(sa.skill_files, 60);
        assert_eq!(sb.skill_files, 60);
        assert!(sa.touch.is_some());
        let la = tree_listing(&a.base);
        let lb = tree_listing(&b.base);
        assert_eq!(la, lb);
        assert!(la.iter().any(|(p, _)| p.contains("node_modules")));
        assert!(a.manifest_path().exists());
        assert!(generate(&a, 60, 11).is_err(), "refuses to overwrite");
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
