#!/usr/bin/env bash
# Agreement with the spec's reference validator: for every skill directory in examples/ and in
# the parse/validate conformance trees, `skilldeck validate --strict` must give the same
# valid/invalid verdict as skills-ref 0.1.1 (`agentskills validate`). skills-ref is installed
# into a venv under target/, so the machine's Python stays untouched.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/skills-ref-venv
if [ ! -x "$venv/bin/agentskills" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check skills-ref==0.1.1
fi
cargo build --quiet -p skilldeck-cli
bin=target/debug/skilldeck

# Deliberate differences, documented in core/src/validate/mod.rs: the spec requires
# `metadata` to be a mapping, which skills-ref 0.1.1 does not check.
known_differences=(
  tests/vectors/validate/strict-metadata-not-map/tree/metadata-string
)

mapfile -t skills < <(
  find examples tests/vectors/parse tests/vectors/validate \
    \( -name SKILL.md -o -name skill.md \) -type f -printf '%h\n' 2>/dev/null | sort -u
)
agree=0
disagree=0
known=0
for dir in "${skills[@]}"; do
  if "$venv/bin/agentskills" validate "$dir" >/dev/null 2>&1; then ref=valid; else ref=invalid; fi
  if "$bin" validate --strict --json "$dir" >/dev/null 2>&1; then ours=valid; else ours=invalid; fi
  if [ "$ref" = "$ours" ]; then
    agree=$((agree + 1))
  elif printf '%s\n' "${known_differences[@]}" | grep -qx "$dir"; then
    known=$((known + 1))
    echo "known difference: $dir (skills-ref: $ref, skilldeck: $ours)"
  else
    disagree=$((disagree + 1))
    echo "DISAGREE: $dir (skills-ref: $ref, skilldeck --strict: $ours)"
    "$venv/bin/agentskills" validate "$dir" 2>&1 | sed 's/^/  skills-ref: /' || true
  fi
done
echo "skills-ref 0.1.1 agreement: $agree agree, $disagree disagree, $known known differences (${#skills[@]} skills)"
[ "$disagree" -eq 0 ] && [ "$agree" -gt 0 ]
