"""What a host hands the model when a skill is activated: the oracles behind the
`tests/vectors/activate/oracle-*` vectors of the `copilot-cli` and `openhands` formats.

Used by oracle.py (`run`/`check`/`record` on an activate vector); standard library only.

- Copilot CLI: its skill tool is native code (`runtime.node`), so the host itself is run in
  prompt mode against a stand-in model (`ScriptedModel`, an OpenAI-compatible endpoint on a
  local port, the host's documented BYOK mode): the first answer calls the `skill` tool with
  the skill's name, and the host's next request carries the tool's answer and the skill
  context message, which are returned verbatim.
- OpenHands SDK: the SDK's own functions are called by its venv's python (`OPENHANDS_ACTIVATE`).
"""

from __future__ import annotations

import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class ScriptedModel:
    """A local chat-completions endpoint: answers the first request that offers `tool` with a
    call of it (`arguments`), every later one with a plain "done"; keeps every request."""

    def __init__(self, tool: str, arguments: dict):
        self.requests: list[dict] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self._json({"data": [{"id": "gpt-4.1", "object": "model"}]})

            def do_POST(self):
                size = int(self.headers.get("content-length", 0))
                req = json.loads(self.rfile.read(size) or b"{}")
                model.requests.append(req)
                offered = [t.get("function", {}).get("name") for t in req.get("tools", [])]
                called = any(m.get("role") == "tool" for m in req.get("messages", []))
                if tool in offered and not called:
                    call = {"id": "call_1", "type": "function",
                            "function": {"name": tool, "arguments": json.dumps(arguments)}}
                    msg, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
                else:
                    msg, finish = {"role": "assistant", "content": "done"}, "stop"
                usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
                if not req.get("stream"):
                    self._json({"id": "c", "object": "chat.completion", "created": 0,
                                "model": req.get("model"), "usage": usage,
                                "choices": [{"index": 0, "message": msg, "finish_reason": finish}]})
                    return
                if "tool_calls" in msg:
                    msg = {**msg, "tool_calls": [{**msg["tool_calls"][0], "index": 0}]}
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for delta, reason, extra in ((msg, None, {}), ({}, finish, {"usage": usage})):
                    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0,
                             "model": req.get("model"), **extra,
                             "choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                self.wfile.write(b"data: [DONE]\n\n")

            def _json(self, value):
                body = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


COPILOT_MODEL = "gpt-4.1"
COPILOT_LOADED = 'Skill "{name}" loaded successfully. Follow the instructions in the skill context.'


def copilot_activation(copilot: Path, project: Path, env: dict, skill: str) -> dict:
    """Run Copilot CLI in prompt mode with the stand-in model calling `skill`; return the
    skill context message the host adds after the tool's answer (`text`), or the tool's
    answer as an error when it loaded nothing."""
    with ScriptedModel("skill", {"skill": skill}) as model:
        env = {
            **env,
            "NO_PROXY": "127.0.0.1",
            "no_proxy": "127.0.0.1",
            "COPILOT_PROVIDER_BASE_URL": model.url,
            "COPILOT_MODEL": COPILOT_MODEL,
        }
        cmd = [str(copilot), "-p", f"use the {skill} skill", "--allow-all-tools", "--trust-folder",
               "--disable-client-telemetry"]
        out = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=180)
        if out.returncode != 0:
            raise RuntimeError(f"copilot -p failed ({out.returncode}): {out.stderr[-2000:]}")
    answered = [r for r in model.requests if any(m.get("role") == "tool" for m in r["messages"])]
    if not answered:
        raise RuntimeError("copilot never called the skill tool: " + out.stdout[-2000:])
    messages = answered[0]["messages"]
    at = next(i for i, m in enumerate(messages) if m.get("role") == "tool")
    tool_answer = messages[at]["content"]
    result = {
        "host": "copilot-cli",
        "command": f"copilot -p … --allow-all-tools --trust-folder (BYOK: a scripted model at "
                   f"COPILOT_PROVIDER_BASE_URL, COPILOT_MODEL={COPILOT_MODEL}, calling "
                   f"skill {{\"skill\": {json.dumps(skill)}}})",
        "tool_answer": tool_answer,
    }
    context = [m["content"] for m in messages[at + 1:] if m.get("role") == "user"]
    if tool_answer.startswith("Skill ") and "loaded successfully" in tool_answer and context:
        result["text"] = context[0] if isinstance(context[0], str) else json.dumps(context[0])
    else:
        result["error"] = {"code": "NOT_FOUND", "message": tool_answer}
    return result


