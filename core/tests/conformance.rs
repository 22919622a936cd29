//! Runs every conformance vector in `tests/vectors` through the Rust API (format: tests/README.md).
//! One libtest trial per vector, so `cargo test` names each failing case.

mod common;

use common::listing;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Map, Value};
use skilldeck::{
    ActivateOptions, Deck, DeckOptions, PermissionRules, RenderOptions, SearchOptions,
    ValidateOptions,
};
use std::path::{Path, PathBuf};

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn find_cases(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.join("case.json").is_file() {
            out.push(path);
        } else if path.is_dir() {
            find_cases(&path, out);
        }
    }
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

fn apply_setup(tree: &Path, setup: &Value) -> Result<(), String> {
    for dir in setup["mkdir"].as_array().into_iter().flatten() {
        let dir = dir.as_str().ok_or("setup.mkdir entries are strings")?;
        std::fs::create_dir_all(tree.join(dir)).map_err(|e| e.to_string())?;
    }
    for link in setup["symlinks"].as_array().into_iter().flatten() {
        let at = tree.join(link["link"].as_str().ok_or("symlink.link")?);
        let target = link["target"].as_str().ok_or("symlink.target")?;
        if let Some(parent) = at.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::os::unix::fs::symlink(target, &at).map_err(|e| format!("{}: {e}", at.display()))?;
    }
    Ok(())
}

fn resolve(tree: &Path, value: Option<&Value>, default: &str) -> Value {
    let rel = value.and_then(Value::as_str).unwrap_or(default);
    Value::String(tree.join(rel).to_string_lossy().into_owned())
}

/// `input.deck` as `DeckOptions`. The outer error is a broken vector; the inner one is the
/// engine refusing the options (a rules document it does not read), which is the vector's
/// expected `{"error": ...}` result.
fn deck_options(tree: &Path, deck: &Value) -> Result<skilldeck::Result<DeckOptions>, String> {
    let tree_str = tree.to_string_lossy();
    let mut obj = deck.as_object().cloned().unwrap_or_default();
    let rules = match obj.remove("rules") {
        None | Some(Value::Null) => None,
        Some(value) => match PermissionRules::from_value(&value) {
            Ok(rules) => Some(rules),
            Err(e) => return Ok(Err(e)),
        },
    };
    obj.insert(
        "project_dir".into(),
        resolve(tree, deck.get("project_dir"), "project"),
    );
    obj.insert(
        "home_dir".into(),
        resolve(tree, deck.get("home_dir"), "home"),
    );
    obj.insert(
        "system_root".into(),
        resolve(tree, deck.get("system_root"), "."),
    );
    let env: Map<String, Value> = deck["env"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let v = v.as_str().unwrap_or_default().replace("<tree>", &tree_str);
            (k.clone(), Value::String(v))
        })
        .collect();
    obj.insert("env".into(), Value::Object(env));
    if let Some(roots) = deck["roots"].as_array() {
        let roots: Vec<Value> = roots
            .iter()
            .map(|r| {
                let mut r = r.as_object().cloned().unwrap_or_default();
                let path = resolve(tree, r.get("path"), ".");
                r.insert("path".into(), path);
                Value::Object(r)
            })
            .collect();
        obj.insert("roots".into(), Value::Array(roots));
    }
    let mut options: DeckOptions =
        serde_json::from_value(Value::Object(obj)).map_err(|e| format!("bad input.deck: {e}"))?;
    options.rules = rules;
    Ok(Ok(options))
}

fn error_json(err: skilldeck::Error) -> Value {
    json!({"error": {"code": err.code(), "message": err.to_string()}})
}

fn to_json<T: serde::Serialize>(result: skilldeck::Result<T>) -> Value {
    match result {
        Ok(v) => serde_json::to_value(v).unwrap_or(Value::Null),
        Err(e) => error_json(e),
    }
}

