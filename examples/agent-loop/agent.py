"""An agent loop on skilldeck's tools with a scripted model (see README.md here).

    python examples/agent-loop/agent.py examples/agent-loop/project
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Dict, List

import skilldeck

FORMAT = "openai"


def scripted_model(messages: List[Dict[str, Any]], tools: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Stands in for a model: the reply to the conversation so far, in OpenAI's message shape.
    It searches, loads the skill, calls its tool, then answers with what the tool returned."""
    offered = {t["function"]["name"] for t in tools}
    calls = sum(1 for m in messages if m["role"] == "tool")

    def call(call_id: str, name: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            ],
        }

    if calls == 0 and "search_skills" in offered:
        return call("call-0", "search_skills", {"query": "count words in a text"})
    if calls == 1 and "skill" in offered:
        return call("call-1", "skill", {"name": "word-count"})
    if calls == 2 and "word-count" in offered:
        return call("call-2", "word-count", {"text": "the quick brown fox\njumps over the lazy dog"})
    return {"role": "assistant", "content": f"The tool says: {messages[-1]['content']}"}


async def answer(deck: skilldeck.Deck, name: str, arguments: Dict[str, Any]) -> tuple[str, bool]:
    """Run one tool call: the text for the model and whether it is an error."""
    try:
        if name == "skill":
            return deck.activate(arguments["name"]).text, False
        if name == "search_skills":
            hits = deck.search(arguments["query"], limit=arguments.get("limit", 10))
            return json.dumps(hits.to_dict()), False
        # `run_skill_script` and every command skill's tool: sandboxed, arguments checked
        # against the skill's parameters before anything runs.
        outcome = await skilldeck.call_tool(deck, name, arguments)
        return outcome["stdout"], outcome["exit_code"] != 0
    except skilldeck.SkillError as err:
        return str(err), True


async def agent_loop(project: str) -> str:
    """Run the loop on `project`'s skills; the model's final answer."""
    deck = skilldeck.Deck(project_dir=project)
    tools = skilldeck.agent_tools(deck.load(), FORMAT)
    messages: List[Dict[str, Any]] = [{"role": "user", "content": "How many words are in my text?"}]
    for _ in range(8):
        reply = scripted_model(messages, tools)
        messages.append(reply)
        if not reply.get("tool_calls"):
            return str(reply["content"])
        for c in reply["tool_calls"]:
            name = c["function"]["name"]
            content, is_error = await answer(deck, name, json.loads(c["function"]["arguments"]))
            print(f"tool {name} -> {content.splitlines()[0] if content else ''}")
            messages.append(skilldeck.tool_result(FORMAT, c["id"], name, content, is_error))
    raise RuntimeError("the model did not finish within 8 turns")


if __name__ == "__main__":
    print(asyncio.run(agent_loop(sys.argv[1] if len(sys.argv) > 1 else "examples/agent-loop/project")))
