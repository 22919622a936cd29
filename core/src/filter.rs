//! Filter stage: enable/disable overrides, permissions, invocation flags, OS and
//! requirement checks. Sets each skill's `Status` (with reasons); never removes skills,
//! so `list --all` can show why something is hidden.

use crate::catalog::Catalog;
use crate::options::DeckOptions;

/// Apply every filter to `catalog` in place, for `options.agent`.
pub fn apply(catalog: &mut Catalog, options: &DeckOptions) {
    let _ = (catalog, options);
}
