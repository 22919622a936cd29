"""The example agent loop (examples/agent-loop/agent.py) runs to its answer on its project."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent-loop"


def test_the_example_agent_loop_reaches_the_answer(capsys):
    spec = importlib.util.spec_from_file_location("agent_loop_example", EXAMPLE / "agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answer = asyncio.run(module.agent_loop(str(EXAMPLE / "project")))
    assert answer == 'The tool says: {"words": 9, "lines": 2, "chars": 43}'
    # Every tool was called on the way: search, load, run.
    out = capsys.readouterr().out
    assert "tool search_skills -> " in out and "tool skill -> # Word count" in out
    assert 'tool word-count -> {"words": 9' in out
