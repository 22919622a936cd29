#!/usr/bin/env bash
# Agreement with the spec's reference validator: for every skill directory in examples/ and in
# the parse/validate conformance trees, `skilldeck validate --strict` must give the same
# valid/invalid verdict as skills-ref 0.1.1 (`agentskills validate`). skills-ref is installed
# into a venv under cargo's target directory, so the machine's Python stays untouched.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/target-dir.sh

SKILLS_REF_VERSION=0.1.1
venv="$target_dir/skills-ref-venv"
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/agentskills" ]; then
  rm -rf "$venv"
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian/Ubuntu ship venv support separately.
    if command -v apt-get >/dev/null; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
      rm -rf "$venv"
      "$python" -m venv "$venv"
    else
      echo "cannot create a Python venv with $python" >&2
      exit 1
    fi
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check "skills-ref==$SKILLS_REF_VERSION"
fi
# The CLI as the Rust suite built it: `cargo build -p skilldeck-cli` would compile again the
# crates whose features its dev-dependencies change (scripts/lib/cli-bin.sh).
bin=$(scripts/lib/cli-bin.sh)

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
echo "skills-ref $SKILLS_REF_VERSION agreement: $agree agree, $disagree disagree, $known known differences (${#skills[@]} skills)"
[ "$disagree" -eq 0 ] && [ "$agree" -gt 0 ]
