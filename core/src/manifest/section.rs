//! [`Section`]: a group of manifest fields that most skills leave out.
//!
//! A manifest with every host's fields inline was ~900 bytes, almost all of it empty
//! `Option`s and `Vec`s, and a catalog keeps one per skill. A section costs one pointer
//! until a field of its group is set; reads of an unset section see an empty group, so
//! code reads `manifest.claude_code.model` whether or not the frontmatter had one.

use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The fields of one section, with the empty value reads of an unset section borrow.
pub trait SectionFields: Default + PartialEq + 'static {
    /// The group with every field unset (one shared instance, e.g. in a `OnceLock`).
    fn empty() -> &'static Self;
}

/// A group of fields stored only once one of them is set.
///
/// Dereferences to the group (`manifest.tool.version`); assigning through it stores the
/// group on first use. Equality, `Debug` and serde see the group itself, so an unset
/// section and a stored but empty one are the same value. In JSON the group's keys sit
/// in the manifest beside the specification's (`#[serde(flatten)]`).
#[derive(Clone, Default)]
pub struct Section<T: SectionFields>(Option<Box<T>>);

impl<T: SectionFields> Section<T> {
    /// True when the group holds at least one field.
    pub fn is_set(&self) -> bool {
        self.0.as_deref().is_some_and(|fields| fields != T::empty())
    }

    /// The group, owned (empty when unset).
    pub fn into_inner(self) -> T {
        self.0.map(|fields| *fields).unwrap_or_default()
    }
}

impl<T: SectionFields> From<T> for Section<T> {
    fn from(fields: T) -> Self {
        if &fields == T::empty() {
            Section(None)
        } else {
            Section(Some(Box::new(fields)))
        }
    }
}

impl<T: SectionFields> Deref for Section<T> {
    type Target = T;
    fn deref(&self) -> &T {
        match &self.0 {
            Some(fields) => fields,
            None => T::empty(),
        }
    }
}

impl<T: SectionFields> DerefMut for Section<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }
}

impl<T: SectionFields> PartialEq for Section<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: SectionFields + Eq> Eq for Section<T> {}

impl<T: SectionFields + fmt::Debug> fmt::Debug for Section<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: SectionFields + Serialize> Serialize for Section<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de, T: SectionFields + Deserialize<'de>> Deserialize<'de> for Section<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Section::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    struct Group {
        #[serde(skip_serializing_if = "Option::is_none")]
        word: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        list: Vec<String>,
    }

    impl SectionFields for Group {
        fn empty() -> &'static Self {
            static EMPTY: std::sync::OnceLock<Group> = std::sync::OnceLock::new();
            EMPTY.get_or_init(Group::default)
        }
    }

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Holder {
        #[serde(skip_serializing_if = "Option::is_none")]
        first: Option<String>,
        #[serde(flatten)]
        group: Section<Group>,
    }

    #[test]
    fn an_unset_section_reads_as_the_empty_group_and_stores_nothing() {
        let section = Section::<Group>::default();
        assert_eq!(section.word, None);
        assert!(section.list.is_empty());
        assert!(!section.is_set());
        assert!(section.0.is_none());
    }

    #[test]
    fn a_write_stores_the_group() {
        let mut section: Section<Group> = Section(None);
        section.word = Some("x".into());
        assert!(section.is_set());
        assert_eq!(section.word.as_deref(), Some("x"));
        assert_ne!(section, Section::default());
    }

    #[test]
    fn a_stored_empty_group_equals_an_unset_one() {
        let mut stored: Section<Group> = Section(None);
        stored.word = None;
        assert!(stored.0.is_some());
        assert!(!stored.is_set());
        assert_eq!(stored, Section::default());
        assert!(Section::from(Group::default()).0.is_none());
    }

    #[test]
    fn json_puts_the_group_keys_beside_the_holders_and_reads_them_back() {
        let mut holder = Holder {
            first: Some("a".into()),
            ..Holder::default()
        };
        assert_eq!(
            serde_json::to_string(&holder).ok().as_deref(),
            Some(r#"{"first":"a"}"#)
        );
        holder.group.list = vec!["b".into()];
        let json = serde_json::to_string(&holder).unwrap_or_default();
        assert_eq!(json, r#"{"first":"a","list":["b"]}"#);
        let back: Holder = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, holder);
        let bare: Holder = serde_json::from_str(r#"{"first":"a"}"#).unwrap_or_default();
        assert!(bare.group.0.is_none(), "no group keys, nothing stored");
    }
}
