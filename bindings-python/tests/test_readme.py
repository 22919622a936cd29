"""The README's Python example runs as written (against a temp project and home)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_agent_example_loads_renders_and_activates(tmp_path: Path, monkeypatch):
    home = tmp_path / "home"
    project = tmp_path / "project"
    skill = project / ".claude" / "skills" / "pdf"
    skill.mkdir(parents=True)
    (project / ".git").mkdir()
    home.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: pdf\ndescription: Extract text from PDF files.\n---\nRun pdftotext $ARGUMENTS.\n",
        encoding="utf-8",
    )
    # The example reads the process environment: point it at the temp home and project.
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(project)
    blocks = _python_blocks()
    assert blocks, "the README has no Python example"
    namespace: dict = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    assert namespace["system_prompt"].startswith("You are a helpful agent.")
    assert "Extract text from PDF files." in namespace["system_prompt"]
    assert namespace["skill_tool"]["name"] == "skill"
    text = namespace["on_tool_call"]("pdf", "report.pdf")
    assert "pdftotext report.pdf" in text
    # What the README promises the model: the base directory to resolve `scripts/...`.
    assert "Base directory for this skill: file://" in text
    assert "No skill named" in namespace["on_tool_call"]("nope")
    assert namespace["search_tool"]["name"] == "search_skills"
    assert namespace["on_search"]("pdf files") == "pdf: Extract text from PDF files."
    assert namespace["on_search"]("spreadsheets") == "No match."
    assert namespace["left_out"] == {}
