#!/usr/bin/env bash
# MCP: the official MCP Python SDK (PyPI `mcp`) as an independent client of `skilldeck mcp`
# (stdio and streamable HTTP, both lifecycles); the extension's methods go out as custom
# requests. Uses the debug CLI the Rust suite built (features mcp + http, the defaults).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/target-dir.sh

MCP_VERSION=2.3.0
PYTEST_VERSION=9.2.0

venv="$target_dir/mcp-py-venv"
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "mcp==$MCP_VERSION" "pytest==$PYTEST_VERSION"
# The CLI as the Rust suite built it (scripts/lib/cli-bin.sh: nothing compiles twice).
bin=$(scripts/lib/cli-bin.sh)
SKILLDECK_BIN="$bin" "$venv/bin/python" -m pytest -q mcp/tests/python
