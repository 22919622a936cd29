//! Tools behind `./scripts/bench`: a seeded generator of realistic skill trees
//! ([`corpus`]), the read-every-file I/O floor ([`floor`]) and small helpers shared by
//! the binaries. Nothing here is part of skilldeck's API.

pub mod corpus;
pub mod floor;
pub mod heap;
pub mod layout;
pub mod realworld;
pub mod rng;
pub mod rss;
pub mod skillfile;
pub mod stats;
pub mod text;
