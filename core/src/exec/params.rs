//! A command skill's `parameters` as a JSON Schema object, and the caller's input read as
//! the JSON object the skill receives on standard input.
//!
//! The schema is validated by the runner with a JSON Schema validator; it is also the input
//! schema of the skill's tool definition, so the model and the runner agree on one contract.

use crate::manifest::Parameter;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Why the caller's input is not a JSON object.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The text is not JSON at all.
    #[error(
        "the input is not valid JSON ({0}); pass one JSON object, e.g. {{\"path\": \"a.txt\"}}"
    )]
    Syntax(String),
    /// Valid JSON, but not an object.
    #[error(
        "the input is JSON {0}, not an object; pass one JSON object, e.g. {{\"path\": \"a.txt\"}}"
    )]
    NotAnObject(&'static str),
}

/// JSON Schema type names for the `type` values written in the wild (`int`, `float`,
/// `bool`, `str`, `list`, `dict`). An unknown type constrains nothing rather than refusing
/// every input: the manifest validator is where a bad `type` is reported.
fn schema_type(kind: &str) -> Option<&'static str> {
    Some(match kind.trim().to_ascii_lowercase().as_str() {
        "string" | "str" | "text" => "string",
        "number" | "float" | "double" | "decimal" => "number",
        "integer" | "int" => "integer",
        "boolean" | "bool" => "boolean",
        "array" | "list" => "array",
        "object" | "dict" | "map" => "object",
        "null" => "null",
        _ => return None,
    })
}

/// The JSON Schema (draft 2020-12 subset) of an input object for `parameters`: one
/// property per parameter with its `type`, `description`, `enum` and `default`, the
/// required ones listed in `required`, and no other property allowed (a misspelt
/// parameter is refused instead of silently ignored).
pub fn parameters_schema(parameters: &[Parameter]) -> Value {
    parameters_schema_with(parameters, &BTreeMap::new())
}

/// [`parameters_schema`] plus each parameter's own JSON Schema keywords (`minimum`,
/// `pattern`, ... from [`super::parameter_keywords`]).
pub fn parameters_schema_with(
    parameters: &[Parameter],
    keywords: &BTreeMap<String, Map<String, Value>>,
) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in parameters {
        let mut prop = Map::new();
        if let Some(kind) = p.kind.as_deref().and_then(schema_type) {
            prop.insert("type".into(), json!(kind));
        }
        if let Some(description) = &p.description {
            prop.insert("description".into(), json!(description));
        }
        if !p.enum_values.is_empty() {
            prop.insert("enum".into(), Value::Array(p.enum_values.clone()));
        }
        if let Some(default) = &p.default {
            prop.insert("default".into(), default.clone());
        }
        if let Some(extra) = keywords.get(&p.name) {
            for (key, value) in extra {
                prop.insert(key.clone(), value.clone());
            }
        }
        if p.required {
            required.push(json!(p.name));
        }
        properties.insert(p.name.clone(), Value::Object(prop));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The input schema of a command skill: its `parameters` with their JSON Schema keywords,
/// read from its SKILL.md (without keywords when the file cannot be read now).
pub fn skill_input_schema(skill: &crate::catalog::Skill) -> Value {
    let keywords = std::fs::read_to_string(&skill.location)
        .map(|text| super::parameter_keywords(&text))
        .unwrap_or_default();
    parameters_schema_with(&skill.manifest.tool.parameters, &keywords)
}

/// Read the caller's input text as one JSON object (empty text is `{}`).
pub fn parse_input(text: &str) -> Result<Map<String, Value>, InputError> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(InputError::NotAnObject(json_kind(&other))),
        Err(err) => Err(InputError::Syntax(err.to_string())),
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Fill in the declared `default` of every parameter the input leaves out, so the skill
/// receives the values its manifest promises.
pub fn apply_defaults(parameters: &[Parameter], input: &mut Map<String, Value>) {
    for p in parameters {
        if let Some(default) = &p.default {
            if !input.contains_key(&p.name) {
                input.insert(p.name.clone(), default.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, kind: &str, required: bool) -> Parameter {
        Parameter {
            name: name.into(),
            kind: Some(kind.into()),
            required,
            ..Parameter::default()
        }
    }

    #[test]
    fn schema_lists_types_required_enum_and_default() {
        let mut mode = param("mode", "str", false);
        mode.enum_values = vec![json!("fast"), json!("slow")];
        mode.default = Some(json!("fast"));
        let schema = parameters_schema(&[param("count", "int", true), mode]);
        assert_eq!(schema["properties"]["count"]["type"], "integer");
        assert_eq!(schema["properties"]["mode"]["type"], "string");
        assert_eq!(
            schema["properties"]["mode"]["enum"],
            json!(["fast", "slow"])
        );
        assert_eq!(schema["required"], json!(["count"]));
        assert_eq!(schema["additionalProperties"], false);
    }

    #[test]
    fn an_unknown_type_constrains_nothing() {
        let schema = parameters_schema(&[param("x", "frobnicator", false)]);
        assert_eq!(schema["properties"]["x"], json!({}));
    }

    #[test]
    fn input_must_be_an_object() {
        assert_eq!(parse_input("").map(|m| m.len()), Ok(0));
        assert!(matches!(parse_input("{"), Err(InputError::Syntax(_))));
        assert_eq!(parse_input("[1]"), Err(InputError::NotAnObject("array")));
        assert_eq!(parse_input(r#"{"a":1}"#).map(|m| m.len()), Ok(1));
    }

    #[test]
    fn defaults_fill_only_missing_keys() {
        let mut p = param("n", "int", false);
        p.default = Some(json!(3));
        let mut input = Map::new();
        apply_defaults(std::slice::from_ref(&p), &mut input);
        assert_eq!(input["n"], 3);
        input.insert("n".into(), json!(5));
        apply_defaults(&[p], &mut input);
        assert_eq!(input["n"], 5);
    }
}
