//! [`JsonText`]: a JSON object (`metadata`, `extra`) kept as its compact JSON text.
//!
//! A catalog keeps a manifest per skill, and in the wild nearly half the skills carry a few
//! unknown keys (`source`, `risk`, `date_added`, ...) or a `metadata` object. Held as an
//! order-preserving `serde_json` map, each key is a `String`, each value a 32-byte `Value`
//! (a `String` of its own for text), each entry 64 bytes in the map's vector, plus the
//! map's index table and the box around it: about nine heap blocks and ~500 bytes for three
//! short keys. As text it is one block of ~70 bytes (`bench/PROFILE.md`, item 110). The
//! object is parsed again only when read, which is rare after a load (filters, the search
//! index and the bindings' getters read a handful of keys).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::JsonObject;

/// A JSON object stored as its compact text, or nothing when empty.
///
/// Reads parse it: [`JsonText::to_object`] gives the whole object, [`JsonText::get`] one
/// key. Writes replace it whole (`manifest.extra = object.into()`). Equality compares the
/// objects (key order included); serde sees the object itself, so the manifest's JSON is the
/// same as if it held a [`JsonObject`], under any serializer (pretty printing included).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct JsonText(Option<Box<str>>);

impl JsonText {
    /// The object's compact text (`{}` when empty).
    pub fn as_json(&self) -> &str {
        self.0.as_deref().unwrap_or("{}")
    }

    /// True when the object has no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The object, parsed (empty when unset).
    pub fn to_object(&self) -> JsonObject {
        match &self.0 {
            // The text was written by `serde_json` from an object, so it parses back; a
            // failure could only come from a bug here, and an empty object is the safe read.
            Some(text) => serde_json::from_str(text).unwrap_or_default(),
            None => JsonObject::new(),
        }
    }

    /// The value of `key`, parsed. Returns at once, without parsing, when the text cannot
    /// hold the key at its top level (how filters ask every skill for a key few have).
    pub fn get(&self, key: &str) -> Option<Value> {
        let text = self.0.as_deref()?;
        // Compact `serde_json` text writes a key as its JSON string followed by `:`; inside
        // a string value that sequence has its quotes escaped, so its absence is proof.
        let quoted = serde_json::to_string(key).ok()?;
        let mut needle = quoted;
        needle.push(':');
        if !text.contains(&needle) {
            return None;
        }
        self.to_object().remove(key)
    }
}

impl From<JsonObject> for JsonText {
    fn from(object: JsonObject) -> Self {
        JsonText::from(&object)
    }
}

impl From<&JsonObject> for JsonText {
    fn from(object: &JsonObject) -> Self {
        if object.is_empty() {
            return JsonText(None);
        }
        // Written into a buffer each thread reuses, then copied into a block of its exact
        // length: one allocation per object, where growing a `String` took several and its
        // final shrink can leave the block's spare tail in place.
        thread_local! {
            static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let text = BUFFER.with(|buffer| {
            let mut buffer = buffer.try_borrow_mut().ok()?;
            buffer.clear();
            // Serialising a map of `Value`s cannot fail (string keys, finite numbers).
            serde_json::to_writer(&mut *buffer, object).ok()?;
            let text = std::str::from_utf8(&buffer).ok().map(Box::<str>::from);
            // A rare huge object does not stay with the thread.
            if buffer.capacity() > 1 << 16 {
                *buffer = Vec::new();
            }
            text
        });
        JsonText(text.or_else(|| {
            serde_json::to_string(object)
                .ok()
                .map(String::into_boxed_str)
        }))
    }
}

/// The object, owned (empty when unset): what a binding's record holds.
impl From<JsonText> for JsonObject {
    fn from(text: JsonText) -> Self {
        text.to_object()
    }
}

impl fmt::Debug for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_object().fmt(f)
    }
}

impl Serialize for JsonText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Through the parsed object rather than the raw text: a pretty or non-JSON
        // serializer must lay it out as its own.
        self.to_object().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonObject::deserialize(deserializer).map(JsonText::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn an_empty_object_stores_nothing() {
        let text = JsonText::from(JsonObject::new());
        assert!(text.is_empty() && text.0.is_none());
        assert_eq!(text.as_json(), "{}");
        assert_eq!(text, JsonText::default());
        assert_eq!(text.get("a"), None);
    }

    #[test]
    fn the_object_round_trips_in_its_order() {
        let o = object(json!({"z": 1, "a": {"b": [1, 2.5, "x"]}, "m": null, "é\"": "q"}));
        let text = JsonText::from(&o);
        assert_eq!(
            text.as_json(),
            r#"{"z":1,"a":{"b":[1,2.5,"x"]},"m":null,"é\"":"q"}"#
        );
        assert_eq!(text.to_object(), o);
        let keys: Vec<String> = text.to_object().keys().cloned().collect();
        assert_eq!(keys, ["z", "a", "m", "é\""]);
        assert_eq!(JsonObject::from(text.clone()), o);
        assert_eq!(format!("{text:?}"), format!("{o:?}"));
    }

    /// A number read back from the text is the number that was stored: serde_json's
    /// default float parser can be one unit in the last place off (its `float_roundtrip`
    /// feature, enabled in the workspace, makes it exact), which would change a
    /// `metadata` value between the YAML and the JSON a binding or `show --json` prints.
    #[test]
    fn floats_come_back_bit_for_bit() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut floats = vec![
            1.071_566_039_146_582_6e-75,
            -1.819_967_304_027_17e-179,
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
            0.1 + 0.2,
        ];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            floats.push(f64::from_bits(x));
        }
        for f in floats.into_iter().filter(|f| f.is_finite()) {
            let o = object(json!({ "v": f }));
            let back = JsonText::from(&o).get("v").and_then(|v| v.as_f64());
            assert_eq!(back.map(f64::to_bits), Some(f.to_bits()), "{f:e}");
        }
    }

    #[test]
    fn get_finds_top_level_keys_only() {
        let text = JsonText::from(object(json!({
            "a": {"inner": 1}, "s": "\"inner\":", "é\"": true, "n": null
        })));
        assert_eq!(text.get("a"), Some(json!({"inner": 1})));
        assert_eq!(text.get("é\""), Some(json!(true)));
        assert_eq!(text.get("n"), Some(Value::Null));
        // Nested, or written inside a string value: not a key of the object.
        assert_eq!(text.get("inner"), None);
        assert_eq!(text.get("missing"), None);
    }

    #[test]
    fn serde_sees_the_object_under_any_layout() {
        let o = object(json!({"b": 1, "a": [true]}));
        let text = JsonText::from(&o);
        assert_eq!(
            serde_json::to_string_pretty(&text).ok(),
            serde_json::to_string_pretty(&o).ok()
        );
        assert_eq!(
            serde_json::to_value(&text).ok(),
            Some(Value::Object(o.clone()))
        );
        let back: Option<JsonText> = serde_json::from_value(Value::Object(o)).ok();
        assert_eq!(back, Some(text));
        let empty: Option<JsonText> = serde_json::from_str("{}").ok();
        assert!(empty.is_some_and(|t| t.is_empty()));
    }
}
