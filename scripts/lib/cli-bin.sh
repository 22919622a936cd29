#!/usr/bin/env bash
# Builds the `skilldeck` command as the Rust suite's `cargo test` builds it and prints its
# path. `cargo build -p skilldeck-cli` after `cargo test` compiled tokio, hyper, rmcp,
# jsonschema and 12 more crates a second time: dev-dependencies (skilldeck-mcp's
# tokio/test-util, criterion's zerocopy/derive) change their features in a test build only.
# The same command as the test build leaves nothing to compile after it (see
# scripts/lib/build-units.py for the count). Run alone, it builds the test targets too.
# Usage: bin=$(scripts/lib/cli-bin.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
# The executable of the `skilldeck` bin target, from cargo's build messages.
cargo test --locked --no-run --message-format=json-render-diagnostics |
  python3 -c '
import json, sys
exe = None
for line in sys.stdin:
    m = json.loads(line)
    # Not the unit-test harness of the bin target (same name and kind, profile.test).
    if m.get("reason") == "compiler-artifact" and m["target"]["kind"] == ["bin"] and m["target"]["name"] == "skilldeck" and not m["profile"]["test"]:
        exe = m["executable"]
if not exe:
    sys.exit("cargo test --no-run built no skilldeck executable")
print(exe)
'
