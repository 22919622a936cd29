"""The command ships in the wheel and is the Rust command itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import skilldeck


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def test_python_dash_m_runs_the_rust_command():
    result = _run(sys.executable, "-m", "skilldeck", "--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"skilldeck {skilldeck.VERSION}"


def test_console_script_is_installed():
    script = Path(sys.executable).with_name("skilldeck")
    assert script.is_file() and os.access(script, os.X_OK)
    result = _run(str(script), "--help")
    assert result.returncode == 0
    for command in ("validate", "list", "show", "render", "activate"):
        assert command in result.stdout


def test_usage_errors_exit_2():
    result = _run(sys.executable, "-m", "skilldeck", "no-such-command")
    assert result.returncode == 2
    assert "no-such-command" in result.stderr


def test_validate_exit_codes(tmp_path: Path):
    good = tmp_path / "pdf"
    good.mkdir()
    (good / "SKILL.md").write_text("---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "SKILL.md").write_text("no frontmatter\n")
    assert _run(sys.executable, "-m", "skilldeck", "validate", str(good)).returncode == 0
    assert _run(sys.executable, "-m", "skilldeck", "validate", str(bad)).returncode == 1


def test_run_cli_in_process():
    assert skilldeck.run_cli(["--version"]) == 0
    assert skilldeck.run_cli(["no-such-command"]) == 2
