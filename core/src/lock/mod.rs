//! The install lock file (`skills-lock.json`) and the digests it records.
//!
//! Plain data and hashing only — fetching and installing live in the `skilldeck-install`
//! crate, so a caller who only loads skills pays for none of it.
//!
//! - [`digest`]: per-file `sha256:<hex>` digests and the skill digest as the Agent Skills
//!   discovery RFC (v0.2.0, "Integrity and Verification") defines it;
//! - [`file`](mod@file): the lock file format — the `skills` CLI's v1 fields plus the resolved commit,
//!   the skill digest and the per-file digests — read leniently, written sorted and atomically;
//! - [`tree`]: hashing an installed directory and comparing it with its lock entry.

pub mod digest;
pub mod file;
pub mod tree;

pub use digest::{
    digest_hex, file_digest, is_sha256_digest, sha256_hex, skill_digest, skills_cli_hash,
    DigestError,
};
pub use file::{LockEntry, LockFile, LOCK_FILE_NAME, LOCK_VERSION};
pub use tree::{diff as diff_files, hash_tree, verify_tree, TreeDiff, TreeHash};
