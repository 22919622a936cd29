#!/usr/bin/env bash
# Rust: formatting, lints, unit + conformance + property tests for core and cli.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked --no-fail-fast
