#!/usr/bin/env bash
# Fixtures: no file under tests/ may be hidden from git by .gitignore. A local run would see it
# and pass while a clean clone (CI, users) would silently lose it — that is how the node_modules/
# discovery fixtures once went missing.
set -euo pipefail
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git work tree; nothing to check"
  exit 0
fi
ignored=$(git ls-files --others --ignored --exclude-standard -- tests/)
if [ -n "$ignored" ]; then
  echo "these fixture files are ignored by .gitignore and would be missing from a clone:" >&2
  echo "$ignored" >&2
  echo "fix: add a negation rule for them in .gitignore" >&2
  exit 1
fi
echo "fixtures: every file under tests/ is visible to git"
