"""A process whose environment and directories are not UTF-8.

`Deck()` once panicked reading such an environment (a `PanicException`, which `except
Exception` misses), and a project path that is not UTF-8 lost its skills. Each case runs in
a child interpreter: the environment is set with `os.environb`, the working directory is
a directory whose name is not valid UTF-8.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import skilldeck

pytestmark = pytest.mark.skipif(os.name != "posix", reason="bytes environments are POSIX")

CHILD = r"""
import json, os, sys
import skilldeck

out = {}
try:
    deck = skilldeck.Deck()  # project ".", the process environment, HOME from it
    out["default"] = sorted(s.id for s in deck.load().skills)
    # The working directory as Python spells it (surrogate escapes), passed explicitly.
    explicit = skilldeck.Deck(project_dir=os.getcwd(), home_dir=os.environ["HOME"])
    catalog = explicit.load()
    out["explicit"] = sorted(s.id for s in catalog.skills)
    out["location_exact"] = os.fsencode(str(catalog["greet"].location)).startswith(os.getcwdb())
    out["to_dict"] = bool(catalog.to_dict()["skills"])
    out["activate"] = "Hello." in deck.activate("greet").text
    out["cli"] = skilldeck.run_cli(["list"])
except BaseException as err:  # what the parent must never see
    out["error"] = f"{type(err).__module__}.{type(err).__name__}: {err}"
sys.stdout.flush()
print("RESULT " + json.dumps(out))
"""


def write(path: bytes, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def test_non_utf8_environment_and_paths(tmp_path):
    root = os.fsencode(tmp_path)
    project = os.path.join(root, b"project-\xff")
    home = os.path.join(root, b"home-\xfe")
    write(
        os.path.join(project, b".agents/skills/greet/SKILL.md"),
        "---\nname: greet\ndescription: Greet someone.\n---\nHello.\n",
    )
    write(
        os.path.join(home, b".agents/skills/homey/SKILL.md"),
        "---\nname: homey\ndescription: From home.\n---\nHi.\n",
    )
    env = dict(os.environb)
    for name in (b"CLAUDE_CONFIG_DIR", b"CODEX_HOME", b"XDG_CONFIG_HOME", b"KODE_CONFIG_DIR"):
        env.pop(name, None)
    env[b"HOME"] = home
    env[b"PWD"] = project
    env[b"SKILLDECK_ODD_\xff"] = b"\xfe"
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=project, env=env, capture_output=True, timeout=120
    )
    stdout = done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stdout + stderr
    line = next((l for l in stdout.splitlines() if l.startswith("RESULT ")), None)
    assert line is not None, stdout + stderr
    out = json.loads(line[len("RESULT ") :])
    assert "error" not in out, out["error"] + "\n" + stderr
    assert out["default"] == ["greet", "homey"]
    assert out["explicit"] == ["greet", "homey"]
    assert out["location_exact"] is True
    assert out["to_dict"] is True
    assert out["activate"] is True
    assert out["cli"] == 0


def test_internal_error_is_a_skill_error():
    assert issubclass(skilldeck.InternalError, skilldeck.SkillError)
    assert issubclass(skilldeck.InternalError, RuntimeError)
    assert skilldeck.InternalError.code == "INTERNAL"
