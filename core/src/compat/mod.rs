//! Compatibility layers: other tools' exact semantics, built from engine parts, so the
//! bindings can offer drop-in replacements without re-implementing anything.

pub(crate) mod pystr;
pub mod skills_ref;
pub mod strict_yaml;
