//! The I/O half of host settings: read the files the deck's profile names (`[settings]`)
//! into [`HostRules`], stamping each so the deck notices an edit. The filter stage only
//! consumes the result, so its status logic stays pure.

use super::SkillOverride;
use crate::cache::{Fingerprint, Stamp};
use crate::diagnostic::Diagnostic;
use crate::discover::profile::SettingsFormat;
use crate::discover::{roots, Inputs, Profile};
use crate::options::DeckOptions;
use crate::permissions::{Decision, PermissionRules, Rule, Semantics};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the host's own settings say, for the deck's profile.
#[derive(Clone, Debug, Default)]
pub struct HostRules {
    /// Permission rules from the host settings (empty when none).
    pub rules: PermissionRules,
    /// Claude Code `skillOverrides` by skill name.
    pub overrides: BTreeMap<String, (SkillOverride, PathBuf)>,
    /// OpenCode `skills.enabled` by skill name, with the file it came from.
    pub opencode_enabled: BTreeMap<String, (bool, PathBuf)>,
    /// Codex `[[skills.config]]` entries, with the file they came from.
    pub codex: Vec<(super::CodexSkillConfig, PathBuf)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every settings file looked for, stamped before it was read: the deck re-reads the
    /// settings when one of them changes.
    pub files: Fingerprint,
    /// The profile's default permission semantics (`permissions` in the profile).
    pub semantics: Semantics,
    /// `disabled: true` in a SKILL.md switches the skill off (the profile's
    /// `frontmatter_disabled`).
    pub frontmatter_disabled: bool,
}

impl HostRules {
    /// Read the settings files the profile names (`[settings]`), unless
    /// `options.read_host_settings` is off. Which files and which reader are profile data:
    /// nothing here names a host.
    pub fn read(options: &DeckOptions, profile: &Profile, inputs: &Inputs) -> HostRules {
        let mut host = HostRules {
            semantics: profile.permissions,
            frontmatter_disabled: profile.frontmatter_disabled,
            ..HostRules::default()
        };
        let Some(settings) = profile
            .settings
            .as_ref()
            .filter(|_| options.read_host_settings)
        else {
            return host;
        };
        let files: Vec<PathBuf> = settings
            .files
            .iter()
            .filter_map(|t| roots::expand_template(t, inputs, None).ok().flatten())
            .collect();
        match settings.format {
            SettingsFormat::Opencode => host.read_opencode(&files),
            SettingsFormat::ClaudeCode => host.read_claude(&files),
            SettingsFormat::Codex => host.read_codex(&files, inputs.home.as_deref()),
        }
        host
    }

    fn stamp(&mut self, path: &Path) {
        self.files.push(path.to_path_buf(), Stamp::read(path));
    }

    fn warn(&mut self, path: &Path, err: crate::Error) {
        let line = match &err {
            crate::Error::Parse { line, .. } => *line,
            _ => None,
        };
        let mut d = Diagnostic::warning("invalid-host-settings", err.to_string())
            .with_path(path)
            .with_hint("fix the file; its skill settings were ignored");
        if let Some(line) = line {
            d = d.at(line, None);
        }
        self.diagnostics.push(d);
    }

    fn note(&mut self, path: &Path, warnings: Vec<String>) {
        for w in warnings {
            self.diagnostics
                .push(Diagnostic::warning("host-settings-entry-ignored", w).with_path(path));
        }
    }

    fn read_opencode(&mut self, files: &[PathBuf]) {
        // OpenCode's built-in agent defaults allow every tool, skills included.
        self.rules = PermissionRules {
            semantics: Semantics::LastMatch,
            rules: Vec::new(),
            agents: BTreeMap::new(),
        };
        let mut any = false;
        for path in files {
            self.stamp(path);
            match super::read_opencode(path) {
                Ok(Some(s)) => {
                    any = true;
                    self.rules.extend(&s.permission);
                    for (name, on) in &s.skill_enabled {
                        self.opencode_enabled
                            .insert(name.clone(), (*on, path.clone()));
                    }
                    self.note(path, s.warnings);
                }
                Ok(None) => {}
                Err(e) => self.warn(path, e),
            }
        }
        if any && !self.rules.is_empty() {
            self.rules.rules.insert(0, Rule::new("*", Decision::Allow));
        }
    }

    fn read_claude(&mut self, files: &[PathBuf]) {
        let mut merged = super::ClaudeSettings::default();
        for path in files {
            self.stamp(path);
            match super::read_claude(path) {
                Ok(Some(mut s)) => {
                    let warnings = std::mem::take(&mut s.warnings);
                    self.note(path, warnings);
                    for (name, o) in &s.skill_overrides {
                        self.overrides.insert(name.clone(), (*o, path.clone()));
                    }
                    merged.merge(s);
                }
                Ok(None) => {}
                Err(e) => self.warn(path, e),
            }
        }
        self.rules = merged.permission_rules();
    }

    fn read_codex(&mut self, files: &[PathBuf], home: Option<&Path>) {
        let home = home.map(Path::to_path_buf).unwrap_or_default();
        for path in files {
            self.stamp(path);
            match super::read_codex(path, &home) {
                Ok(Some(s)) => {
                    self.note(path, s.warnings);
                    self.codex
                        .extend(s.skills.into_iter().map(|c| (c, path.clone())));
                }
                Ok(None) => {}
                Err(e) => self.warn(path, e),
            }
        }
    }
}
