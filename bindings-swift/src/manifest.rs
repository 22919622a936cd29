//! The manifest record. The core `Manifest` stores the hosts' fields, `metadata` and
//! `extra` in lazily allocated groups (`claude_code`, `tool`, ...); Swift and Kotlin get
//! the flat record every other binding and the canonical JSON show. The record and both conversions are generated from
//! the core's one field list ([`skilldeck::manifest_fields!`]): a field added in core
//! reaches Swift and Kotlin on the next `generate.sh`, with nothing to write here.

/// Declares the flat `Manifest` record and its conversions from the core's field list.
macro_rules! manifest_record {
    (identity [ $($(#[doc = $id:literal])* $i:ident : $ik:ident ($it:ty) = $($ip:ident).+ ,)* ]
     fields [ $($(#[doc = $fd:literal])* $f:ident : $fk:ident ($ft:ty) = $($fp:ident).+ ,)* ]) => {
        /// Everything a SKILL.md frontmatter can say: the Agent Skills specification plus
        /// every host's extensions. Unknown keys are kept in `extra`. String fields keep
        /// their source text.
        #[derive(Clone, Debug, PartialEq, uniffi::Record)]
        pub struct Manifest {
            $( $(#[doc = $id])* pub $i: $it, )*
            $( $(#[doc = $fd])* pub $f: $ft, )*
        }

        // `.into()` converts `metadata`/`extra` from and into their `Section`; every other
        // field is already its record type.
        impl From<skilldeck::Manifest> for Manifest {
            #[allow(clippy::useless_conversion)]
            fn from(mut m: skilldeck::Manifest) -> Self {
                // Taking through the sections' `DerefMut` may store an empty group in `m`,
                // which is dropped right after.
                Manifest {
                    $( $i: std::mem::take(&mut m.$($ip).+).into(), )*
                    $( $f: std::mem::take(&mut m.$($fp).+).into(), )*
                }
            }
        }

        impl From<Manifest> for skilldeck::Manifest {
            #[allow(clippy::useless_conversion)]
            fn from(v: Manifest) -> Self {
                let mut m = skilldeck::Manifest::default();
                $( m.$($ip).+ = v.$i.into(); )*
                $( m.$($fp).+ = v.$f.into(); )*
                m.compact()
            }
        }
    };
}

skilldeck::manifest_fields!(manifest_record);
