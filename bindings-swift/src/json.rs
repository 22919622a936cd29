//! Canonical JSON of the mirrored core records. uniffi cannot attach methods to types
//! defined in another crate, so these are free functions; the hand-written
//! `kotlin/src/dev/skilldeck/Extensions.kt` and
//! `swift/Sources/SkillDeck/Extensions.swift` files turn them into `toJson()`
//! methods on each record.

use crate::records::canonical_json;
use crate::Manifest;
use skilldeck::{Diagnostic, Shadowed, Status};

/// Canonical JSON of a diagnostic (prefer `diagnostic.toJson()`).
#[uniffi::export]
pub fn diagnostic_to_json(diagnostic: Diagnostic) -> String {
    canonical_json(&diagnostic)
}

/// Canonical JSON of a status (prefer `status.toJson()`).
#[uniffi::export]
pub fn status_to_json(status: Status) -> String {
    canonical_json(&status)
}

/// Canonical JSON of a shadowed skill (prefer `shadowed.toJson()`).
#[uniffi::export]
pub fn shadowed_to_json(shadowed: Shadowed) -> String {
    canonical_json(&shadowed)
}

/// Canonical JSON of a manifest, keys as written in SKILL.md (prefer `manifest.toJson()`).
#[uniffi::export]
pub fn manifest_to_json(manifest: Manifest) -> String {
    canonical_json(&skilldeck::Manifest::from(manifest))
}
