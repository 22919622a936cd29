//! Value conversion between Python objects and the core's serde forms.
//!
//! Options travel Python → `serde_json::Value` → core type (serde), and results travel core
//! type → `serde_json::Value` → Python, so the canonical JSON form (`to_dict()`) is exactly
//! the core's serde serialisation and no field list is repeated here.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Number, Value};

/// A serde value as the matching Python object (dict, list, str, int, float, bool, None).
pub fn json_to_py(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// Any serialisable core value as a Python object (its canonical JSON form).
pub fn to_py<T: Serialize + ?Sized>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_value(value)
        .map_err(|e| PyTypeError::new_err(format!("cannot convert engine value: {e}")))?;
    json_to_py(py, &json)
}

/// A Python object as a serde value. Accepts what JSON can hold plus tuples and
/// `os.PathLike` (paths become strings), so options may carry `pathlib.Path` objects.
pub fn py_to_json(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: Python's bool is an int subclass.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        let u: u64 = obj.extract()?;
        return Ok(Value::from(u));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| PyTypeError::new_err("NaN and infinite floats have no JSON form"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in dict.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!("dictionary keys must be strings, got {k:?}"))
            })?;
            map.insert(key, py_to_json(&v)?);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for item in obj.try_iter()? {
            items.push(py_to_json(&item?)?);
        }
        return Ok(Value::Array(items));
    }
    if obj.hasattr("__fspath__")? {
        let path: std::path::PathBuf = obj.extract()?;
        return Ok(Value::String(path.to_string_lossy().into_owned()));
    }
    Err(PyTypeError::new_err(format!(
        "cannot use a {} here (expected str, int, float, bool, None, path, list or dict)",
        obj.get_type().name()?
    )))
}

/// Deserialise a core type from a serde value; the error names what was being read.
pub fn from_json<T: DeserializeOwned>(what: &str, value: Value) -> Result<T, skilldeck::Error> {
    serde_json::from_value(value)
        .map_err(|e| skilldeck::Error::invalid_options(format!("{what}: {e}")))
}

/// Python's `repr()` of a string, for readable object reprs.
pub fn repr_str(py: Python<'_>, s: &str) -> String {
    PyString::new(py, s)
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| format!("{s:?}"))
}

/// `repr()` of an optional string (`None` when absent).
pub fn repr_opt(py: Python<'_>, s: Option<&str>) -> String {
    s.map_or_else(|| "None".to_string(), |s| repr_str(py, s))
}

/// `snake_case` → `camelCase` (`max_files` → `maxFiles`), for core records serialised in
/// camel case (the install crate's, as its lock file is).
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `camelCase` → `snake_case`, to name a field the way a Python caller writes it.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `base` with the fields of `overrides` (a Python dict of some of its fields, written in
/// snake case) replaced, through serde: the field names and types are the core record's
/// own, so no list of them is repeated here. An unknown field is the library's
/// invalid-options error naming the known ones (the core records accept and drop unknown
/// fields, which would turn a typo into a silently ignored limit).
pub fn overridden<T: Serialize + DeserializeOwned>(
    what: &str,
    base: &T,
    overrides: &Bound<'_, PyAny>,
) -> PyResult<T> {
    let convert = |e: serde_json::Error| {
        crate::errors::to_pyerr(skilldeck::Error::invalid_options(format!("{what}: {e}")))
    };
    let Value::Object(mut fields) = serde_json::to_value(base).map_err(convert)? else {
        return Err(crate::errors::to_pyerr(skilldeck::Error::invalid_options(
            format!("{what} is not a record"),
        )));
    };
    let Value::Object(given) = py_to_json(overrides)? else {
        return Err(crate::errors::to_pyerr(skilldeck::Error::invalid_options(
            format!("{what} must be a dict of fields"),
        )));
    };
    for (key, value) in given {
        let name = if fields.contains_key(&key) {
            key
        } else if fields.contains_key(&camel(&key)) {
            camel(&key)
        } else {
            let known: Vec<String> = fields.keys().map(|k| snake(k)).collect();
            return Err(crate::errors::to_pyerr(skilldeck::Error::invalid_options(
                format!(
                    "{what}: unknown field `{key}` (expected one of: {})",
                    known.join(", ")
                ),
            )));
        };
        fields.insert(name, value);
    }
    serde_json::from_value(Value::Object(fields)).map_err(convert)
}

/// A callback argument: `None`, or a callable (else the invalid-options error naming `what`
/// and the shape expected).
pub fn callback(what: &str, obj: Option<Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    match obj {
        None => Ok(None),
        Some(obj) if obj.is_none() => Ok(None),
        Some(obj) if obj.is_callable() => Ok(Some(obj.unbind())),
        Some(obj) => {
            let kind = obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "object".to_string());
            Err(crate::errors::to_pyerr(skilldeck::Error::invalid_options(
                format!("{what} must be a callable taking one dict, got a {kind}"),
            )))
        }
    }
}

/// Call `callback(value)` from an engine thread: the GIL is taken for the call only, and an
/// exception the callback raises is reported through `sys.unraisablehook` (the engine
/// carries on; a progress display or event log failing must not abort an install or a run).
pub fn deliver<T: Serialize + ?Sized>(callback: &Py<PyAny>, value: &T) {
    Python::attach(|py| {
        let delivered = to_py(py, value).and_then(|v| callback.call1(py, (v,)));
        if let Err(err) = delivered {
            err.write_unraisable(py, Some(callback.bind(py)));
        }
    })
}
