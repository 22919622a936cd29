#!/usr/bin/env python3
"""Run the real agent hosts (OpenCode, Codex, Gemini CLI, Qwen Code, Copilot CLI) on a conformance vector's tree.

A developer tool, not part of ./scripts/test: it needs the pinned host binaries from npm
(`oracle.py install`) and answers "what does the host itself find here?" so the vectors under
tests/vectors/*/oracle-* stay tied to real behaviour. See tests/ORACLES.md.

    oracle.py install                   # npm-install the pinned hosts into $ORACLE_DIR
    oracle.py run VECTOR_DIR...         # print what the host finds (normalised JSON)
    oracle.py check VECTOR_DIR...       # compare the host with each vector's `expected`
    oracle.py record VECTOR_DIR...      # write expected skills + oracle.txt from the host
    (run/check/record take --runs N: OpenCode's answer to a name clash varies between runs)

Discovery vectors go to the profile's host (opencode, codex, gemini, qwen-code, copilot-cli,
mistral-vibe, goose, openhands, cline); render vectors with format `codex`/`opencode`/`openhands` to its
prompt command; activate vectors with format `copilot-cli`, `goose` or `openhands` to that
host's skill tool (activation.py: Copilot CLI and Goose run against a scripted model, the
OpenHands SDK's own executor is called).

Only the standard library is used. Everything runs in a scratch copy of the vector's tree
with a temporary HOME and a cleared environment; network access is pointed at a closed
local port so a host that tries to phone home fails at once instead of hanging.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import activation  # noqa: E402
import keys  # noqa: E402
import matrix  # noqa: E402  (beside this file; the tool stays one command)

# Pinned host versions: the vectors record what exactly these versions do.
OPENCODE_VERSION = "1.18.33"
CODEX_VERSION = "0.169.0"
OPENSKILLS_VERSION = "1.5.0"
GEMINI_VERSION = "0.61.0"
QWEN_VERSION = "0.15.10"
COPILOT_VERSION = "1.0.102"
# Goose's native binary, published on npm by its project (the `goose` CLI, version 1.37.0).
GOOSE_PACKAGE = "@aaif/goose-binary-linux-x64"
GOOSE_PACKAGE_VERSION = "0.20.2"
GOOSE_VERSION = "1.37.0"
# Python hosts, installed from PyPI into a venv (they need Python >= 3.12).
VIBE_VERSION = "3.0.2"  # PyPI `mistral-vibe`
VENV_DIR = Path(os.environ.get("ORACLE_VENV", "/tmp/hosts3/venv"))
VENV_PYTHON_BASE = os.environ.get("ORACLE_PYTHON312", "python3.12")
CLINE_VERSION = "3.0.65"  # npm `cline`; its engine `@cline/core` 0.0.86
OPENHANDS_VERSION = "1.44.1"  # PyPI `openhands-sdk`
OPENHANDS_VENV = Path(os.environ.get("ORACLE_OPENHANDS_VENV", "/tmp/hosts5/venv"))

ORACLE_DIR = Path(os.environ.get("ORACLE_DIR", "/tmp/oracles"))
HOST_TIMEOUT = 120

# A closed port: connection refused immediately, so no host waits on the network.
DEAD_PROXY = "http://127.0.0.1:9"
OFFLINE_ENV = {
    "HTTP_PROXY": DEAD_PROXY,
    "HTTPS_PROXY": DEAD_PROXY,
    "http_proxy": DEAD_PROXY,
    "https_proxy": DEAD_PROXY,
    "ALL_PROXY": DEAD_PROXY,
    "npm_config_registry": DEAD_PROXY + "/",
    "npm_config_offline": "true",
    # Switches that only concern start-up chores, never skill discovery.
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
}

# Codex's scope names, mapped onto skilldeck's `Scope`. `system` (its bundled skills written
# to $CODEX_HOME/skills/.system on first start) is dropped: not ours to reproduce.
CODEX_SCOPES = {"repo": "project", "user": "user", "admin": "admin"}


def bin_path(name: str) -> Path:
    return ORACLE_DIR / "node_modules" / ".bin" / name


def install() -> None:
    ORACLE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            str(ORACLE_DIR),
            f"opencode-ai@{OPENCODE_VERSION}",
            f"@openai/codex@{CODEX_VERSION}",
            f"openskills@{OPENSKILLS_VERSION}",
            f"@google/gemini-cli@{GEMINI_VERSION}",
            f"@qwen-code/qwen-code@{QWEN_VERSION}",
            f"@github/copilot@{COPILOT_VERSION}",
            f"{GOOSE_PACKAGE}@{GOOSE_PACKAGE_VERSION}",
            f"cline@{CLINE_VERSION}",
        ],
        check=True,
    )
    for name in ("opencode", "codex", "openskills", "gemini", "qwen", "copilot", "cline"):
        out = subprocess.run(
            [str(bin_path(name)), "--version"], capture_output=True, text=True, timeout=60
        )
        print(f"{name}: {out.stdout.strip() or out.stderr.strip()}")
    out = subprocess.run([str(goose_bin()), "--version"], capture_output=True, text=True, timeout=60)
    print(f"goose: {out.stdout.strip()}")
    if not (VENV_DIR / "bin" / "python").exists():
        subprocess.run([VENV_PYTHON_BASE, "-m", "venv", str(VENV_DIR)], check=True)
    subprocess.run(
        [str(VENV_DIR / "bin" / "pip"), "install", "-q", f"mistral-vibe=={VIBE_VERSION}"],
        check=True,
    )
    out = subprocess.run(
        [str(VENV_DIR / "bin" / "python"), "-c", "import importlib.metadata as m; "
         "print(m.version('mistral-vibe'))"],
        capture_output=True, text=True, check=True,
    )
    print(f"mistral-vibe: {out.stdout.strip()}")
    # openhands-sdk pulls in a large dependency tree (fastmcp, litellm, ...): its own venv.
    if not (OPENHANDS_VENV / "bin" / "python").exists():
        subprocess.run([VENV_PYTHON_BASE, "-m", "venv", str(OPENHANDS_VENV)], check=True)
    subprocess.run(
        [str(OPENHANDS_VENV / "bin" / "pip"), "install", "-q", f"openhands-sdk=={OPENHANDS_VERSION}"],
        check=True,
    )
    out = subprocess.run(
        [str(OPENHANDS_VENV / "bin" / "python"), "-c", "import importlib.metadata as m; "
         "print(m.version('openhands-sdk'))"],
        capture_output=True, text=True, check=True,
    )
    print(f"openhands-sdk: {out.stdout.strip()}")


# ---------------------------------------------------------------------------------------------
# Materialising a vector (same steps as the conformance runners, tests/README.md)
# ---------------------------------------------------------------------------------------------


def load_case(vector: Path) -> dict:
    return json.loads((vector / "case.json").read_text())


def materialise(vector: Path, case: dict, scratch: Path) -> Path:
    """Copy tree/ and apply setup. A `.git` directory becomes `git init`: OpenCode only
    accepts a directory as the repository root when `git rev-parse` succeeds there (an empty
    `.git` makes it walk on to `/`), while the runners can only create an empty `.git`.
    ORACLE_EMPTY_GIT=1 keeps the empty directory, to compare the two."""
    tree = scratch / "t"
    if (vector / "tree").is_dir():
        shutil.copytree(vector / "tree", tree, symlinks=True)
    else:
        tree.mkdir()
    tree = tree.resolve()
    setup = case.get("setup") or {}
    for rel in setup.get("mkdir", []):
        path = tree / rel
        if path.name == ".git" and not os.environ.get("ORACLE_EMPTY_GIT"):
            path.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "init", "-q", str(path.parent)], check=True)
        else:
            path.mkdir(parents=True, exist_ok=True)
    for link in setup.get("symlinks", []):
        at = tree / link["link"]
        at.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(link["target"], at)
    return tree


def deck_paths(tree: Path, deck: dict) -> tuple[Path, Path, dict]:
    project = tree / deck.get("project_dir", "project")
    home = tree / deck.get("home_dir", "home")
    # A host needs its cwd to exist even when the vector's tree has nothing in it.
    project.mkdir(parents=True, exist_ok=True)
    env = {k: str(v).replace("<tree>", str(tree)) for k, v in (deck.get("env") or {}).items()}
    return project, home, env


def host_env(home: Path, extra: dict) -> dict:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
    }
    env.update(OFFLINE_ENV)
    env.update(extra)
    return env


def normalise(value, tree: Path):
    if isinstance(value, str):
        return value.replace(str(tree), "<tree>")
    if isinstance(value, list):
        return [normalise(v, tree) for v in value]
    if isinstance(value, dict):
        return {k: normalise(v, tree) for k, v in value.items()}
    return value


# ---------------------------------------------------------------------------------------------
# Hosts
# ---------------------------------------------------------------------------------------------


def run_host(cmd: list, project: Path, home: Path, env: dict, what: str):
    """Run a host command in the project with the oracle's environment; a failure raises."""
    out = subprocess.run(
        cmd,
        cwd=project,
        env=host_env(home, env),
        capture_output=True,
        text=True,
        timeout=HOST_TIMEOUT,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{what} failed ({out.returncode}): {out.stderr[-2000:]}")
    return out


def run_opencode(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    cmd = [str(bin_path("opencode")), "debug", "skill", "--pure"]
    out = run_host(cmd, project, home, env, "opencode")
    skills = []
    for item in json.loads(out.stdout):
        if item.get("location") == "<built-in>":
            continue  # customize-opencode, compiled into the binary
        skill = {"name": item["name"], "location": item["location"]}
        if "description" in item:
            skill["description"] = item["description"]
        skills.append(skill)
    # `debug skill` prints skills in the order their parses finished (concurrent, so not
    # stable); the host's own listing (`Skill.available`, the prompt) sorts by name. When
    # every skill sits in one skills root, source order is path order, which is how the
    # profile lists them (the broken-file matrix, whose names are not in path order).
    roots = {str(Path(s["location"]).parent.parent) for s in skills}
    skills.sort(key=lambda s: s["location"] if len(roots) == 1 else s["name"])
    return {
        "host": f"opencode {OPENCODE_VERSION}",
        "command": "opencode debug skill --pure",
        "skills": skills,
        "errors": [],
    }


def codex_rpc(project: Path, env: dict, requests: list[dict]) -> dict:
    """Speak JSON-RPC (one object per line) to `codex app-server`; returns responses by id."""
    proc = subprocess.Popen(
        [str(bin_path("codex")), "app-server"],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    responses: dict = {}
    # Reading stdout blocks; a watchdog kills a host that never answers.
    watchdog = threading.Timer(HOST_TIMEOUT, proc.kill)
    watchdog.start()
    try:
        assert proc.stdin and proc.stdout
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"clientInfo": {"name": "skilldeck-oracle", "version": "0.1"}},
        }
        proc.stdin.write(json.dumps(init) + "\n")
        proc.stdin.flush()
        wanted = {0}
        sent_rest = False
        for line in proc.stdout:
            msg = json.loads(line)
            if "id" in msg and msg["id"] in wanted:
                responses[msg["id"]] = msg
                wanted.discard(msg["id"])
            if 0 in responses and not sent_rest:
                sent_rest = True
                proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "initialized"}) + "\n")
                for req in requests:
                    wanted.add(req["id"])
                    proc.stdin.write(json.dumps({"jsonrpc": "2.0", **req}) + "\n")
                proc.stdin.flush()
            if sent_rest and not wanted:
                break
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait(timeout=30)
    return responses


