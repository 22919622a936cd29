//! skills-ref 0.1.1 (the Agent Skills reference library) with its exact semantics:
//! the same files found, the same frontmatter accepted, the same validation messages in the
//! same order, and a byte-identical `to_prompt`. Bindings expose this as a drop-in
//! replacement (`skilldeck.compat.skills_ref` in Python).
//!
//! The engine's own parser and validator are deliberately more lenient (they load what hosts
//! load and repair common mistakes); this module answers "what would skills-ref say", which
//! needs skills-ref's StrictYAML reading (`compat::strict_yaml`) and its Python string
//! semantics (the private `pystr` module).

use super::pystr;
use super::strict_yaml;
use crate::catalog::{Catalog, Scope, Skill, SkillKind, Status};
use crate::manifest::Manifest;
use crate::render::{self, RenderFormat, RenderOptions};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Component, Path, PathBuf};
use unicode_normalization::UnicodeNormalization;

pub const MAX_SKILL_NAME_LENGTH: usize = 64;
pub const MAX_DESCRIPTION_LENGTH: usize = 1024;
pub const MAX_COMPATIBILITY_LENGTH: usize = 500;

/// Frontmatter keys the specification allows, sorted as Python's `sorted()` lists them.
pub const ALLOWED_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// skills-ref's exceptions: `ParseError`, `ValidationError`, plus the I/O and decoding
/// errors Python would raise from `read_text()`.
#[derive(Debug, thiserror::Error)]
pub enum CompatError {
    #[error("{0}")]
    Parse(String),
    #[error("{0}")]
    Validation(String),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is not UTF-8 (Python: `UnicodeDecodeError`, built from these fields).
    #[error("{}: 'utf-8' codec can't decode bytes in position {start}-{}: {reason}", path.display(), end - 1)]
    Decode {
        path: PathBuf,
        /// The file's bytes, as `UnicodeDecodeError.object` holds them.
        bytes: Vec<u8>,
        start: usize,
        end: usize,
        /// CPython's wording: `invalid start byte`, `invalid continuation byte` or
        /// `unexpected end of data`.
        reason: &'static str,
    },
}

/// `SkillProperties` as `read_properties` builds it. Optional fields hold whatever the
/// frontmatter had (a string, or a list/mapping StrictYAML returned), like the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillProperties {
    pub name: String,
    pub description: String,
    pub license: Option<Value>,
    pub compatibility: Option<Value>,
    pub allowed_tools: Option<Value>,
    pub metadata: Option<Value>,
}

/// `find_skill_md`: `SKILL.md`, else `skill.md`, else `None`.
pub fn find_skill_md(skill_dir: &Path) -> Option<PathBuf> {
    ["SKILL.md", "skill.md"]
        .iter()
        .map(|name| skill_dir.join(name))
        .find(|path| path.exists())
}

/// `Path.read_text(encoding="utf-8")`: strict UTF-8 and universal newlines.
fn read_text(path: &Path) -> Result<String, CompatError> {
    let bytes = std::fs::read(path).map_err(|source| CompatError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let error = e.utf8_error();
        let start = error.valid_up_to();
        let bytes = e.into_bytes();
        let lead = bytes.get(start).copied().unwrap_or(0);
        let (end, reason) = match error.error_len() {
            None => (bytes.len(), "unexpected end of data"),
            // A continuation byte or a byte that can never start a sequence.
            Some(_) if (0x80..0xc2).contains(&lead) || lead > 0xf4 => {
                (start + 1, "invalid start byte")
            }
            Some(len) => (start + len, "invalid continuation byte"),
        };
        CompatError::Decode {
            path: path.to_path_buf(),
            bytes,
            start,
            end,
            reason,
        }
    })?;
    Ok(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// `parse_frontmatter`: the frontmatter mapping (scalars as strings, `metadata` values
/// stringified) and the stripped body.
pub fn parse_frontmatter(content: &str) -> Result<(Map<String, Value>, String), CompatError> {
    let Some(rest) = content.strip_prefix("---") else {
        return Err(CompatError::Parse(
            "SKILL.md must start with YAML frontmatter (---)".into(),
        ));
    };
    // Python's `content.split("---", 2)`: the fences are found anywhere, not per line.
    let Some((frontmatter, body)) = rest.split_once("---") else {
        return Err(CompatError::Parse(
            "SKILL.md frontmatter not properly closed with ---".into(),
        ));
    };
    let data = strict_yaml::load(frontmatter)
        .map_err(|e| CompatError::Parse(format!("Invalid YAML in frontmatter: {e}")))?;
    let Value::Object(mut metadata) = data else {
        return Err(CompatError::Parse(
            "SKILL.md frontmatter must be a YAML mapping".into(),
        ));
    };
    if let Some(Value::Object(inner)) = metadata.get_mut("metadata") {
        let stringified: Map<String, Value> = inner
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(pystr::str_of(v))))
            .collect();
        *inner = stringified;
    }
    Ok((metadata, pystr::strip(body).to_string()))
}

