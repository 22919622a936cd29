#!/usr/bin/env bash
# Python: build the abi3 wheel with maturin, install it into a fresh venv, run the pytest
# suite (API, threads/GIL, stubs, CLI, every conformance vector, skills-ref differential),
# then run skills-ref 0.1.1's own 40 tests against skilldeck.compat.skills_ref.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/target-dir.sh

MATURIN_VERSION=1.16.0
PYTEST_VERSION=9.2.0
MYPY_VERSION=2.4.1         # for stubtest: the .pyi stubs against the built module
SKILLS_REF_VERSION=0.1.1   # the reference the compat module reproduces

venv="$target_dir/py-venv"
wheels="$target_dir/py-wheels"
suite="$target_dir/py-skills-ref"

python=${PYTHON:-python3}
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
py="$venv/bin/python"
"$py" -m pip install -q --disable-pip-version-check \
  "maturin==$MATURIN_VERSION" "pytest==$PYTEST_VERSION" "mypy==$MYPY_VERSION" \
  "skills-ref==$SKILLS_REF_VERSION"

# The dev profile keeps the build to well under a minute on 2 cores; release wheels are a
# packaging step, not a test prerequisite.
rm -rf "$wheels"
"$venv/bin/maturin" build --locked --profile dev --interpreter "$py" -o "$wheels"
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/skilldeck-*.whl

# Run from outside the repository so `import skilldeck` is the installed wheel.
repo=$(pwd)
status=0
(cd /tmp && "$py" -m pytest -q -p no:cacheprovider "$repo/bindings-python/tests") || status=1
# Every stub signature, default and class flag against the runtime module.
(cd /tmp && "$py" -m mypy.stubtest --mypy-config-file /dev/null skilldeck) || status=1

# skills-ref's own test files, unmodified, from its sdist: the pytest plugin
# bindings-python/tests/skills_ref_alias.py makes `skills_ref` (and its submodules) resolve
# to skilldeck.compat.skills_ref, so the installed reference is not what they exercise.
rm -rf "$suite"
"$py" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
  "skills-ref==$SKILLS_REF_VERSION" -d "$suite"
tar -xzf "$suite"/skills_ref-"$SKILLS_REF_VERSION".tar.gz -C "$suite"
out=$(mktemp)
(cd "$suite/skills_ref-$SKILLS_REF_VERSION" &&
  PYTHONPATH="$repo/bindings-python/tests" "$py" -m pytest -q -p no:cacheprovider \
    -p skills_ref_alias tests) | tee "$out" || status=1
if ! grep -qE '^40 passed' "$out"; then
  echo "skills-ref suite: expected exactly 40 passing tests" >&2
  status=1
fi
exit $status
