//! The order a host lists a skill's files in, which `Activation.resources` follows (the set of
//! files stays skilldeck's: `activate::resources`).
//!
//! Checked per host with an activation format: Copilot CLI sorts its related files by path
//! (`activate/oracle-copilot-cli-format-*`), Gemini CLI prints a tree (`getFolderStructure`:
//! in each folder its files, then its folders, each in `localeCompare` order), Goose lists
//! them in directory order, depth first, unsorted, Mistral Vibe sorts the relative paths as
//! Python strings; Cline, Qwen Code and the OpenHands SDK list no files, and skilldeck's own
//! formats keep the text order.

use std::cmp::Ordering;
use std::path::Path;

/// How a host orders a skill's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceOrder {
    /// By the text of the relative path (code points; Python's `sorted`).
    Text,
    /// Path by path, component by component (`a/x` before `a-b/x`).
    Components,
    /// A folder tree: in each folder its files, then its folders, each by JavaScript's
    /// `localeCompare` (`core/src/discover/collate.rs`).
    FolderTree,
    /// As the directory listing gives them, depth first: a folder's files where the folder
    /// comes in its parent's listing. Not sorted, so it depends on the file system.
    Directory,
}

impl ResourceOrder {
    /// Puts `resources` (relative, `/`-separated, as the walk of `base` found them: in
    /// directory order, depth first) in this order.
    pub fn apply(self, resources: &mut [String]) {
        match self {
            ResourceOrder::Text => resources.sort(),
            ResourceOrder::Components => resources.sort_by(|a, b| Path::new(a).cmp(Path::new(b))),
            ResourceOrder::FolderTree => resources.sort_by(|a, b| folder_tree(a, b)),
            ResourceOrder::Directory => {}
        }
    }
}

/// Gemini CLI's tree order of two file paths: at the first component where they differ, a
/// file (the last component) comes before a folder, and two of a kind by `localeCompare`.
fn folder_tree(a: &str, b: &str) -> Ordering {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    for (i, (ca, cb)) in pa.iter().zip(&pb).enumerate() {
        if ca == cb {
            continue;
        }
        let (file_a, file_b) = (i + 1 == pa.len(), i + 1 == pb.len());
        return match (file_a, file_b) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => crate::discover::collate::compare(ca, cb),
        };
    }
    pa.len().cmp(&pb.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(order: ResourceOrder, files: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = files.iter().map(|s| s.to_string()).collect();
        order.apply(&mut v);
        v
    }

    const FILES: [&str; 6] = [
        "a-b/x.txt",
        "a/x.txt",
        "B.txt",
        "a.txt",
        "_u.txt",
        "a/b/y.txt",
    ];

    #[test]
    fn text_and_components_differ_at_a_separator() {
        assert_eq!(
            ordered(ResourceOrder::Text, &FILES),
            [
                "B.txt",
                "_u.txt",
                "a-b/x.txt",
                "a.txt",
                "a/b/y.txt",
                "a/x.txt"
            ]
        );
        assert_eq!(
            ordered(ResourceOrder::Components, &FILES),
            [
                "B.txt",
                "_u.txt",
                "a/b/y.txt",
                "a/x.txt",
                "a-b/x.txt",
                "a.txt"
            ]
        );
    }

    #[test]
    fn the_folder_tree_lists_files_first_in_locale_order() {
        assert_eq!(
            ordered(ResourceOrder::FolderTree, &FILES),
            [
                "_u.txt",
                "a.txt",
                "B.txt",
                "a/x.txt",
                "a/b/y.txt",
                "a-b/x.txt"
            ]
        );
    }

    #[test]
    fn directory_order_is_left_as_walked() {
        assert_eq!(ordered(ResourceOrder::Directory, &FILES), FILES);
    }
}
