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


def test_non_utf8_argument_gives_no_traceback(tmp_path: Path):
    if sys.platform == "win32":
        return
    # A directory whose name is not UTF-8, handed over as raw bytes (as a shell would).
    project = os.path.join(os.fsencode(tmp_path), b"project-\xff")
    skill = os.path.join(project, b".agents", b"skills", b"greet")
    os.makedirs(skill)
    with open(os.path.join(skill, b"SKILL.md"), "w", encoding="utf-8") as f:
        f.write("---\nname: greet\ndescription: Greet someone.\n---\nHello.\n")
    script = os.fsencode(Path(sys.executable).with_name("skilldeck"))
    result = subprocess.run(
        [script, b"list", b"--project", project, b"--home", os.fsencode(tmp_path)],
        capture_output=True,
        check=False,
    )
    assert b"Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert b"greet" in result.stdout


def test_negative_budget_has_a_helpful_message():
    result = _run(sys.executable, "-m", "skilldeck", "render", "--budget-chars", "-1")
    assert result.returncode == 2
    assert "positive number of characters" in result.stderr