# The SDK's own `invoke_skill` tool (`openhands/sdk/tool/builtins/invoke_skill.py`,
# `InvokeSkillExecutor`) on the skills its loaders find in the cwd (project, then user: the
# discovery driver's merge), with a stand-in conversation that holds only what the executor
# reads: the skill list, the workspace's working dir (the cwd) and the invoked-skills list.
OPENHANDS_ACTIVATE = r"""
import json, sys
from pathlib import Path
from types import SimpleNamespace
from openhands.sdk.skills.skill import load_project_skills, load_user_skills
from openhands.sdk.tool.builtins.invoke_skill import InvokeSkillAction, InvokeSkillExecutor

skills, seen = [], set()
for s in load_project_skills(Path.cwd()) + load_user_skills():
    if s.name not in seen:
        seen.add(s.name)
        skills.append(s)
state = SimpleNamespace(
    agent=SimpleNamespace(agent_context=SimpleNamespace(skills=skills)),
    workspace=SimpleNamespace(working_dir=str(Path.cwd())),
    invoked_skills=[],
)
obs = InvokeSkillExecutor()(InvokeSkillAction(name=sys.argv[1]), SimpleNamespace(state=state))
json.dump({"text": obs.text, "is_error": obs.is_error}, sys.stdout)
"""


def openhands_activation(python: Path, project: Path, env: dict, skill: str) -> dict:
    """The SDK's `invoke_skill` answer for `skill`, as `text`, or its error as NOT_FOUND."""
    out = subprocess.run([str(python), "-c", OPENHANDS_ACTIVATE, skill], cwd=project, env=env,
                         capture_output=True, text=True, timeout=180)
    if out.returncode != 0:
        raise RuntimeError(f"openhands invoke_skill failed ({out.returncode}): {out.stderr[-2000:]}")
    answer = json.loads(out.stdout)
    result = {
        "host": "openhands-sdk",
        "command": f"InvokeSkillExecutor()(InvokeSkillAction(name={skill!r}), conversation) "
                   "on load_project_skills(cwd) + load_user_skills()",
        "tool_answer": answer["text"],
    }
    if answer["is_error"]:
        result["error"] = {"code": "NOT_FOUND", "message": answer["text"]}
    else:
        result["text"] = answer["text"]
    return result


GOOSE_MODEL = "gpt-4.1"


def goose_activation(goose: Path, project: Path, env: dict, skill: str, args: str) -> dict:
    """Run `goose run -t` with its OpenAI provider pointed at the scripted model, which calls
    the skills extension's `load_skill` (`{"name": skill}`, plus `"args"` when given); the
    tool's answer is the text (an error answer is NOT_FOUND)."""
    arguments = {"name": skill, **({"args": args} if args else {})}
    with ScriptedModel("load_skill", arguments) as model:
        env = {
            **env,
            "NO_PROXY": "127.0.0.1",
            "no_proxy": "127.0.0.1",
            "GOOSE_PROVIDER": "openai",
            "OPENAI_HOST": model.url.removesuffix("/v1"),
            "OPENAI_API_KEY": "unused",
            "GOOSE_MODEL": GOOSE_MODEL,
            "GOOSE_DISABLE_KEYRING": "1",
        }
        cmd = [str(goose), "run", "--no-session", "-t", f"use the {skill} skill"]
        out = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=180)
        if out.returncode != 0:
            raise RuntimeError(f"goose run failed ({out.returncode}): {out.stderr[-2000:]}")
    answered = [r for r in model.requests if any(m.get("role") == "tool" for m in r["messages"])]
    if not answered:
        raise RuntimeError("goose never called load_skill: " + out.stdout[-2000:])
    tool = next(m for m in answered[0]["messages"] if m.get("role") == "tool")
    content = tool["content"]
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    result = {
        "host": "goose",
        "command": f"goose run --no-session -t … (GOOSE_PROVIDER=openai, OPENAI_HOST = a scripted "
                   f"model calling load_skill {json.dumps(arguments)})",
        "tool_answer": content,
    }
    # The skills extension answers errors as text too; a loaded skill starts with this.
    if content.startswith("# Loaded Skill: "):
        result["text"] = content
    else:
        result["error"] = {"code": "NOT_FOUND", "message": content}
    return result
