"""Tool definitions for a model in every format, agent_tools, the single tools and
tool_result; format names are the engine's (an unknown one is InvalidOptionsError)."""

from __future__ import annotations

from pathlib import Path

import pytest

import skilldeck

COMMAND = """---
name: word-count
description: Count the words of a text.
command: count.sh
parameters:
  - name: text
    type: string
    required: true
    description: The text to count.
---
"""

PLAIN = """---
name: notes
description: How to write notes.
---
# Notes
"""


@pytest.fixture
def catalog(tmp_path: Path) -> skilldeck.Catalog:
    project = tmp_path.resolve() / "project"
    skills = project / ".agents" / "skills"
    (skills / "word-count").mkdir(parents=True)
    (skills / "word-count" / "SKILL.md").write_text(COMMAND, encoding="utf-8")
    (skills / "word-count" / "count.sh").write_text("#!/bin/sh\nwc -w\n", encoding="utf-8")
    (skills / "notes" / "scripts").mkdir(parents=True)
    (skills / "notes" / "SKILL.md").write_text(PLAIN, encoding="utf-8")
    (skills / "notes" / "scripts" / "tidy.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    deck = skilldeck.Deck(project_dir=project, home_dir=tmp_path, read_host_settings=False)
    return deck.load()


SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "The text to count."}},
    "required": ["text"],
    "additionalProperties": False,
}


def test_tool_formats_are_the_engines():
    assert skilldeck.TOOL_FORMATS == ("openai", "anthropic", "vercel")


def test_tool_definitions_in_every_format(catalog):
    openai = skilldeck.tool_definitions(catalog)
    assert openai == skilldeck.tool_definitions(catalog, "openai")
    assert [t["function"]["name"] for t in openai] == ["run_skill_script", "word-count"]
    assert openai[1] == {
        "type": "function",
        "function": {
            "name": "word-count",
            "description": "Count the words of a text.",
            "parameters": SCHEMA,
        },
    }
    anthropic = skilldeck.tool_definitions(catalog, format="anthropic")
    assert anthropic[1] == {
        "name": "word-count",
        "description": "Count the words of a text.",
        "input_schema": SCHEMA,
    }
    vercel = skilldeck.tool_definitions(catalog, format="vercel")
    assert vercel[1] == {
        "name": "word-count",
        "description": "Count the words of a text.",
        "inputSchema": SCHEMA,
    }
    assert vercel[0]["inputSchema"]["required"] == ["skill_name", "script_name"]


def test_agent_tools_and_the_single_tools(catalog):
    tools = skilldeck.agent_tools(catalog, "anthropic")
    assert [t["name"] for t in tools] == ["skill", "search_skills", "run_skill_script", "word-count"]
    assert tools[0] == skilldeck.skill_tool("anthropic")
    assert tools[1] == skilldeck.search_skills_tool("anthropic")
    assert tools[2] == skilldeck.run_skill_script_tool("anthropic")
    assert skilldeck.skill_tool()["function"]["parameters"]["required"] == ["name"]
    assert skilldeck.search_skills_tool("vercel")["name"] == "search_skills"
    # The search tool is the one search_tool_definition() describes.
    definition = skilldeck.search_tool_definition()
    assert skilldeck.search_skills_tool("openai")["function"]["parameters"] == definition["parameters"]


def test_tool_result_in_every_format():
    assert skilldeck.tool_result("openai", "call_1", "word-count", "3") == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "3",
    }
    assert skilldeck.tool_result("anthropic", "toolu_1", "word-count", "boom", True) == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "boom",
        "is_error": True,
    }
    assert skilldeck.tool_result("vercel", "c1", "word-count", "3", is_error=False) == {
        "type": "tool-result",
        "toolCallId": "c1",
        "toolName": "word-count",
        "output": {"type": "text", "value": "3"},
    }
    failed = skilldeck.tool_result("vercel", "c1", "word-count", "no", is_error=True)
    assert failed["output"] == {"type": "error-text", "value": "no"}


def test_an_unknown_format_is_invalid_options(catalog):
    for call in (
        lambda: skilldeck.tool_definitions(catalog, "gemini"),
        lambda: skilldeck.agent_tools(catalog, "gemini"),
        lambda: skilldeck.skill_tool("OpenAI"),
        lambda: skilldeck.tool_result("gemini", "c", "t", "x"),
    ):
        with pytest.raises(skilldeck.InvalidOptionsError) as err:
            call()
        assert err.value.code == "INVALID_OPTIONS"
        assert "openai, anthropic, vercel" in str(err.value)
