#!/usr/bin/env bash
# Rust: formatting, lints, unit + conformance + property tests for core and cli, the
# engine's rustdoc (broken or private intra-doc links fail), and the optional `watch`
# feature of core.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked --no-fail-fast
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p skilldeck
# `watch` (file watcher): core alone with the feature, so only core and notify build again,
# not the CLI or the bindings. Its tests carry `watch` in their names; every other test
# already ran above and the feature changes nothing they cover.
cargo clippy --locked -p skilldeck --features watch --all-targets -- -D warnings
cargo test --locked -p skilldeck --features watch --lib -- watch