/// A field that must be a non-blank string (Python: `isinstance(v, str) and v.strip()`).
fn non_blank(value: &Value) -> Option<&str> {
    value.as_str().filter(|s| !pystr::strip(s).is_empty())
}

/// `read_properties`: parse without full validation; only a missing or blank `name` /
/// `description` is an error.
pub fn read_properties(skill_dir: &Path) -> Result<SkillProperties, CompatError> {
    let Some(skill_md) = find_skill_md(skill_dir) else {
        return Err(CompatError::Parse(format!(
            "SKILL.md not found in {}",
            skill_dir.display()
        )));
    };
    let (mut metadata, _) = parse_frontmatter(&read_text(&skill_md)?)?;
    for field in ["name", "description"] {
        if !metadata.contains_key(field) {
            return Err(CompatError::Validation(format!(
                "Missing required field in frontmatter: {field}"
            )));
        }
    }
    let required = |field: &str| -> Result<String, CompatError> {
        metadata
            .get(field)
            .and_then(non_blank)
            .map(|s| pystr::strip(s).to_string())
            .ok_or_else(|| {
                CompatError::Validation(format!("Field '{field}' must be a non-empty string"))
            })
    };
    let name = required("name")?;
    let description = required("description")?;
    Ok(SkillProperties {
        name,
        description,
        license: metadata.remove("license"),
        compatibility: metadata.remove("compatibility"),
        allowed_tools: metadata.remove("allowed-tools"),
        metadata: metadata.remove("metadata"),
    })
}

/// `Path.name`: the final component, `""` for `/` or `.`.
fn path_name(path: &Path) -> String {
    match path.components().next_back() {
        Some(Component::Normal(name)) => name.to_string_lossy().into_owned(),
        Some(Component::ParentDir) => "..".to_string(),
        _ => String::new(),
    }
}