def run_codex(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    params = {"cwds": [str(project)], "forceReload": True}
    responses = codex_rpc(
        project, host_env(home, env), [{"id": 1, "method": "skills/list", "params": params}]
    )
    resp = responses.get(1)
    if not resp or "result" not in resp:
        raise RuntimeError(f"codex skills/list failed: {resp}")
    skills, errors = [], []
    for entry in resp["result"]["data"]:
        for item in entry["skills"]:
            if item["scope"] == "system":
                continue
            skills.append(
                {
                    "name": item["name"],
                    "description": item["description"],
                    "location": item["path"],
                    "scope": CODEX_SCOPES.get(item["scope"], item["scope"]),
                    "enabled": item.get("enabled"),
                }
            )
        errors.extend({"path": e["path"], "message": e["message"]} for e in entry["errors"])
    return {
        "host": f"codex {CODEX_VERSION}",
        "command": "codex app-server: initialize, initialized, skills/list "
        + json.dumps({"cwds": ["<project>"], "forceReload": True}),
        "skills": skills,
        "errors": errors,
    }


def run_codex_prompt(tree: Path, deck: dict) -> dict:
    """The skills section of Codex's model-visible prompt. Its bundled skills are switched
    off (`skills.bundled.enabled=false`) so the section holds only the tree's skills."""
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    cmd = [str(bin_path("codex")), "debug", "prompt-input", "-c", "skills.bundled.enabled=false"]
    out = run_host(cmd, project, home, env, "codex debug prompt-input")
    texts = [
        part.get("text", "")
        for item in json.loads(out.stdout)
        for part in item.get("content", [])
        if "<skills_instructions>" in part.get("text", "")
    ]
    text = texts[0] if texts else ""
    # Entry lines are `- name: description (file: ...)`; their order is the render order.
    section = text.split("### Available skills\n", 1)[-1] if text else ""
    included = [line[2:].split(":", 1)[0] for line in section.splitlines() if line.startswith("- ")]
    return {
        "host": f"codex {CODEX_VERSION}",
        "command": " ".join(["codex"] + cmd[1:]),
        "text": text,
        "included": included,
    }


def opencode_prompt_code() -> str:
    """OpenCode's own prompt code, cut out of its binary (a Bun bundle with readable JS):
    the skills formatter, the XML escape it calls, and the two intro lines that
    `SystemPrompt.skills` puts before the list."""
    data = (ORACLE_DIR / "node_modules/opencode-ai/bin/opencode.exe").read_bytes()
    fmt = re.search(
        rb"function ([\w$]+)\(j,J\)\{let K=j\.filter\(\(z\)=>z\.description!==void 0\).*?\}(?=var )",
        data,
        re.S,
    )
    esc = re.search(rb'function ([\w$]+)\(j\)\{return j\.replaceAll\("&","&amp;"\)[^}]*\}', data)
    intro = re.search(
        rb'\["(Skills provide[^"]*)","(Use the skill tool[^"]*)",[\w$]+\.fmt\([\w$]+,\{verbose:!0\}\)\]',
        data,
    )
    if not (fmt and esc and intro):
        raise RuntimeError("OpenCode's skill prompt code was not found in its binary")
    lines = json.dumps([intro.group(1).decode(), intro.group(2).decode()])
    return (
        esc.group(0).decode()
        + "\n"
        + fmt.group(0).decode()
        + "\nconst skills = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        + f"process.stdout.write([...{lines}, {fmt.group(1).decode()}(skills, {{verbose: true}})]"
        + ".join('\\n'));\n"
    )


def run_opencode_prompt(tree: Path, deck: dict) -> dict:
    """OpenCode's system-prompt skills block for the skills `debug skill` finds, rendered by
    the host's own formatter code run under node (no OpenCode command prints the prompt
    offline). Its built-in customize-opencode skill is left out, as in discovery."""
    found = run_opencode(tree, deck)
    skills = [
        {k: s[k] for k in ("name", "description", "location") if k in s}
        for s in found["skills"]
    ]
    out = subprocess.run(
        ["node", "-e", opencode_prompt_code()],
        input=json.dumps(skills),
        capture_output=True,
        text=True,
        timeout=HOST_TIMEOUT,
        check=True,
    )
    included = sorted((s["name"] for s in skills if "description" in s))
    return {
        "host": f"opencode {OPENCODE_VERSION}",
        "command": "opencode debug skill --pure, then the host's SystemPrompt.skills "
        "formatter (extracted from its binary) under node",
        "text": out.stdout,
        "included": included,
    }


# Gemini CLI prints `skills list` entries as `NAME [Enabled]` (` [Built-in]` for the skills in
# its package), then `  Description: ...` and `  Location:    /abs/SKILL.md`, and a blank line.
# A description may span lines, so an entry ends at its Location line.
GEMINI_ENTRY = re.compile(
    r"(?P<name>.*?) \[(?P<status>Enabled|Disabled)\](?P<builtin> \[Built-in\])?\n"
    r"  Description: (?P<description>.*?)\n"
    r"  Location:    (?P<location>/[^\n]*)\n\n",
    re.S,
)


def sort_skills(skills: list[dict]) -> None:
    """Path order (component by component, as skilldeck walks a root) when every skill is in
    one skills root, else name order."""
    roots = {str(Path(s["location"]).parent.parent) for s in skills}
    if len(roots) == 1:
        skills.sort(key=lambda s: Path(s["location"]).parts)
    else:
        skills.sort(key=lambda s: s["name"])


def gemini_home(home: Path, env: dict) -> Path:
    """Where Gemini CLI keeps its user files: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`."""
    return Path(env.get("GEMINI_CLI_HOME") or home) / ".gemini"


def run_gemini(tree: Path, deck: dict) -> dict:
    """`gemini skills list --all`. Workspace skills are read only in a trusted folder: the
    run trusts the project dir in `~/.gemini/trustedFolders.json` (as the host's "trust this
    folder" dialog does), unless the vector's env decides trust itself
    (`GEMINI_CLI_TRUST_WORKSPACE`)."""
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    trust = gemini_home(home, env) / "trustedFolders.json"
    if not trust.exists():
        trust.parent.mkdir(parents=True, exist_ok=True)
        trust.write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    cmd = [str(bin_path("gemini")), "skills", "list", "--all"]
    out = run_host(cmd, project, home, env, "gemini")
    text = out.stdout
    if text.strip() != "No skills discovered.":
        text = text.split("Discovered Agent Skills:\n\n", 1)[1]
    skills = []
    for m in GEMINI_ENTRY.finditer(text):
        if m["builtin"]:
            continue  # skill-creator etc., shipped in the package's bundle/builtin
        location = m["location"]
        scope = "project" if location.startswith(str(project) + os.sep) else "user"
        skill = {
            "name": m["name"],
            "description": m["description"],
            "location": location,
            "scope": scope,
        }
        if m["status"] == "Disabled":
            skill["enabled"] = False
        skills.append(skill)
    # `skills list` sorts by name (localeCompare); skilldeck lists in precedence order. As
    # for OpenCode: path order within one root, else name order (vectors choose names so
    # that name order and precedence order agree).
    sort_skills(skills)
    warnings = [line for line in out.stderr.splitlines() if "Skill conflict" in line]
    return {
        "host": f"gemini-cli {GEMINI_VERSION}",
        "command": "gemini skills list --all (project trusted in ~/.gemini/trustedFolders.json)",
        "skills": skills,
        "errors": [{"path": "", "message": w} for w in warnings],
    }


# Qwen Code has no offline command that prints skills with their paths (`/skills` is
# interactive only; `-p` needs a model). The oracle runs the host's own SkillManager from its
# bundle: cli.js up to its `main()` call, then a few lines that build the manager with a
# config whose project root is the cwd (as `loadCliConfig` sets it) and print `listSkills()`
# and `getParseErrors()`. Nothing of the loader is re-implemented.
QWEN_DRIVER = r"""
// ---- skilldeck oracle: the host's own SkillManager, without the CLI ----
init_skill_manager();
{
  const root = process.cwd();
  const config = {
    getProjectRoot: () => root,
    getBareMode: () => false,
    getActiveExtensions: () => [],
    getModelInvocableCommandsProvider: () => null,
    getGeminiClient: () => null,
  };
  const manager = new SkillManager(config);
  const skills = await manager.listSkills({ force: true });
  const errors = [...manager.getParseErrors()].map(([path, e]) => ({ path, message: e.message }));
  process.stdout.write(JSON.stringify({
    skills: skills.map((s) => ({ name: s.name, description: s.description, location: s.filePath, level: s.level })),
    errors,
  }));
  process.exit(0);
}
"""


def qwen_driver() -> Path:
    """The Qwen Code bundle with the driver in place of its `main()` call (cached)."""
    cli = ORACLE_DIR / "node_modules" / "@qwen-code" / "qwen-code" / "cli.js"
    driver = ORACLE_DIR / "skilldeck-qwen-skills.mjs"
    if driver.exists() and driver.stat().st_mtime >= cli.stat().st_mtime:
        return driver
    src = cli.read_text(encoding="utf-8")
    cut = src.rindex("main().catch((error40) => {")
    driver.write_text(src[:cut] + QWEN_DRIVER, encoding="utf-8")
    return driver


QWEN_SCOPES = {"project": "project", "user": "user"}


def run_qwen(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    out = run_host(["node", str(qwen_driver())], project, home, env, "qwen loader")
    answer = json.loads(out.stdout)
    skills = []
    for item in answer["skills"]:
        if item["level"] not in QWEN_SCOPES:
            continue  # bundled skills (review, loop, ...) shipped in the package
        skills.append(
            {
                "name": item["name"],
                "description": item["description"],
                "location": item["location"],
                "scope": QWEN_SCOPES[item["level"]],
            }
        )
    # listSkills() sorts by name (localeCompare); see run_gemini for the order kept here.
    sort_skills(skills)
    return {
        "host": f"qwen-code {QWEN_VERSION}",
        "command": "node: the host's SkillManager.listSkills() from its cli.js bundle "
        "(project root = cwd)",
        "skills": skills,
        "errors": sorted(answer["errors"], key=lambda e: e["path"]),
    }


# Copilot CLI's `skill list --json` gives name, description, source and the skill's directory;
# files it could not load are listed on stderr as `• <path relative to the cwd>: <message>`.
# Its sources: `project` (the project dir's roots), `inherited` (the same roots in a parent
# dir), `personal-copilot`/`personal-agents` (~/.copilot, ~/.agents), `custom`
# (COPILOT_SKILLS_DIRS, `skill add`), `plugin` and `builtin` (shipped in its package: dropped).
COPILOT_SCOPES = {
    "project": "project",
    "inherited": "project",
    "personal-copilot": "user",
    "personal-agents": "user",
    "custom": "user",
}
COPILOT_ERROR = re.compile(r"^\s*• (?P<path>.+?): (?P<message>.*)$")


def run_copilot(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    out = run_host([str(bin_path("copilot")), "skill", "list", "--json"], project, home, env, "copilot")
    skills = []
    for item in json.loads(out.stdout):
        if item["source"] not in COPILOT_SCOPES:
            continue  # builtin (customize-cloud-agent, ...) and plugin skills
        skill = {
            "name": item["name"],
            "description": item["description"],
            "location": str(Path(item["path"]) / "SKILL.md"),
            "scope": COPILOT_SCOPES[item["source"]],
        }
        if not item.get("enabled", True):
            skill["enabled"] = False
        skills.append(skill)
    # The host lists skills in precedence order (sources, then path order in a root).
    errors = []
    for line in out.stderr.splitlines():
        m = COPILOT_ERROR.match(line)
        if m:
            path = m["path"] if m["path"].startswith("/") else str(project / m["path"])
            errors.append({"path": path, "message": m["message"]})
    return {
        "host": f"copilot-cli {COPILOT_VERSION}",
        "command": "copilot skill list --json",
        "skills": skills,
        "errors": sorted(errors, key=lambda e: e["path"]),
    }


# Mistral Vibe has no command that lists skills without a model; the oracle runs the host's
# own `SkillManager` (vibe/core/skills/manager.py) under the venv's python: a
# HarnessFilesManager with both sources and the cwd as the project (trusted, as after the
# host's trust prompt), an empty config (no `skill_paths`, no enabled/disabled globs, no
# registry), and prints what it discovered plus its per-file issues. Built-in skills
# (`vibe`, `skill-creator`) are dropped from the answer; their names stay reserved.
VIBE_DRIVER = r"""
import json, sys
from pathlib import Path
from types import SimpleNamespace
from vibe.core.config.harness_files import HarnessFilesManager
from vibe.core.skills.manager import SkillManager
from vibe.core.skills.models import SkillSource

class Trusted:
    def is_trusted(self, path):
        return True
    def find_trust_root(self, path):
        return None

config = SimpleNamespace(
    skill_paths=[], enabled_skills=[], disabled_skills=[],
    experimental_enable_registry_skills=False,
)
harness = HarnessFilesManager(sources=("user", "project"), cwd=Path.cwd(), trust_store=Trusted())
manager = SkillManager(lambda: config, harness_files=harness)
from vibe.utils.io import read_safe
skills = [
    {"name": s.name, "description": s.description, "location": str(s.skill_path),
     "scope": str(s.scope), "encoding": read_safe(s.skill_path).encoding}
    for s in manager.available_skills.values() if s.source is not SkillSource.BUILTIN
]
errors = [{"path": str(i.file), "message": i.message} for i in manager.config_issues]
json.dump({"skills": skills, "errors": errors}, sys.stdout)
"""

VIBE_SCOPES = {"project": "project", "global": "user"}


def run_vibe(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    out = run_host([str(VENV_DIR / "bin" / "python"), "-c", VIBE_DRIVER], project, home, env, "vibe loader")
    answer = json.loads(out.stdout)
    skills = []
    for s in answer["skills"]:
        skill = {
            "name": s["name"],
            "description": s["description"],
            "location": s["location"],
            "scope": VIBE_SCOPES[s["scope"]],
        }
        if s["encoding"].lower() not in ("utf-8", "utf-8-sig"):
            # read_safe: not UTF-8, so a BOM's UTF-16/32 or charset_normalizer's guess
            # (see DECODED_ELSEWHERE).
            skill["decoded"] = s["encoding"]
        skills.append(skill)
    # available_skills is in discovery order (roots in precedence order, each root in
    # `iterdir` order, which the file system decides); as for the other hosts: path order
    # within one root, else name order.
    sort_skills(skills)
    return {
        "host": f"mistral-vibe {VIBE_VERSION}",
        "command": "python: the host's SkillManager(...).available_skills (vibe/core/skills/"
        "manager.py), project = cwd, trusted, empty config",
        "skills": skills,
        "errors": sorted(answer["errors"], key=lambda e: e["path"]),
    }


# OpenHands has no command that lists skills without a model and a conversation; the oracle
# calls the SDK's own loaders (openhands/sdk/skills/skill.py) under the venv's python:
# `load_project_skills(cwd)` then `load_user_skills()`, merged as `load_available_skills`
# merges them (a project skill beats a user skill of the same name). HOME is the vector's
# home, set before the import (USER_SKILLS_DIRS is computed at import time). The host's
# warnings ("Failed to load skill from PATH: ...", "Failed to load project skills from DIR:
# ...") are caught from its logger and reported as errors.
OPENHANDS_DRIVER = r"""
import json, logging, os, re, sys
from pathlib import Path

class Catch(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []
    def emit(self, record):
        self.records.append(record.getMessage())

catch = Catch()
from openhands.sdk.skills.skill import (
    USER_SKILLS_DIRS, Skill, _find_git_repo_root, load_project_skills, load_user_skills,
)
# Every message of the skills package reaches the `openhands` logger (or the root logger,
# when the SDK turned propagation off on the way): one handler on the first that hears it.
logging.getLogger("openhands.sdk.skills").addHandler(catch)
logging.getLogger("openhands.sdk.skills").setLevel(logging.WARNING)
logging.getLogger("openhands.sdk.skills").propagate = False

def skill_dirs(project):
    # The roots load_project_skills and load_user_skills read: a skill found elsewhere is
    # one of the third-party instruction files of the work dir or git root (AGENTS.md,
    # .cursorrules, ... and the nested ones, which become path rules), not reproduced.
    git = _find_git_repo_root(project)
    bases = [project] + ([git] if git is not None and git != project else [])
    dirs = [b / sub for b in bases for sub in (".agents/skills", ".openhands/skills", ".openhands/microagents")]
    return dirs + list(USER_SKILLS_DIRS)

def listing(project, user):
    catch.records.clear()
    skills, seen = [], set()
    scopes = [("project", load_project_skills(project))]
    if user:
        scopes.append(("user", load_user_skills()))
    roots = skill_dirs(project)
    for scope, loaded in scopes:
        for s in loaded:
            if s.name in seen:
                continue
            seen.add(s.name)
            # AgentContext._partition_skills: listed in <available_skills> unless always on
            # (a legacy file without trigger) or model invocation is off (path rules).
            listed = (s.is_agentskills_format or s.trigger is not None) and not s.disable_model_invocation
            skills.append({"name": s.name, "description": s.description, "location": s.source,
                           "scope": scope, "agentskills": s.is_agentskills_format,
                           "type": s.get_skill_type(), "listed": listed,
                           "third_party": not any(Path(s.source or "").is_relative_to(d) for d in roots)})
    errors = []
    for message in catch.records:
        m = re.match(r"Failed to load (?:skill|third-party skill) from (.+?): (.*)$", message, re.S)
        if m:
            errors.append({"path": m.group(1), "message": m.group(2)})
            continue
        m = re.match(r"Failed to load (project|user) skills from (.+?): (.*)$", message, re.S)
        if m:
            errors.append({"path": m.group(2), "message": "whole directory dropped: " + m.group(3)})
    return {"skills": skills, "errors": errors}

if len(sys.argv) > 1:
    # Isolated runs (oracle.py diff): one project per argument, no user skills.
    json.dump([listing(Path(p), False) for p in sys.argv[1:]], sys.stdout)
else:
    json.dump(listing(Path.cwd(), True), sys.stdout)
"""


def run_openhands(tree: Path, deck: dict, isolated: list[Path] | None = None):
    """The host's answer for the vector's project; with `isolated`, one answer per listed
    project directory instead (project skills only)."""
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    # LiteLLM (imported by the SDK) fetches a model price list at import unless told to use
    # its bundled copy; offline that costs three retries. Neither affects skills.
    env = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENHANDS_SUPPRESS_BANNER": "1", **env}
    out = run_host(
        [str(OPENHANDS_VENV / "bin" / "python"), "-c", OPENHANDS_DRIVER, *map(str, isolated or [])],
        project, home, env, "openhands loader",
    )
    answer = json.loads(out.stdout)
    if isolated:
        return [openhands_listing(a) for a in answer]
    return openhands_listing(answer)


def openhands_listing(answer: dict) -> dict:
    skills = []
    for s in answer["skills"]:
        if s["third_party"]:
            # AGENTS.md, .cursorrules, claude.md, ... in the cwd or git root (and below the
            # cwd: path rules): instructions outside the skill roots, not reproduced
            # (ORACLES.md). The same names inside a skill root are legacy skills, kept.
            continue
        skill = {"name": s["name"], "location": s["location"], "scope": s["scope"]}
        if s["description"] is not None:
            skill["description"] = s["description"]
        skill["model_invocable"] = s["listed"]
        skills.append(skill)
    # Kept in the host's order: roots in precedence order; within a root the legacy files
    # without triggers, then those with triggers, then the SKILL.md skills, each in path order.
    return {
        "host": f"openhands-sdk {OPENHANDS_VERSION}",
        "command": "python: the host's load_project_skills(cwd) then load_user_skills() "
        "(openhands/sdk/skills/skill.py), first name wins",
        "skills": skills,
        "errors": sorted(answer["errors"], key=lambda e: e["path"]),
    }


# OpenHands' system prompt holds its skills as `<available_skills>`: the driver loads the
# skills as OPENHANDS_DRIVER does (project then user, first name wins), hands them to the
# SDK's own AgentContext and prints `_resolve_dynamic_data().available_skills_prompt`, which
# partitions them (AgentSkills-format and triggered skills are listed unless model
# invocation is off) and calls `to_prompt` (openhands/sdk/skills/skill.py). The empty list
# goes to `to_prompt` directly: AgentContext then leaves the whole <SKILLS> section out.
OPENHANDS_PROMPT = r"""
import json, sys
from pathlib import Path
from openhands.sdk.context.agent_context import AgentContext
from openhands.sdk.skills.skill import Skill, load_project_skills, load_user_skills, to_prompt

from openhands.sdk.skills.skill import USER_SKILLS_DIRS, _find_git_repo_root

# Third-party instruction files outside the skill roots (AGENTS.md, ... of the work dir and
# git root, nested ones as path rules) are not reproduced: left out as in OPENHANDS_DRIVER.
cwd = Path.cwd()
git = _find_git_repo_root(cwd)
bases = [cwd] + ([git] if git is not None and git != cwd else [])
roots = [b / sub for b in bases for sub in (".agents/skills", ".openhands/skills", ".openhands/microagents")]
roots += list(USER_SKILLS_DIRS)
skills, seen = [], set()
for s in [*load_project_skills(cwd), *load_user_skills()]:
    if s.name in seen or not any(Path(s.source or "").is_relative_to(d) for d in roots):
        continue
    seen.add(s.name)
    skills.append(s)
context = AgentContext(skills=skills)
data = context._resolve_dynamic_data()
_, listed = context._partition_skills()
text = data.available_skills_prompt or to_prompt([])
json.dump({"text": text, "included": [s.name for s in listed]}, sys.stdout)
"""


def run_openhands_prompt(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    env = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENHANDS_SUPPRESS_BANNER": "1", **env}
    out = run_host(
        [str(OPENHANDS_VENV / "bin" / "python"), "-c", OPENHANDS_PROMPT],
        project, home, env, "openhands to_prompt",
    )
    answer = json.loads(out.stdout)
    return {
        "host": f"openhands-sdk {OPENHANDS_VERSION}",
        "command": "python: the host's load_project_skills(cwd) + load_user_skills(), first name "
        "wins, then AgentContext(skills=...)._resolve_dynamic_data().available_skills_prompt "
        "(to_prompt in openhands/sdk/skills/skill.py)",
        "text": answer["text"],
        # In the host's order, which is the order of the text (skilldeck's report too).
        "included": answer["included"],
    }


def goose_bin() -> Path:
    return ORACLE_DIR / "node_modules" / GOOSE_PACKAGE / "bin" / "goose"


def run_goose(tree: Path, deck: dict) -> dict:
    """Goose's own source listing (`list_sources` in crates/goose/src/sources/mod.rs, which
    calls `discover_skills`), asked over ACP: `goose acp` with the custom request
    `_goose/unstable/sources/list` for type `skill`. It answers with every skill's name,
    description, body and directory; built-in skills are a separate type and not listed."""
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": 1, "clientCapabilities": {}}},
        {"jsonrpc": "2.0", "id": 1, "method": "_goose/unstable/sources/list",
         "params": {"type": "skill", "projectDir": str(project)}},
    ]
    proc = subprocess.Popen(
        [str(goose_bin()), "acp"], cwd=project, env=host_env(home, env),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    timer = threading.Timer(HOST_TIMEOUT, proc.kill)
    timer.start()
    try:
        assert proc.stdin and proc.stdout
        answer = None
        for request in requests:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            for line in proc.stdout:
                message = json.loads(line)
                if message.get("id") == request["id"]:
                    if "error" in message:
                        raise RuntimeError(f"goose acp: {message['error']}")
                    answer = message["result"]
                    break
            else:
                raise RuntimeError(f"goose acp ended early: {proc.stderr.read()[-2000:] if proc.stderr else ''}")
        # `goose acp` stays up after its input closes; the answer is in, so it is stopped.
        proc.stdin.close()
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
    skills = [
        {
            "name": s["name"],
            "description": s["description"],
            "location": str(Path(s["path"]) / "SKILL.md"),
            "scope": "user" if s["global"] else "project",
        }
        for s in answer["sources"]
    ]
    # Kept in the host's order: `list_sources` sorts by name.
    return {
        "host": f"goose {GOOSE_VERSION} ({GOOSE_PACKAGE}@{GOOSE_PACKAGE_VERSION})",
        "command": "goose acp: initialize, then _goose/unstable/sources/list {type: skill, "
        "projectDir: the project}",
        "skills": skills,
        # Goose logs why it skips a file (tracing `warn!`) but does not answer with it.
        "errors": [],
    }


# Cline lists skills only inside a session (TUI, or `config`, which needs a terminal); the
# oracle runs the CLI's own loading code from the engine package it ships (`@cline/core`, the
# same code bundled into its binary): `createUserInstructionConfigService` with the options
# the CLI passes (`skills: {workspacePath, includePluginSkills: true, cwd}`), started once,
# then `listRecords("skill")`; the loader's per-file errors come from its watcher
# (`emitParseErrors`). A skill with `disabled: true` (or `enabled: false`) stays in the host's
# records (its `skills` tool answers "configured but disabled"), so it is listed here too;
# skilldeck lists it with its status switched off.
CLINE_DRIVER = r"""
const core = await import(process.env.SKILLDECK_CLINE_CORE);
const root = process.cwd();
const service = core.createUserInstructionConfigService({
  skills: { workspacePath: root, includePluginSkills: true, cwd: root },
  rules: { workspacePath: root },
  workflows: { workspacePath: root },
  emitParseErrors: true,
});
const errors = [];
service.watcher.subscribe((e) => {
  if (e.kind === "error" && e.type === "skill")
    errors.push({ path: e.filePath, message: e.error instanceof Error ? e.error.message : String(e.error) });
});
await service.start();
const skills = service.listRecords("skill").map((r) => ({
  name: r.item.name, description: r.item.description ?? null,
  disabled: r.item.disabled === true, location: r.filePath,
}));
process.stdout.write(JSON.stringify({ skills, errors }));
process.exit(0);
"""


def run_cline(tree: Path, deck: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    core = ORACLE_DIR / "node_modules" / "@cline" / "core" / "dist" / "index.js"
    env = {**env, "SKILLDECK_CLINE_CORE": str(core)}
    out = run_host(["node", "--input-type=module", "-e", CLINE_DRIVER], project, home, env, "cline loader")
    answer = json.loads(out.stdout)
    user = str(home)
    skills = []
    for s in answer["skills"]:
        skill = {
            "name": s["name"],
            "location": s["location"],
            "scope": "user" if s["location"].startswith(user + "/") else "project",
            # `disabled: true` / `enabled: false` as the host read them (`check` compares
            # it with a vector's `status.enabled` where the vector names one).
            "enabled": not s["disabled"],
        }
        if s["description"] is not None:
            skill["description"] = s["description"]
        skills.append(skill)
    # The host's records keep its map's order (a name's first appearance); the list it offers
    # the model is sorted by name, as skilldeck's `order = "id"` sorts (code point order).
    skills.sort(key=lambda s: s["name"])
    return {
        "host": f"cline {CLINE_VERSION}",
        "command": "node: the host's createUserInstructionConfigService(...).listRecords(\"skill\") "
        "(@cline/core, workspace = cwd)",
        "skills": skills,
        "errors": sorted(answer["errors"], key=lambda e: e["path"]),
    }


HOSTS = {
    "cline": run_cline,
    "goose": run_goose,
    "opencode": run_opencode,
    "codex": run_codex,
    "gemini": run_gemini,
    "qwen-code": run_qwen,
    "copilot-cli": run_copilot,
    "mistral-vibe": run_vibe,
    "openhands": run_openhands,
}
RENDERERS = {
    "codex": run_codex_prompt,
    "opencode": run_opencode_prompt,
    "openhands": run_openhands_prompt,
}


def activate_copilot(tree: Path, deck: dict, skill: str, options: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    result = activation.copilot_activation(bin_path("copilot"), project, host_env(home, env), skill)
    result["host"] = f"copilot-cli {COPILOT_VERSION}"
    return result


def activate_openhands(tree: Path, deck: dict, skill: str, options: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    env = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENHANDS_SUPPRESS_BANNER": "1", **env}
    python = OPENHANDS_VENV / "bin" / "python"
    result = activation.openhands_activation(python, project, host_env(home, env), skill)
    result["host"] = f"openhands-sdk {OPENHANDS_VERSION}"
    return result


def activate_goose(tree: Path, deck: dict, skill: str, options: dict) -> dict:
    project, home, env = deck_paths(tree, deck)
    home.mkdir(parents=True, exist_ok=True)
    result = activation.goose_activation(
        goose_bin(), project, host_env(home, env), skill, options.get("args", "")
    )
    result["host"] = f"goose {GOOSE_VERSION}"
    return result


# Activate vectors go to the host of their activation format.
ACTIVATORS = {
    "copilot-cli": activate_copilot,
    "openhands": activate_openhands,
    "goose": activate_goose,
}


class NoOracle(Exception):
    """The vector's profile or format has no runner here."""


def run_vector(vector: Path, runs: int = 1) -> tuple[dict, list[dict]]:
    """Run the host `runs` times, each on a fresh copy of the tree: OpenCode parses skill
    files concurrently and lets the last finished parse win a name clash, so one run is not
    always the whole story."""
    case = load_case(vector)
    deck = case["input"]["deck"]
    if case["operation"] == "render":
        fmt = case["input"].get("render", {}).get("format", "xml")
        host = RENDERERS.get(fmt)
        if host is None:
            raise NoOracle(f"no oracle for render format `{fmt}`")
    elif case["operation"] == "activate":
        options = case["input"].get("activate") or {}
        fmt = options.get("format", "raw")
        activator = ACTIVATORS.get(fmt)
        if activator is None:
            raise NoOracle(f"no oracle for activation format `{fmt}`")

        def host(tree, deck, activator=activator, options=options):
            return activator(tree, deck, case["input"]["id"], options)
    else:
        profile = deck.get("profile", "universal")
        host = HOSTS.get(profile)
        if host is None:
            raise NoOracle(f"no oracle for profile `{profile}`")
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="skilldeck-oracle-") as scratch:
            tree = materialise(vector, case, Path(scratch))
            results.append(normalise(host(tree, deck), tree))
    return case, results


def outcomes(results: list[dict]) -> list[tuple[dict, int]]:
    """Distinct answers among several runs, with how often each came up (most common first)."""
    seen: dict[str, list] = {}
    for r in results:
        if "text" in r:
            key = r["text"]
        elif "error" in r:
            key = json.dumps(r["error"])
        else:
            key = json.dumps([(s["name"], s["location"]) for s in r["skills"]])
        seen.setdefault(key, [r, 0])[1] += 1
    return sorted(((r, n) for r, n in seen.values()), key=lambda item: -item[1])


# ---------------------------------------------------------------------------------------------
# Comparing with and recording into vectors
# ---------------------------------------------------------------------------------------------


def expected_skill_view(result: dict) -> list[dict]:
    """What the host pins down, in the fields a vector may name."""
    return [
        {k: s.get(k) for k in ("name", "location", "description")} for s in result["skills"]
    ]


def compare(case: dict, result: dict) -> list[str]:
    if case["operation"] == "activate" and "error" in result:
        want = case.get("expected", {}).get("error", {}).get("code")
        if want == result["error"]["code"]:
            return []
        return [f"host answers {result['error']}, vector expects {want or 'a text'}"]
    if "text" in result:
        expected_text = case.get("expected", {}).get("text")
        if expected_text == result["text"]:
            return []
        return [f"text differs:\n--- vector\n{expected_text}\n--- host\n{result['text']}"]
    problems = []
    expected = case.get("expected", {}).get("skills")
    if expected is None:
        return ["vector has no expected.skills"]
    # The real hosts read /etc/codex etc. from the real root, which the oracle must not
    # touch; skills a vector places under <tree>/etc cannot be checked here.
    unreachable = [s for s in expected if str(s.get("location", "")).startswith("<tree>/etc/")]
    if unreachable:
        print(f"         note: {len(unreachable)} expected skill(s) under <tree>/etc not checked")
        expected = [s for s in expected if s not in unreachable]
    got = expected_skill_view(result)
    if len(expected) != len(got):
        problems.append(f"host finds {len(got)} skills, vector expects {len(expected)}")
    for i, (exp, act) in enumerate(zip(expected, got)):
        for key in ("name", "location", "description"):
            if key in exp and exp[key] != act.get(key):
                problems.append(f"skills[{i}].{key}: vector {exp[key]!r}, host {act.get(key)!r}")
        host_enabled = result["skills"][i].get("enabled")
        exp_enabled = exp.get("status", {}).get("enabled")
        if host_enabled is not None and exp_enabled is not None and exp_enabled != host_enabled:
            problems.append(f"skills[{i}].status.enabled: vector {exp_enabled}, host {host_enabled}")
        host_listed = result["skills"][i].get("model_invocable")
        exp_listed = exp.get("status", {}).get("model_invocable", True)
        if host_listed is not None and exp_listed != host_listed:
            problems.append(f"skills[{i}].status.model_invocable: vector {exp_listed}, host {host_listed}")
        host_scope = result["skills"][i].get("scope")
        if host_scope and "scope" in exp and exp["scope"] != host_scope:
            problems.append(f"skills[{i}].scope: vector {exp['scope']!r}, host {host_scope!r}")
    return problems


def oracle_text(results: list[dict]) -> str:
    distinct = outcomes(results)
    first = distinct[0][0]
    if "tool_answer" in first and first.get("text") == first["tool_answer"]:
        return "\n".join(
            [
                f"host: {first['host']}",
                f"command: {first['command']}",
                "environment: as for discovery (temporary HOME, cwd = project dir, offline).",
                "the skill tool's answer (the expected text), verbatim:",
                first["text"],
            ]
        ) + "\n"
    if "tool_answer" in first:
        return "\n".join(
            [
                f"host: {first['host']}",
                f"command: {first['command']}",
                "environment: as for discovery (temporary HOME, cwd = project dir, offline).",
                "the skill tool's answer, verbatim:",
                first["tool_answer"],
                "then, verbatim:" if "text" in first else "and nothing else.",
                first.get("text", ""),
            ]
        ) + "\n"
    if "text" in first:
        return "\n".join(
            [
                f"host: {first['host']}",
                f"command: {first['command']}",
                "environment: as for discovery (temporary HOME, cwd = project dir, offline).",
                "rendered skills section, verbatim:",
                first["text"],
            ]
        ) + "\n"
    lines = [
        f"host: {first['host']}",
        f"command: {first['command']}",
        "environment: temporary HOME (input.deck.home_dir), cleared XDG_*/OPENCODE_CONFIG_DIR/"
        "CODEX_HOME unless input.deck.env sets them, cwd = project dir;",
        "  setup.mkdir `.git` entries were made with `git init`.",
    ]
    if len(distinct) > 1:
        lines.append(
            f"the host gave {len(distinct)} different answers in {len(results)} runs "
            "(concurrent parsing races on name clashes):"
        )
    for result, count in distinct:
        if len(distinct) > 1:
            lines.append(f"-- answer seen in {count} of {len(results)} runs")
        lines.append("skills found (name, scope, location):")
        for s in result["skills"]:
            scope = s.get("scope", "-")
            lines.append(f"  {s['name']}  [{scope}]  {s['location']}")
        if not result["skills"]:
            lines.append("  (none)")
    lines.append("errors reported by the host:")
    for e in first["errors"]:
        lines.append(f"  {e['path']}: {e['message']}")
    if not first["errors"]:
        lines.append("  (none)")
    return "\n".join(lines) + "\n"


def dump_json(value, indent: int = 0) -> str:
    """Indented JSON that keeps small flat objects (one skill, one symlink) on one line."""
    pad = "  " * indent
    flat = isinstance(value, dict) and all(
        not isinstance(v, (dict, list)) or (isinstance(v, dict) and len(json.dumps(v)) < 60)
        for v in value.values()
    )
    if not isinstance(value, (dict, list)) or (flat and len(json.dumps(value)) < 100):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        if not value or all(not isinstance(v, (dict, list)) for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [pad + "  " + dump_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [
        pad + "  " + json.dumps(k) + ": " + dump_json(v, indent + 1) for k, v in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def empty_name_stand_in(location: str) -> str:
    """What skilldeck names a skill the host names "" (deliberate, ORACLES.md): a SKILL.md
    its directory, an OpenHands legacy file its path below the root without `.md`, as when
    it has no `name` (`core/src/discover/loose.rs` `name_from_path`)."""
    path = Path(location)
    legacy = re.search(r"/\.(?:agents/skills|openhands/skills|openhands/microagents)/(.+)\.md$", location)
    if path.name.lower() != "skill.md" and legacy:
        return legacy.group(1)
    return path.parent.name


def record(vector: Path, case: dict, results: list[dict], descriptions: bool = False) -> bool:
    """Write oracle.txt and replace expected.skills with the host's answer. Fields the host
    does not report (scope for OpenCode, status flags) are kept from the vector as the author
    wrote them, matched by location; other expected keys (shadowed) are left alone. When runs
    disagree only oracle.txt is written: the expectation must then be chosen by hand."""
    (vector / "oracle.txt").write_text(oracle_text(results))
    distinct = outcomes(results)
    if len(distinct) > 1:
        return False
    result = distinct[0][0]
    if case["operation"] == "activate":
        if "error" in result:
            case["expected"] = {"error": {"code": result["error"]["code"]}}
        else:
            kept = {k: v for k, v in case.get("expected", {}).items() if k == "resources"}
            # `resources` is written from the order of the files in the host's text.
            case["expected"] = {"text": result["text"], **kept}
        (vector / "case.json").write_text(dump_json(case) + "\n")
        return True
    if "text" in result:
        expected = case.setdefault("expected", {})
        expected["text"] = result["text"]
        expected.setdefault("report", {})["included"] = result["included"]
        (vector / "case.json").write_text(dump_json(case) + "\n")
        return True
    old = {s.get("location"): s for s in case.get("expected", {}).get("skills", [])}
    skills = []
    for s in result["skills"]:
        if (decoded_elsewhere(s) or "").lower() in UNDECODABLE:
            continue  # deliberate: skilldeck reads no UTF-16/32 (ORACLES.md)
        entry = {"name": s["name"], "location": s["location"]}
        if "scope" in s:
            entry["scope"] = s["scope"]
        if entry["name"] == "":
            # Deliberate deviation (ORACLES.md): an empty name cannot name a skill, so
            # skilldeck names it after its directory; the host's "" stays in oracle.txt.
            entry["name"] = empty_name_stand_in(s["location"])
        if descriptions and s.get("description") is not None and not decoded_elsewhere(s):
            # Left out when the host has none: the catalog writes a missing one as "".
            entry["description"] = s["description"]
        if s.get("model_invocable") is False:
            # Loaded but never offered to the model (OpenHands: always-on and path rules).
            entry["status"] = {"model_invocable": False}
        for key, value in old.get(s["location"], {}).items():
            entry.setdefault(key, value)
        skills.append(entry)
    expected = case.setdefault("expected", {})
    expected["profile"] = case["input"]["deck"]["profile"]
    expected["skills"] = skills
    (vector / "case.json").write_text(dump_json(case) + "\n")
    return True



# ---------------------------------------------------------------------------------------------
# The broken-file matrix, and skilldeck side by side with the host
# ---------------------------------------------------------------------------------------------

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors"
MATRIX_HOSTS = (
    "codex", "opencode", "gemini", "qwen-code", "copilot-cli", "mistral-vibe", "goose", "openhands",
    "cline",
)
# What a matrix vector knowingly does not take from its host (see ORACLES.md).
MATRIX_NOTES = {
    "mistral-vibe": "; deliberate deviation: the host decodes enc-utf16le-bom as UTF-16 (left "
    "out here) and files with invalid UTF-8 by a charset guess (their descriptions are not "
    "pinned)",
    "gemini": "; deliberate deviation: the host loads name-empty with the name \"\", skilldeck "
    "names it after its directory",
}


# Deliberate deviations (ORACLES.md): Mistral Vibe decodes a file that is not UTF-8 by its
# BOM (UTF-16, UTF-32) or by charset_normalizer's guess (cp1250, cp1252, ...); skilldeck
# reads UTF-8 only, invalid bytes as U+FFFD. `record` leaves such a skill's description out
# (a guess is not a rule), and the skill itself when skilldeck cannot decode it at all.
UNDECODABLE = ("utf-16", "utf-32")


def decoded_elsewhere(skill: dict) -> str | None:
    return skill.get("decoded")


def write_matrix() -> list[Path]:
    """(Re)write `oracle-<host>-broken-matrix` for every host: the tree from matrix.py and a
    case.json whose expected skills `record --descriptions` then fills in from the host."""
    written = []
    for host in MATRIX_HOSTS:
        vector = VECTORS / "discover" / f"oracle-{host}-broken-matrix"
        shutil.rmtree(vector / "tree", ignore_errors=True)
        names = matrix.write_tree(vector)
        case_path = vector / "case.json"
        case = json.loads(case_path.read_text()) if case_path.exists() else {}
        case.update(
            {
                "description": (
                    f"{host}: the broken-file matrix ({len(names)} files, scripts/oracle/matrix.py): "
                    "every class of YAML error, fence variant, encoding problem and wrong value "
                    f"type; the skills, names and descriptions are what the real {host} reads"
                    + MATRIX_NOTES.get(host, "")
                ),
                "operation": "discover",
                "setup": {"mkdir": ["project/.git"]},
                "input": {"deck": {"profile": host}},
            }
        )
        case.setdefault("expected", {"profile": host, "skills": []})
        case_path.write_text(dump_json(case) + "\n")
        written.append(vector)
    return written


KEY_HOSTS = (
    "opencode", "codex", "gemini", "qwen-code", "copilot-cli", "mistral-vibe", "goose", "openhands",
    "cline",
)


def write_key_vector(name: str, host: str, table: dict[str, str] | None, what: str) -> Path:
    """(Re)write the discovery vector `name` for `host`: the tree of `table` (keys.py) and a
    case.json whose expected skills `record --descriptions` then fills in from the host (the
    description, `what` with the file count, is kept once written: it says what the host
    reads)."""
    vector = VECTORS / "discover" / name
    shutil.rmtree(vector / "tree", ignore_errors=True)
    names = keys.write_tree(vector, host, table)
    case_path = vector / "case.json"
    case = json.loads(case_path.read_text()) if case_path.exists() else {}
    case.setdefault("description", what.format(files=len(names)))
    case.update(
        {
            "operation": "discover",
            "setup": {"mkdir": ["project/.git"]},
            "input": {"deck": {"profile": host}},
        }
    )
    case.setdefault("expected", {"profile": host, "skills": []})
    case_path.write_text(dump_json(case) + "\n")
    return vector


def write_keys() -> list[Path]:
    """(Re)write `oracle-<host>-key-spelling` for every host, Copilot CLI's field types and
    the snake_case-beside-dashed files of the hosts that read both spellings."""
    written = [
        write_key_vector(
            f"oracle-{host}-key-spelling", host, None,
            f"{host}: key spellings ({{files}} files, scripts/oracle/keys.py); what the real "
            f"{host} reads",
        )
        for host in KEY_HOSTS
    ]
    written.append(write_key_vector(
        "oracle-copilot-cli-field-types", "copilot-cli", keys.copilot_field_types(),
        "copilot-cli: the values it checks ({files} files, scripts/oracle/keys.py)",
    ))
    for host in ("mistral-vibe", "openhands"):
        written.append(write_key_vector(
            f"oracle-{host}-snake-shadowed", host, keys.snake_shadowed(host),
            f"{host}: a dashed field and its snake_case spelling in one file ({{files}} "
            "files, scripts/oracle/keys.py); the host reads the dashed one",
        ))
    return written


def skilldeck_bin() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", VECTORS.parents[1] / "target"))
    return Path(os.environ.get("SKILLDECK", target / "debug" / "skilldeck"))


def run_skilldeck(tree: Path, deck: dict) -> dict:
    """`skilldeck list --json` on the same tree and environment as the host run."""
    project, home, env = deck_paths(tree, deck)
    cmd = [
        str(skilldeck_bin()),
        "list",
        "--json",
        # Every skill skilldeck loaded, switched-off ones too: the diff is about discovery.
        "--all",
        "--profile",
        deck.get("profile", "universal"),
        "--project",
        str(project),
        "--home",
        str(home),
    ]
    out = subprocess.run(
        cmd, env=host_env(home, env), capture_output=True, text=True, timeout=HOST_TIMEOUT
    )
    if out.returncode not in (0, 1):
        raise RuntimeError(f"skilldeck failed ({out.returncode}): {out.stderr[-2000:]}")
    catalog = json.loads(out.stdout)
    return normalise(catalog, tree)


def diff_one(vector: Path, case: dict, tree: Path) -> list[str]:
    """Per file: the host's verdict (loaded with this name and description, or not) against
    skilldeck's; and every file skilldeck does not load must carry a diagnostic."""
    deck = case["input"]["deck"]
    if deck["profile"] in ISOLATED_HOSTS:
        return diff_isolated(vector, case, tree)
    host = normalise(HOSTS[deck["profile"]](tree, deck), tree)
    ours = run_skilldeck(tree, deck)
    return compare_files(deck, tree, host, ours)


# Hosts where one bad file empties its whole root (OpenHands): on the matrix and fuzz trees,
# whose files share one root, the whole-tree answer is "nothing" and says nothing about each
# file. `diff` then compares the whole tree and, in addition, every skill directory of the
# project's `.agents/skills` alone in a project of its own (the host's own
# `load_project_skills` on each, in one process; skilldeck once per project).
ISOLATED_HOSTS = {"openhands": run_openhands}


def diff_isolated(vector: Path, case: dict, tree: Path) -> list[str]:
    deck = case["input"]["deck"]
    problems = [
        f"whole tree: {p}"
        for p in compare_files(
            deck, tree, normalise(HOSTS[deck["profile"]](tree, deck), tree),
            run_skilldeck(tree, deck),
        )
    ]
    root = tree / deck.get("project_dir", "project") / ".agents" / "skills"
    children = sorted(c for c in root.iterdir()) if root.is_dir() else []
    if not children or any(not p.is_relative_to(root) for p in tree.rglob("SKILL.md")):
        # Only a tree whose skills all sit in that one root (the matrix, fuzz corpora).
        return problems
    isolated = []
    with tempfile.TemporaryDirectory(prefix="skilldeck-isolated-") as scratch:
        for i, child in enumerate(children):
            iso = Path(scratch) / str(i)
            dest = iso / deck.get("project_dir", "project") / ".agents" / "skills" / child.name
            dest.parent.mkdir(parents=True)
            if child.is_dir():
                shutil.copytree(child, dest, symlinks=True)
            else:
                shutil.copy2(child, dest, follow_symlinks=False)
            (iso / deck.get("project_dir", "project") / ".git").mkdir()
            (iso / deck.get("home_dir", "home")).mkdir(parents=True, exist_ok=True)
            isolated.append(iso.resolve())
        projects = [iso / deck.get("project_dir", "project") for iso in isolated]
        answers = ISOLATED_HOSTS[deck["profile"]](tree, deck, projects)
        host = {"skills": [], "errors": []}
        ours = {"skills": [], "diagnostics": [], "shadowed": []}
        for iso, answer in zip(isolated, answers):
            answer = normalise(answer, iso)
            host["skills"] += answer["skills"]
            host["errors"] += answer["errors"]
            mine = run_skilldeck(iso, deck)
            for key in ours:
                ours[key] += mine.get(key, [])
    problems += [f"alone: {p}" for p in compare_files(deck, tree, host, ours)]
    return problems


def clipped(host: str | None, ours: str | None) -> bool:
    """OpenHands' `maybe_truncate`: head, `<response clipped>` notice, tail, 1024 in all."""
    if not host or not ours or "<response clipped>" not in host or len(ours) <= 1024:
        return False
    head, _, rest = host.partition("<response clipped>")
    tail = rest.rsplit("</NOTE>", 1)[-1]
    return ours.startswith(head) and ours.endswith(tail)


def compare_files(deck: dict, tree: Path, host: dict, ours: dict) -> list[str]:
    host_by_loc = {s["location"]: s for s in host["skills"]}
    ours_by_loc = {s["location"]: s for s in ours["skills"]}
    problems = []
    # Files whose name clashes within one root: Gemini CLI, Qwen Code and Mistral Vibe settle such a clash
    # in directory-listing order, which is not stable (skilldeck uses path order). Only
    # fuzzed corpora have them; they are counted, not compared.
    shadowed = ours.get("shadowed", [])
    clash_names = {s.get("name", s["id"]) for s in shadowed}
    clash_locs = {s["location"] for s in shadowed} | {s["winner"] for s in shadowed}
    in_clash = 0
    for loc in sorted(set(host_by_loc) | set(ours_by_loc)):
        h, o = host_by_loc.get(loc), ours_by_loc.get(loc)
        one_side = h or o
        if (
            deck["profile"] in ("gemini", "qwen-code", "mistral-vibe")
            and not (h and o)
            and (loc in clash_locs or one_side.get("name") in clash_names)
        ):
            in_clash += 1
            continue
        if h and decoded_elsewhere(h) and (not o or "\ufffd" in (o.get("description") or "")):
            print(f"         deliberate: the host decoded {loc} as {h['decoded']}")
            continue
        if h and not o:
            why = [d["code"] for d in ours["diagnostics"] if d.get("path") == loc]
            problems.append(f"host loads, skilldeck does not: {loc} {why}")
        elif o and not h:
            why = [e["message"] for e in host.get("errors", []) if e["path"] == loc]
            problems.append(f"skilldeck loads, host does not: {loc} {why}")
        else:
            for key in ("name", "description"):
                # skilldeck's catalog writes a missing description as "".
                hv, ov = h.get(key), o.get(key) or (None if key == "description" and "description" not in h else o.get(key))
                if key == "name" and hv == "" and ov == empty_name_stand_in(loc):
                    # Deliberate (ORACLES.md): an empty name cannot name a skill, so
                    # skilldeck names it after its directory.
                    print(f"         deliberate: empty name at {loc}, skilldeck uses {ov!r}")
                    continue
                if key == "description" and deck["profile"] == "openhands" and clipped(hv, ov):
                    # Deliberate (ORACLES.md): the host cuts the middle of a description
                    # over 1024 characters and puts a notice naming the file there.
                    print(f"         deliberate: description over 1024 characters at {loc} kept whole")
                    continue
                if hv != ov:
                    problems.append(f"{key} differs at {loc}: host {hv!r}, skilldeck {ov!r}")
    # Every SKILL.md in the tree that nobody loaded must be explained by a diagnostic.
    for path in sorted(tree.rglob("SKILL.md")):
        loc = normalise(str(path), tree)
        # Codex writes its bundled skills under $CODEX_HOME/skills/.system itself.
        # Copilot CLI unpacks its package (built-in and plugin skills) to ~/.cache/copilot.
        if (
            loc in ours_by_loc
            or loc in clash_locs
            or not path.is_file()
            or "/.system/" in loc
            or "/.cache/copilot/pkg/" in loc
        ):
            continue
        if not any(d.get("path") == loc for d in ours["diagnostics"]):
            problems.append(f"not loaded and no diagnostic says why: {loc}")
    if in_clash:
        print(f"         note: {in_clash} file(s) in a name clash within one root, not compared")
    return problems


def diff(vectors: list[Path]) -> int:
    failed = 0
    for vector in vectors:
        case = load_case(vector)
        with tempfile.TemporaryDirectory(prefix="skilldeck-oracle-") as scratch:
            tree = materialise(vector, case, Path(scratch))
            problems = diff_one(vector, case, tree)
        print(f"{'ok' if not problems else 'DIFFERS':8} {vector} ({len(problems)} differences)")
        for p in problems:
            print(f"         {p}")
        failed += bool(problems)
    return failed


def fuzz(profile: str, seed: int, count: int, keep: Path | None) -> int:
    """A random corpus of `count` damaged files (matrix.random_case), host against skilldeck."""
    rng = matrix.random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="skilldeck-fuzz-") as scratch:
        vector = keep or Path(scratch) / "vector"
        root = vector / "tree" / "project" / ".agents" / "skills"
        for i in range(count):
            (root / f"fuzz-{i}").mkdir(parents=True, exist_ok=True)
            (root / f"fuzz-{i}" / "SKILL.md").write_bytes(matrix.random_case(rng, i))
        case = {
            "description": f"{profile}: random damaged files, seed {seed}",
            "operation": "discover",
            "setup": {"mkdir": ["project/.git"]},
            "input": {"deck": {"profile": profile}},
        }
        (vector / "case.json").write_text(json.dumps(case, indent=2) + "\n")
        return diff([vector])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("install")
    sub.add_parser("matrix", help="rewrite the oracle-<host>-broken-matrix vectors' trees")
    sub.add_parser("keys", help="rewrite the oracle-<host>-key-spelling vectors' trees")
    p = sub.add_parser("diff", help="host against skilldeck (target/debug), file by file")
    p.add_argument("vectors", nargs="+", type=Path)
    p = sub.add_parser("fuzz", help="random damaged files, host against skilldeck")
    p.add_argument("--profile", choices=MATRIX_HOSTS, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--keep", type=Path, help="write the corpus here instead of a temp dir")
    for name in ("run", "check", "record"):
        p = sub.add_parser(name)
        p.add_argument("--runs", type=int, default=1, help="run the host this many times")
        if name == "record":
            p.add_argument(
                "--descriptions", action="store_true", help="also pin each skill's description"
            )
        p.add_argument("vectors", nargs="+", type=Path)
    args = parser.parse_args()
    if args.cmd == "install":
        install()
        return 0
    if args.cmd == "matrix":
        for vector in write_matrix():
            print(f"wrote {vector}")
        return 0
    if args.cmd == "keys":
        for vector in write_keys():
            print(f"wrote {vector}")
        return 0
    if args.cmd == "diff":
        return 1 if diff(args.vectors) else 0
    if args.cmd == "fuzz":
        return 1 if fuzz(args.profile, args.seed, args.count, args.keep) else 0
    failed = 0
    for vector in args.vectors:
        try:
            case, results = run_vector(vector, args.runs)
        except NoOracle as why:
            # Recorded another way (gemini_activate.mjs, a host's own tool run by hand): one
            # such vector must not stop a check of `tests/vectors/*/oracle-*`.
            print(f"{'SKIPPED':8} {vector} ({why})")
            continue
        if args.cmd == "run":
            print(f"== {vector}")
            for result, count in outcomes(results):
                print(f"-- seen in {count} of {len(results)} runs")
                print(json.dumps(result, indent=2, ensure_ascii=False))
        elif args.cmd == "record":
            if record(vector, case, results, args.descriptions):
                what = (results[0].get("included") or results[0].get("error")
                        or ("text" in results[0] and f"text, {len(results[0]['text'])} characters")
                        or [s["name"] for s in results[0].get("skills", [])])
                print(f"recorded {vector}: {what}")
            else:
                print(f"UNSTABLE {vector}: runs disagree, see oracle.txt; expected left alone")
        else:
            verdicts = [compare(case, r) for r in results]
            matching = sum(not v for v in verdicts)
            # A vector may knowingly differ from the host (e.g. where the host follows a
            # symlink loop); its description says so with this phrase.
            deviates = "deliberate deviation" in case.get("description", "")
            status = "ok" if matching else "DEVIATES" if deviates else "MISMATCH"
            print(f"{status:8} {vector} ({matching}/{len(results)} runs match)")
            if not matching:
                for p in verdicts[0]:
                    print(f"         {p}")
            failed += not matching and not deviates
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
