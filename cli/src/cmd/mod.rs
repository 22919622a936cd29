//! One module per subcommand; `deck_args` holds the discovery flags they share.

pub mod activate;
pub mod deck_args;
pub mod list;
pub mod render;
pub mod show;
pub mod validate;
