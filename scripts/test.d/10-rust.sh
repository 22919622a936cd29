#!/usr/bin/env bash
# Rust: formatting, lints, unit + conformance + property tests for core and cli, and the
# engine's rustdoc (broken or private intra-doc links fail).
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked --no-fail-fast
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p skilldeck
