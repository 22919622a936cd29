//! Helpers shared by the integration tests.

use skilldeck::Catalog;

/// Everything a listing shows of a catalog: all but the skills' manifests (beyond the
/// description) and their warnings, which `Deck::load_summary` drops.
pub fn listing(catalog: &Catalog) -> serde_json::Value {
    let skills: Vec<serde_json::Value> = catalog
        .skills
        .iter()
        .map(|s| {
            serde_json::json!({
                "id": s.id, "name": s.name, "description": s.description(),
                "location": s.location, "base_dir": s.base_dir, "scope": s.scope,
                "source": s.source, "plugin": s.plugin, "kind": s.kind, "status": s.status,
            })
        })
        .collect();
    serde_json::json!({
        "profile": catalog.profile,
        "skills": skills,
        "shadowed": catalog.shadowed,
        "diagnostics": catalog.diagnostics,
    })
}