fn apply_changes(tree: &Path, changes: &Value) -> Result<(), String> {
    for change in changes.as_array().into_iter().flatten() {
        if let Some(rel) = change["write"].as_str() {
            let path = tree.join(rel);
            let previous = std::fs::metadata(&path)
                .ok()
                .and_then(|m| m.modified().ok());
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            std::fs::write(&path, change["text"].as_str().unwrap_or_default())
                .map_err(|e| e.to_string())?;
            let base = previous.unwrap_or_else(std::time::SystemTime::now);
            let bumped =
                filetime::FileTime::from_system_time(base + std::time::Duration::from_secs(2));
            filetime::set_file_mtime(&path, bumped).map_err(|e| e.to_string())?;
        } else if let Some(rel) = change["remove"].as_str() {
            let path = tree.join(rel);
            let result = if path.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            result.map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn run_operation(tree: &Path, case: &Value) -> Result<Value, String> {
    let input = &case["input"];
    let op = case["operation"].as_str().ok_or("missing operation")?;
    Ok(match op {
        "parse" => to_json(Ok(skilldeck::parse(
            input["text"].as_str().unwrap_or_default(),
        ))),
        "validate" => {
            let path = tree.join(input["path"].as_str().unwrap_or("."));
            let options = ValidateOptions {
                strict: input["strict"].as_bool().unwrap_or(false),
            };
            to_json(Ok(skilldeck::validate(&path, &options)))
        }
        "discover" => {
            let options = match deck_options(tree, &input["deck"])? {
                Ok(options) => options,
                Err(e) => return Ok(error_json(e)),
            };
            // The one-shot load (what the CLI runs) must give exactly the same catalog.
            let once = Deck::new(options.clone()).and_then(|d| d.load_once());
            let summary = Deck::new(options.clone()).and_then(|d| d.load_summary());
            let loaded = Deck::new(options).and_then(|d| d.load());
            if let (Ok(once), Ok(loaded)) = (&once, &loaded) {
                if once != loaded {
                    return Err(format!(
                        "load_once() differs from load():\n{}\nvs\n{}",
                        once.to_json(),
                        loaded.to_json()
                    ));
                }
            }
            if let (Ok(once), Ok(summary)) = (&once, &summary) {
                let (a, b) = (listing(once), listing(summary));
                if a != b {
                    return Err(format!(
                        "load_summary() lists differently from load_once():\n{a:#}\nvs\n{b:#}"
                    ));
                }
            }
            to_json(loaded.map(|c| (*c).clone()))
        }
        "reload" => {
            let deck = deck_options(tree, &input["deck"])?
                .and_then(Deck::new)
                .map_err(|e| e.to_string())?;
            if let Err(e) = deck.load() {
                return Ok(error_json(e));
            }
            apply_changes(tree, &input["changes"])?;
            to_json(deck.reload())
        }
        "permissions" => {
            // Through the public reader, so a rules document it refuses is the vector's
            // `{"error": {"code": ...}}`, as in every binding.
            let rules = match PermissionRules::from_value(&input["rules"]) {
                Ok(rules) => rules,
                Err(e) => return Ok(error_json(e)),
            };
            let agent = input["agent"].as_str();
            let mut decisions = Map::new();
            for id in input["ids"].as_array().into_iter().flatten() {
                let id = id.as_str().unwrap_or_default();
                let decision = rules.evaluate(id, agent).decision;
                decisions.insert(
                    id.to_string(),
                    serde_json::to_value(decision).unwrap_or_default(),
                );
            }
            json!({"decisions": decisions, "tool_disabled": rules.tool_disabled(agent)})
        }
        "render" => {
            let options: RenderOptions = serde_json::from_value(input["render"].clone())
                .map_err(|e| format!("bad input.render: {e}"))?;
            let deck = deck_options(tree, &input["deck"])?.and_then(Deck::new);
            to_json(deck.and_then(|d| d.render(&options)))
        }
        "search" => {
            let options: SearchOptions = serde_json::from_value(input["search"].clone())
                .map_err(|e| format!("bad input.search: {e}"))?;
            let deck = deck_options(tree, &input["deck"])?.and_then(Deck::new);
            to_json(deck.and_then(|d| d.search(&options)))
        }
        "activate" => {
            let options: ActivateOptions = serde_json::from_value(input["activate"].clone())
                .map_err(|e| format!("bad input.activate: {e}"))?;
            let id = input["id"].as_str().unwrap_or_default();
            let deck = deck_options(tree, &input["deck"])?.and_then(Deck::new);
            to_json(deck.and_then(|d| d.activate(id, &options)))
        }
        "audit" => {
            let path = tree.join(input["path"].as_str().unwrap_or("."));
            let options = skilldeck::AuditOptions::default();
            to_json(skilldeck::audit(&path, &options).map_err(skilldeck::Error::from))
        }
        other => return Err(format!("unknown operation `{other}`")),
    })
}

fn normalise(value: Value, tree: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace(tree, "<tree>")),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| normalise(v, tree)).collect())
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, normalise(v, tree)))
                .collect(),
        ),
        other => other,
    }
}

/// Subset match (tests/README.md): returns the JSON path of the first mismatch.
fn subset_mismatch(expected: &Value, actual: &Value, at: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(exp), Value::Object(act)) => exp.iter().find_map(|(k, v)| {
            let here = format!("{at}.{k}");
            match act.get(k) {
                Some(a) => subset_mismatch(v, a, &here),
                None if v.is_null() => None,
                None => Some(format!("{here}: missing")),
            }
        }),
        (Value::Array(exp), Value::Array(act)) => {
            if exp.len() != act.len() {
                return Some(format!(
                    "{at}: expected {} items, got {}",
                    exp.len(),
                    act.len()
                ));
            }
            exp.iter()
                .zip(act)
                .enumerate()
                .find_map(|(i, (e, a))| subset_mismatch(e, a, &format!("{at}[{i}]")))
        }
        // JSON has one number type: an expected `1.0` matches an actual `1` and the other
        // way round (integers compare exactly).
        (Value::Number(e), Value::Number(a))
            if (e.is_f64() || a.is_f64()) && e.as_f64() == a.as_f64() =>
        {
            None
        }
        (e, a) if e == a => None,
        (e, a) => Some(format!("{at}: expected {e}, got {a}")),
    }
}

fn run_case(dir: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(dir.join("case.json")).map_err(|e| e.to_string())?;
    let case: Value = serde_json::from_str(&text).map_err(|e| format!("case.json: {e}"))?;
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let tree = temp.path().canonicalize().map_err(|e| e.to_string())?;
    if dir.join("tree").is_dir() {
        copy_tree(&dir.join("tree"), &tree).map_err(|e| e.to_string())?;
    }
    apply_setup(&tree, &case["setup"])?;
    let actual = normalise(run_operation(&tree, &case)?, &tree.to_string_lossy());
    match subset_mismatch(&case["expected"], &actual, "$") {
        None => Ok(()),
        Some(why) => Err(format!(
            "{why}\nactual: {}",
            serde_json::to_string_pretty(&actual).unwrap_or_default()
        )
        .into()),
    }
}

fn main() {
    let args = Arguments::from_args();
    let root = vectors_dir();
    let mut cases = Vec::new();
    find_cases(&root, &mut cases);
    let trials = cases
        .into_iter()
        .map(|dir| {
            let name = dir
                .strip_prefix(&root)
                .unwrap_or(&dir)
                .to_string_lossy()
                .replace('\\', "/");
            Trial::test(name, move || run_case(&dir))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
