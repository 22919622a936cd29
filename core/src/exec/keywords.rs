//! The JSON Schema keywords a parameter carries beyond `type`, `description`, `required`,
//! `default` and `enum` (`minimum`, `pattern`, `items`, ...). The typed manifest keeps only
//! those five, so the keywords are read from the frontmatter itself when a schema is built.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Keywords passed through to the parameter's schema. `required` is not among them: on a
/// parameter it is the boolean that puts it in the object's `required` list.
const KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "properties",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "title",
    "examples",
];

/// Per parameter name, its extra JSON Schema keywords, from a SKILL.md's text. Empty when
/// the frontmatter does not parse (the catalog reports that) or has no `parameters`.
pub fn parameter_keywords(text: &str) -> BTreeMap<String, Map<String, Value>> {
    let split = crate::parse::frontmatter::split(text);
    if split.fences != crate::parse::frontmatter::Fences::Closed {
        return BTreeMap::new();
    }
    let Ok(crate::parse::yaml::Loaded::Mapping(entries)) = crate::parse::yaml::load(&split.yaml)
    else {
        return BTreeMap::new();
    };
    let Some(parameters) = entries.into_iter().find(|e| e.key == "parameters") else {
        return BTreeMap::new();
    };
    let specs: Vec<(String, Map<String, Value>)> = match parameters.value {
        Value::Object(map) => map
            .into_iter()
            .filter_map(|(name, spec)| match spec {
                Value::Object(spec) => Some((name, spec)),
                _ => None,
            })
            .collect(),
        Value::Array(items) => items
            .into_iter()
            .filter_map(|item| match item {
                Value::Object(spec) => {
                    let name = spec.get("name")?.as_str()?.to_string();
                    Some((name, spec))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    specs
        .into_iter()
        .map(|(name, spec)| {
            let kept: Map<String, Value> = spec
                .into_iter()
                .filter(|(key, _)| KEYWORDS.contains(&key.as_str()))
                .collect();
            (name, kept)
        })
        .filter(|(_, kept)| !kept.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_schema_keywords_of_both_forms() {
        let text = "---\nname: x\ndescription: d\nparameters:\n  n: {type: integer, minimum: 1, maximum: 9, required: true, colour: red}\n  s: string\n---\n";
        let kw = parameter_keywords(text);
        assert_eq!(kw.len(), 1);
        assert_eq!(
            kw["n"],
            *json!({"minimum": 1, "maximum": 9})
                .as_object()
                .expect("obj")
        );
        let list = "---\nparameters:\n  - {name: p, type: string, pattern: '^a'}\n---\n";
        assert_eq!(parameter_keywords(list)["p"]["pattern"], "^a");
        assert!(parameter_keywords("no frontmatter").is_empty());
    }
}
