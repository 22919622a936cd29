//! `os`, `requires.bins` and `requires.env` checked against an environment, each unmet one
//! named with the `install` hints that apply to this operating system.

use crate::manifest::{InstallSpec, ToolFields};
use serde::{Deserialize, Serialize};
use std::ffi::{OsStr, OsString};

/// What kind of requirement is unmet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingKind {
    /// The skill does not support this operating system.
    Os,
    /// A program is not on `PATH`.
    Bin,
    /// An environment variable is unset or empty.
    Env,
}

/// One unmet requirement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missing {
    pub kind: MissingKind,
    /// The program, variable, or the supported systems (`linux, macos`).
    pub name: String,
    /// What is wrong, for a person.
    pub message: String,
    /// The `install` entries that apply to this system (for a program: those naming it,
    /// else every one for this system).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub install: Vec<InstallSpec>,
    /// The install commands, one per entry of `install` (`brew install gh`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
}

/// Check `tool`'s `os` and `requires` with `path` as `PATH` and `env` reading variables.
/// Empty when everything is met.
pub fn check_requirements(
    tool: &ToolFields,
    path: Option<&OsStr>,
    env: impl Fn(&str) -> Option<OsString>,
) -> Vec<Missing> {
    let mut missing = Vec::new();
    if !tool.os.is_empty() && !tool.os.iter().any(|o| crate::filter::os_matches(o)) {
        missing.push(Missing {
            kind: MissingKind::Os,
            name: tool.os.join(", "),
            message: format!(
                "the skill runs on {} only (this is {})",
                tool.os.join(", "),
                std::env::consts::OS
            ),
            install: Vec::new(),
            hints: Vec::new(),
        });
    }
    let Some(requires) = &tool.requires else {
        return missing;
    };
    let local: Vec<&InstallSpec> = tool
        .install
        .iter()
        .filter(|spec| spec.os.is_empty() || spec.os.iter().any(|o| crate::filter::os_matches(o)))
        .collect();
    for bin in &requires.bins {
        if crate::filter::on_path(bin, path.unwrap_or_default()) {
            continue;
        }
        let naming: Vec<&InstallSpec> = local
            .iter()
            .copied()
            .filter(|spec| names(spec, bin))
            .collect();
        let specs = if naming.is_empty() {
            local.clone()
        } else {
            naming
        };
        missing.push(with_hints(
            MissingKind::Bin,
            bin,
            format!("`{bin}` is not on PATH"),
            specs,
        ));
    }
    for var in &requires.env {
        if matches!(env(var), Some(v) if !v.is_empty()) {
            continue;
        }
        missing.push(with_hints(
            MissingKind::Env,
            var,
            format!("environment variable `{var}` is not set; set it before running the skill"),
            Vec::new(),
        ));
    }
    missing
}

fn names(spec: &InstallSpec, bin: &str) -> bool {
    [&spec.id, &spec.package, &spec.formula]
        .into_iter()
        .flatten()
        .any(|name| name == bin || name.rsplit('/').next() == Some(bin))
}

fn with_hints(kind: MissingKind, name: &str, message: String, specs: Vec<&InstallSpec>) -> Missing {
    Missing {
        kind,
        name: name.to_string(),
        message,
        hints: specs.iter().filter_map(|s| install_hint(s)).collect(),
        install: specs.into_iter().cloned().collect(),
    }
}

/// The command an `install` entry stands for (`brew install gh`), else its `label`.
pub fn install_hint(spec: &InstallSpec) -> Option<String> {
    let package = spec
        .formula
        .as_ref()
        .or(spec.package.as_ref())
        .or(spec.id.as_ref());
    let command = match (spec.kind.as_deref(), package) {
        (Some("brew"), Some(p)) => Some(format!("brew install {p}")),
        (Some("apt" | "apt-get"), Some(p)) => Some(format!("apt-get install {p}")),
        (Some("dnf" | "yum"), Some(p)) => Some(format!("dnf install {p}")),
        (Some("npm" | "node"), Some(p)) => Some(format!("npm install -g {p}")),
        (Some("pip" | "pipx" | "uv" | "python"), Some(p)) => Some(format!("pipx install {p}")),
        (Some("go"), Some(p)) => Some(format!("go install {p}@latest")),
        (Some("cargo"), Some(p)) => Some(format!("cargo install {p}")),
        (Some("winget"), Some(p)) => Some(format!("winget install {p}")),
        (Some("choco"), Some(p)) => Some(format!("choco install {p}")),
        _ => None,
    };
    match (command, &spec.label) {
        (Some(command), Some(label)) => Some(format!("{command} ({label})")),
        (Some(command), None) => Some(command),
        (None, label) => label.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::Requirements;

    fn tool() -> ToolFields {
        ToolFields {
            requires: Some(Requirements {
                bins: vec!["sh".into(), "no-such-tool-xyz".into()],
                env: vec!["SKILLDECK_TEST_TOKEN".into()],
            }),
            install: vec![
                InstallSpec {
                    kind: Some("brew".into()),
                    formula: Some("no-such-tool-xyz".into()),
                    ..Default::default()
                },
                InstallSpec {
                    kind: Some("apt".into()),
                    package: Some("other".into()),
                    os: vec!["no-such-os".into()],
                    ..Default::default()
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn names_each_missing_bin_and_env_with_hints_for_this_os() {
        let path = std::env::var_os("PATH");
        let missing = check_requirements(&tool(), path.as_deref(), |_| None);
        assert_eq!(missing.len(), 2, "{missing:?}");
        assert_eq!(missing[0].kind, MissingKind::Bin);
        assert_eq!(missing[0].name, "no-such-tool-xyz");
        assert_eq!(missing[0].hints, ["brew install no-such-tool-xyz"]);
        assert_eq!(missing[1].kind, MissingKind::Env);
        assert_eq!(missing[1].name, "SKILLDECK_TEST_TOKEN");
    }

    #[test]
    fn a_set_variable_and_a_supported_os_are_met() {
        let mut t = tool();
        t.requires = Some(Requirements {
            bins: vec![],
            env: vec!["X".into()],
        });
        t.os = vec![std::env::consts::OS.into()];
        assert!(check_requirements(&t, None, |_| Some("1".into())).is_empty());
        t.os = vec!["no-such-os".into()];
        let missing = check_requirements(&t, None, |_| Some("1".into()));
        assert_eq!(missing[0].kind, MissingKind::Os);
    }
}