fn validate_name(value: &Value, skill_dir: Option<&Path>) -> Vec<String> {
    let Some(raw) = non_blank(value) else {
        return vec!["Field 'name' must be a non-empty string".into()];
    };
    let name: String = pystr::strip(raw).nfkc().collect();
    let mut errors = Vec::new();
    let length = pystr::len(&name);
    if length > MAX_SKILL_NAME_LENGTH {
        errors.push(format!(
            "Skill name '{name}' exceeds {MAX_SKILL_NAME_LENGTH} character limit ({length} chars)"
        ));
    }
    if name != name.to_lowercase() {
        errors.push(format!("Skill name '{name}' must be lowercase"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        errors.push("Skill name cannot start or end with a hyphen".into());
    }
    if name.contains("--") {
        errors.push("Skill name cannot contain consecutive hyphens".into());
    }
    if !name.chars().all(|c| pystr::is_alnum(c) || c == '-') {
        errors.push(format!(
            "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
        ));
    }
    if let Some(dir) = skill_dir {
        let dir_name = path_name(dir);
        let normalized: String = dir_name.nfkc().collect();
        if normalized != name {
            errors.push(format!(
                "Directory name '{dir_name}' must match skill name '{name}'"
            ));
        }
    }
    errors
}

fn validate_description(value: &Value) -> Vec<String> {
    let Some(description) = non_blank(value) else {
        return vec!["Field 'description' must be a non-empty string".into()];
    };
    let length = pystr::len(description);
    if length > MAX_DESCRIPTION_LENGTH {
        return vec![format!(
            "Description exceeds {MAX_DESCRIPTION_LENGTH} character limit ({length} chars)"
        )];
    }
    Vec::new()
}

fn validate_compatibility(value: &Value) -> Vec<String> {
    let Some(compatibility) = value.as_str() else {
        return vec!["Field 'compatibility' must be a string".into()];
    };
    let length = pystr::len(compatibility);
    if length > MAX_COMPATIBILITY_LENGTH {
        return vec![format!(
            "Compatibility exceeds {MAX_COMPATIBILITY_LENGTH} character limit ({length} chars)"
        )];
    }
    Vec::new()
}

/// `validate_metadata`: every problem in parsed frontmatter, in skills-ref's order.
/// `skill_dir` enables the name/directory match check.
pub fn validate_metadata(metadata: &Map<String, Value>, skill_dir: Option<&Path>) -> Vec<String> {
    let mut errors = Vec::new();
    let mut extra: Vec<&str> = metadata
        .keys()
        .map(String::as_str)
        .filter(|k| !ALLOWED_FIELDS.contains(k))
        .collect();
    if !extra.is_empty() {
        extra.sort_unstable();
        let allowed: Vec<String> = ALLOWED_FIELDS.iter().map(|f| pystr::repr_str(f)).collect();
        errors.push(format!(
            "Unexpected fields in frontmatter: {}. Only [{}] are allowed.",
            extra.join(", "),
            allowed.join(", ")
        ));
    }
    match metadata.get("name") {
        None => errors.push("Missing required field in frontmatter: name".into()),
        Some(name) => errors.extend(validate_name(name, skill_dir)),
    }
    match metadata.get("description") {
        None => errors.push("Missing required field in frontmatter: description".into()),
        Some(description) => errors.extend(validate_description(description)),
    }
    if let Some(compatibility) = metadata.get("compatibility") {
        errors.extend(validate_compatibility(compatibility));
    }
    errors
}

/// `validate`: the list of problems with a skill directory (empty: valid). Only a file
/// that cannot be read or decoded is an `Err`, as in the reference, where that raises.
pub fn validate(skill_dir: &Path) -> Result<Vec<String>, CompatError> {
    if !skill_dir.exists() {
        return Ok(vec![format!(
            "Path does not exist: {}",
            skill_dir.display()
        )]);
    }
    if !skill_dir.is_dir() {
        return Ok(vec![format!("Not a directory: {}", skill_dir.display())]);
    }
    let Some(skill_md) = find_skill_md(skill_dir) else {
        return Ok(vec!["Missing required file: SKILL.md".into()]);
    };
    let content = read_text(&skill_md)?;
    match parse_frontmatter(&content) {
        Ok((metadata, _)) => Ok(validate_metadata(&metadata, Some(skill_dir))),
        Err(CompatError::Parse(message)) => Ok(vec![message]),
        Err(other) => Err(other),
    }
}

/// `Path.resolve()` (non-strict): the real path when it exists, else the absolute path.
fn resolve(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// `to_prompt`: the `<available_skills>` block for these skill directories, byte for byte
/// as skills-ref 0.1.1 prints it (the engine's `skills-ref` render format over one skill per
/// directory, in the order given). Fails like `read_properties` on the first bad skill.
pub fn to_prompt<P: AsRef<Path>>(skill_dirs: &[P]) -> Result<String, CompatError> {
    let mut skills = Vec::with_capacity(skill_dirs.len());
    for dir in skill_dirs {
        let dir = resolve(dir.as_ref());
        let props = read_properties(&dir)?;
        let location = find_skill_md(&dir).unwrap_or_else(|| dir.join("SKILL.md"));
        skills.push(std::sync::Arc::new(Skill {
            id: props.name.clone().into(),
            name: props.name.into(),
            location: location.into(),
            base_dir: dir.clone().into(),
            scope: Scope::Extra,
            source: dir.into(),
            plugin: None,
            kind: SkillKind::Skill,
            manifest: std::sync::Arc::new(Manifest {
                description: Some(props.description),
                ..Manifest::default()
            }),
            diagnostics: crate::Diagnostic::shared(Vec::new()),
            status: Status::default(),
        }));
    }
    let catalog = Catalog {
        profile: "skills-ref".to_string(),
        skills,
        ..Catalog::default()
    };
    let options = RenderOptions {
        format: RenderFormat::SkillsRef,
        ..RenderOptions::default()
    };
    // Without a budget the renderer has no failure mode; keep the error typed all the same.
    render::render(&catalog, &options)
        .map(|rendered| rendered.text)
        .map_err(|e| CompatError::Parse(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn skill(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("SKILL.md"), text).unwrap();
        path
    }

    #[test]
    fn frontmatter_split_and_errors() {
        let (meta, body) = parse_frontmatter("---\nname: a\n---\n\n# A\n").unwrap();
        assert_eq!(Value::Object(meta), json!({"name": "a"}));
        assert_eq!(body, "# A");
        for (text, wanted) in [
            ("# x", "must start with YAML frontmatter"),
            ("---\nname: a\n", "not properly closed"),
            ("---\nname: [a\n---\n", "Invalid YAML"),
            ("---\n- a\n---\n", "must be a YAML mapping"),
            ("---\n---\n", "must be a YAML mapping"),
        ] {
            let err = parse_frontmatter(text).unwrap_err().to_string();
            assert!(err.contains(wanted), "{text:?}: {err}");
        }
    }

    #[test]
    fn metadata_values_are_stringified() {
        let (meta, _) = parse_frontmatter("---\nmetadata:\n  v: 1.0\n  l:\n  - a\n---\n").unwrap();
        assert_eq!(meta["metadata"], json!({"v": "1.0", "l": "['a']"}));
    }

    #[test]
    fn validation_messages_in_reference_order() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = skill(
            tmp.path(),
            "Bad--Name",
            "---\nname: Bad--Name\ndescription: d\nzeta: 1\nalpha: 2\n---\n",
        );
        let errors = validate(&dir).unwrap();
        assert_eq!(
            errors,
            vec![
                "Unexpected fields in frontmatter: alpha, zeta. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.".to_string(),
                "Skill name 'Bad--Name' must be lowercase".to_string(),
                "Skill name cannot contain consecutive hyphens".to_string(),
            ]
        );
    }

    #[test]
    fn nfkc_names_match_directories() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = skill(
            tmp.path(),
            "caf\u{e9}",
            "---\nname: cafe\u{301}\ndescription: d\n---\n",
        );
        assert_eq!(validate(&dir).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn missing_paths_and_files() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("nope");
        assert_eq!(
            validate(&missing).unwrap(),
            vec![format!("Path does not exist: {}", missing.display())]
        );
        assert_eq!(
            validate(tmp.path()).unwrap(),
            vec!["Missing required file: SKILL.md".to_string()]
        );
        assert!(matches!(
            read_properties(tmp.path()),
            Err(CompatError::Parse(m)) if m.starts_with("SKILL.md not found in ")
        ));
    }

    #[test]
    fn properties_keep_raw_optional_values() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = skill(
            tmp.path(),
            "a",
            "---\nname: ' a '\ndescription: d\nallowed-tools: Bash(git:*) Read\n---\n",
        );
        let props = read_properties(&dir).unwrap();
        assert_eq!(props.name, "a");
        assert_eq!(props.allowed_tools, Some(json!("Bash(git:*) Read")));
        assert_eq!(props.metadata, None);
    }

    #[test]
    fn prompt_is_byte_identical() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = skill(
            tmp.path(),
            "x",
            "---\nname: x\ndescription: Use <a> & 'b'\n---\n",
        );
        let real = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(
            to_prompt(&[&dir]).unwrap(),
            format!(
                "<available_skills>\n<skill>\n<name>\nx\n</name>\n<description>\nUse &lt;a&gt; &amp; &#x27;b&#x27;\n</description>\n<location>\n{}\n</location>\n</skill>\n</available_skills>",
                real.join("SKILL.md").display()
            )
        );
        assert_eq!(
            to_prompt::<&Path>(&[]).unwrap(),
            "<available_skills>\n</available_skills>"
        );
    }
}
