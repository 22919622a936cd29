#!/usr/bin/env bash
# Reproduce an issue locally: fetch its text and run the test suite once (demo script).
set -euo pipefail
issue="${1:?usage: reproduce.sh ISSUE}"
gh issue view "$issue" --json title,body --jq '.title + "\n\n" + .body'
cargo test --quiet
