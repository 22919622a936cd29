"""Running skills: command skills and scripts (sync and async), invalid input, artifacts,
timeout, cancellation (thread, token, asyncio task), streamed events, the sandbox,
call_tool, errors, and the embedded CLI's `run`."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Mapping

import pytest

import skilldeck

ECHO = """---
name: echo
description: Echo the input object back, with a greeting.
command: run.sh
parameters:
  - name: text
    type: string
    required: true
    description: What to echo.
  - name: times
    type: integer
    default: 1
    description: How often.
---
# Echo
"""

ECHO_SH = """#!/bin/sh
input=$(cat)
echo "starting" >&2
printf '{"got": %s}\\n' "$input"
"""

FAIL = """---
name: fail
description: Always fails with exit code 3.
command: run.sh
---
"""

FAIL_SH = """#!/bin/sh
echo "failing" >&2
exit 3
"""

SLOW = """---
name: slow
description: Print its process id, then sleep for a long time.
command: run.sh
---
"""

SLOW_SH = """#!/bin/sh
echo "$$"
exec sleep 30
"""

MAKER = """---
name: maker
description: Write report files from its arguments and standard input.
---
# Maker
"""

MAKE_SH = """#!/bin/sh
mkdir -p reports
printf '%s|' "$@" > reports/args.txt
cat > reports/stdin.txt
echo "made"
"""

ESCAPE_SH = """#!/bin/sh
echo escaped > "$1/escaped.txt" && echo wrote || echo refused
"""


def write(path: Path, text: str, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if executable:
        path.chmod(0o755)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "project"
    (root / ".git").mkdir(parents=True)
    skills = root / ".agents" / "skills"
    write(skills / "echo" / "SKILL.md", ECHO)
    write(skills / "echo" / "run.sh", ECHO_SH, executable=True)
    write(skills / "fail" / "SKILL.md", FAIL)
    write(skills / "fail" / "run.sh", FAIL_SH, executable=True)
    write(skills / "slow" / "SKILL.md", SLOW)
    write(skills / "slow" / "run.sh", SLOW_SH, executable=True)
    write(skills / "maker" / "SKILL.md", MAKER)
    write(skills / "maker" / "scripts" / "make.sh", MAKE_SH, executable=True)
    write(skills / "maker" / "scripts" / "escape.sh", ESCAPE_SH, executable=True)
    return root


@pytest.fixture
def deck(project: Path) -> skilldeck.Deck:
    d = skilldeck.Deck(project_dir=project, home_dir=project.parent, read_host_settings=False)
    d.load()
    return d


@pytest.fixture(scope="module")
def sandbox_available(tmp_path_factory: pytest.TempPathFactory) -> bool:
    """Whether the engine can sandbox here (it reports SANDBOX_UNAVAILABLE otherwise)."""
    root = tmp_path_factory.mktemp("probe") / "project"
    write(root / ".agents" / "skills" / "fail" / "SKILL.md", FAIL)
    write(root / ".agents" / "skills" / "fail" / "run.sh", FAIL_SH, executable=True)
    d = skilldeck.Deck(project_dir=root, read_host_settings=False)
    d.load()
    try:
        skilldeck.run_command_sync(d, "fail")
    except skilldeck.RunError as err:
        if err.code == "SANDBOX_UNAVAILABLE":
            return False
        raise
    return True


@pytest.fixture
def mode(sandbox_available: bool) -> Dict[str, Any]:
    """Run options for tests that are not about the sandbox: the default (enforce) where
    the sandbox works, else no sandbox, so the rest of the behaviour is still checked."""
    return {} if sandbox_available else {"sandbox": "none"}


def test_run_command_passes_the_input_as_json_and_reports_the_outcome(deck, mode):
    events: List[Any] = []
    outcome = skilldeck.run_command_sync(deck, "echo", {"text": "hi"}, on_event=events.append, **mode)
    assert outcome["exit_code"] == 0
    assert outcome["skill"] == "echo"
    # The default for `times` is filled in before the skill sees its input.
    assert outcome["json"] == {"got": {"text": "hi", "times": 1}}
    assert outcome["stdout"].strip() == '{"got": {"text":"hi","times":1}}'
    assert outcome["stderr"] == "starting\n"
    assert outcome["timed_out"] is False and outcome["cancelled"] is False
    assert outcome["truncated"] is False
    assert isinstance(outcome["duration_ms"], int)
    # Events stream in order: started, output, finished.
    kinds = [e["type"] for e in events]
    assert kinds[0] == "started" and kinds[-1] == "finished"
    assert set(kinds[1:-1]) <= {"stdout", "stderr"}
    assert events[0] == {"type": "started", "skill": "echo", "target": "run.sh"}
    assert "".join(e["text"] for e in events if e["type"] == "stdout") == outcome["stdout"]
    assert events[-1]["exit_code"] == 0


def test_a_failing_command_is_an_outcome_not_an_error(deck, mode):
    outcome = skilldeck.run_command_sync(deck, "fail", **mode)
    assert outcome["exit_code"] == 3
    assert outcome["stderr"] == "failing\n"
    assert "json" not in outcome


def test_invalid_input_raises_invalid_input_error_and_runs_nothing(deck, mode):
    events: List[Any] = []
    deck_events: List[Dict[str, Any]] = []
    deck.subscribe(deck_events.append)
    with pytest.raises(skilldeck.InvalidInputError) as err:
        skilldeck.run_command_sync(deck, "echo", {"text": 5}, on_event=events.append, **mode)
    assert err.value.code == "INVALID_INPUT"
    assert isinstance(err.value, skilldeck.RunError) and isinstance(err.value, ValueError)
    assert err.value.problems == ['`text`: 5 is not of type "string"']
    assert events == []
    assert not [e for e in deck_events if e["type"] == "exec_started"]
    with pytest.raises(skilldeck.InvalidInputError) as missing:
        skilldeck.run_command_sync(deck, "echo", {}, **mode)
    assert "text" in missing.value.problems[0]


def test_invalid_input_error_pickles_with_its_problems(deck, mode):
    with pytest.raises(skilldeck.InvalidInputError) as err:
        skilldeck.run_command_sync(deck, "echo", {"text": 5}, **mode)
    copy = pickle.loads(pickle.dumps(err.value))
    assert type(copy) is skilldeck.InvalidInputError
    assert (copy.code, copy.problems, str(copy)) == (
        "INVALID_INPUT",
        err.value.problems,
        str(err.value),
    )


def test_run_script_delivers_artifacts_to_the_destination(deck, project, mode):
    outcome = skilldeck.run_script_sync(
        deck, "maker", "make.sh", ["a b", "c"], stdin="from stdin", destination="out", **mode
    )
    assert outcome["exit_code"] == 0, outcome["stderr"]
    assert outcome["stdout"] == "made\n"
    out = project / "out"
    assert (out / "reports" / "args.txt").read_text(encoding="utf-8") == "a b|c|"
    assert (out / "reports" / "stdin.txt").read_text(encoding="utf-8") == "from stdin"
    assert sorted(outcome["artifacts"]) == sorted(
        str(out / "reports" / name) for name in ("args.txt", "stdin.txt")
    )


def test_run_script_refusals_are_run_errors(deck, project, mode):
    with pytest.raises(skilldeck.RunError) as outside:
        skilldeck.run_script_sync(deck, "maker", "make.sh", destination="/tmp/elsewhere", **mode)
    assert outside.value.code == "DESTINATION_REFUSED"
    with pytest.raises(skilldeck.RunError) as escape:
        skilldeck.run_script_sync(deck, "maker", "../SKILL.md", **mode)
    assert escape.value.code == "SCRIPT_REFUSED"
    with pytest.raises(skilldeck.RunError) as unknown:
        skilldeck.run_command_sync(deck, "nope", **mode)
    assert unknown.value.code == "NOT_FOUND"
    with pytest.raises(skilldeck.RunError) as not_command:
        skilldeck.run_command_sync(deck, "maker", **mode)
    assert not_command.value.code == "NOT_RUNNABLE"


def test_timeout_kills_the_process_group(deck, mode):
    started = time.monotonic()
    outcome = skilldeck.run_command_sync(deck, "slow", timeout=0.5, **mode)
    assert outcome["timed_out"] is True
    assert outcome["exit_code"] is None
    assert time.monotonic() - started < 10
    assert_gone(int(outcome["stdout"].split()[0]))


def assert_gone(pid: int) -> None:
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_cancel_from_another_thread(deck, mode):
    token = skilldeck.CancelToken()
    assert token.cancelled is False
    # The timer thread can only run while the run waits with the GIL released.
    timer = threading.Timer(0.3, token.cancel)
    timer.start()
    started = time.monotonic()
    outcome = skilldeck.run_command_sync(deck, "slow", cancel=token, **mode)
    timer.join()
    assert token.cancelled is True
    assert outcome["cancelled"] is True and outcome["timed_out"] is False
    assert time.monotonic() - started < 10
    assert_gone(int(outcome["stdout"].split()[0]))
    assert repr(token) == "CancelToken(cancelled=True)"


def test_ctrl_c_during_a_sync_run_cancels_it(deck, mode):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are delivered to the main thread only")
    pids: List[int] = []

    def on_event(event: Mapping[str, Any]) -> None:
        if event["type"] == "stdout":
            pids.append(int(event["text"].split()[0]))
            os.kill(os.getpid(), signal.SIGINT)

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        skilldeck.run_command_sync(deck, "slow", on_event=on_event, **mode)
    assert time.monotonic() - started < 10
    assert pids
    assert_gone(pids[0])  # the process group was killed before the interrupt propagated


def test_concurrent_runs_from_threads(deck, mode):
    results: Dict[int, Any] = {}

    def work(i: int) -> None:
        results[i] = skilldeck.run_command_sync(deck, "echo", {"text": f"t{i}"}, **mode)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {i: r["json"]["got"]["text"] for i, r in results.items()} == {
        i: f"t{i}" for i in range(4)
    }


def test_async_run_command_and_events_on_the_loop_thread(deck, mode):
    loop_thread: List[int] = []
    event_threads: List[int] = []
    events: List[Any] = []

    def on_event(event: Mapping[str, Any]) -> None:
        event_threads.append(threading.get_ident())
        events.append(event)

    async def main() -> Any:
        loop_thread.append(threading.get_ident())
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick_task = asyncio.create_task(ticker())
        outcome = await skilldeck.run_command(
            deck, "echo", {"text": "async"}, on_event=on_event, **mode
        )
        tick_task.cancel()
        return outcome, ticks

    outcome, ticks = asyncio.run(main())
    assert outcome["json"] == {"got": {"text": "async", "times": 1}}
    assert ticks >= 1  # the loop kept running while the skill ran
    assert [e["type"] for e in events][0] == "started"
    assert events[-1]["type"] == "finished"  # all delivered before the await returned
    assert set(event_threads) == set(loop_thread)


def test_asyncio_task_cancellation_cancels_the_process(deck, mode):
    pids: List[int] = []

    async def main() -> None:
        got_pid = asyncio.Event()

        def on_event(event: Mapping[str, Any]) -> None:
            if event["type"] == "stdout" and not pids:
                pids.append(int(event["text"].split()[0]))
                got_pid.set()

        task = asyncio.create_task(skilldeck.run_command(deck, "slow", on_event=on_event, **mode))
        await asyncio.wait_for(got_pid.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    started = time.monotonic()
    asyncio.run(main())
    assert time.monotonic() - started < 10
    assert pids
    assert_gone(pids[0])  # gone by the time the cancellation propagated


def test_async_cancel_token_gives_a_cancelled_outcome(deck, mode):
    async def main() -> Any:
        token = skilldeck.CancelToken()
        asyncio.get_running_loop().call_later(0.3, token.cancel)
        return await skilldeck.run_command(deck, "slow", cancel=token, **mode)

    outcome = asyncio.run(main())
    assert outcome["cancelled"] is True


def test_async_run_script_and_call_tool(deck, project, mode):
    async def main() -> Any:
        script = await skilldeck.run_script(deck, "maker", "make.sh", ["x"], destination="o", **mode)
        tool = await skilldeck.call_tool(deck, "echo", {"text": "tool"}, **mode)
        return script, tool

    script, tool = asyncio.run(main())
    assert script["exit_code"] == 0
    assert (project / "o" / "reports" / "args.txt").read_text(encoding="utf-8") == "x|"
    assert tool["json"] == {"got": {"text": "tool", "times": 1}}

    async def refused() -> None:
        await skilldeck.run_command(deck, "echo", {"text": 1}, **mode)

    with pytest.raises(skilldeck.InvalidInputError):
        asyncio.run(refused())


def test_call_tool_runs_a_model_tool_call(deck, project, mode):
    names = [t["function"]["name"] for t in skilldeck.tool_definitions(deck.load())]
    assert "echo" in names and "run_skill_script" in names
    outcome = skilldeck.call_tool_sync(deck, "echo", {"text": "model"}, **mode)
    assert outcome["json"] == {"got": {"text": "model", "times": 1}}
    script = skilldeck.call_tool_sync(
        deck,
        "run_skill_script",
        {"skill_name": "maker", "script_name": "make.sh", "args": ["t"], "destination_path": "t"},
        **mode,
    )
    assert script["exit_code"] == 0
    assert (project / "t" / "reports" / "args.txt").read_text(encoding="utf-8") == "t|"
    with pytest.raises(skilldeck.RunError) as unknown:
        skilldeck.call_tool_sync(deck, "no_such_tool", {}, **mode)
    assert unknown.value.code == "NOT_FOUND"
    with pytest.raises(skilldeck.InvalidInputError):
        skilldeck.call_tool_sync(deck, "run_skill_script", {"skill_name": "maker"}, **mode)
    with pytest.raises(skilldeck.InvalidInputError):
        skilldeck.call_tool_sync(deck, "echo", ["not", "an", "object"], **mode)


def test_sandbox_is_on_by_default(deck, project, sandbox_available):
    if not sandbox_available:
        pytest.skip("the engine reports the sandbox as unavailable here")
    outcome = skilldeck.run_command_sync(deck, "fail")
    assert outcome["sandboxed"] is True
    report = outcome["sandbox"]
    assert report["filesystem"] is True and report["network_denied"] is True
    assert report["landlock_abi"] >= 1
    # Writing outside the work directory is refused inside the sandbox...
    confined = skilldeck.run_script_sync(deck, "maker", "escape.sh", [str(project)])
    assert confined["stdout"] == "refused\n"
    assert not (project / "escaped.txt").exists()
    # ...and allowed with the explicit opt-out.
    free = skilldeck.run_script_sync(deck, "maker", "escape.sh", [str(project)], sandbox="none")
    assert free["stdout"] == "wrote\n" and free["sandboxed"] is False and "sandbox" not in free
    assert (project / "escaped.txt").is_file()


def test_options_are_checked(deck):
    with pytest.raises(skilldeck.InvalidOptionsError) as sandbox:
        skilldeck.run_command_sync(deck, "fail", sandbox="off")
    assert "enforce" in str(sandbox.value) and "none" in str(sandbox.value)
    with pytest.raises(skilldeck.InvalidOptionsError) as unknown:
        skilldeck.run_command_sync(deck, "fail", time_out=3)
    assert "timeout" in str(unknown.value)
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.run_command_sync(deck, "fail", timeout=-1)
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.run_command_sync(deck, "fail", limits={"memory": 1})
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.run_command_sync(deck, "fail", on_event="print")


def test_options_reach_the_runner(deck, tmp_path, mode):
    work_root = tmp_path / "work"
    work_root.mkdir()
    outcome = skilldeck.run_command_sync(
        deck, "echo", {"text": "x" * 100}, output_limit=10, work_root=work_root,
        keep_work_dir=True, **mode
    )
    assert outcome["truncated"] is True
    assert len(outcome["stdout"]) <= 10
    assert Path(outcome["work_dir"]).parent == work_root.resolve()


def test_a_failing_event_callback_is_reported_and_the_run_completes(deck, mode, monkeypatch):
    reported: List[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))

    def broken(event: Any) -> None:
        raise ValueError("event log failed")

    outcome = skilldeck.run_command_sync(deck, "echo", {"text": "y"}, on_event=broken, **mode)
    assert outcome["exit_code"] == 0
    assert reported and all(isinstance(e, ValueError) for e in reported)


def test_the_embedded_cli_runs_skills(project, sandbox_available, capfd):
    args = ["run", "echo", "--project", str(project), "--home", str(project.parent)]
    args += ["--no-host-settings", "--input", '{"text": "cli"}', "--json"]
    if not sandbox_available:
        args += ["--sandbox", "none"]
    assert skilldeck.run_cli(args) == 0
    out = capfd.readouterr().out
    assert '"exit_code": 0' in out or '"exit_code":0' in out
    assert "cli" in out


def test_permission_rules_apply_and_approved_runs_an_ask_skill(project, mode):
    def deck_with(decision: str) -> skilldeck.Deck:
        rules = {"semantics": "last-match", "rules": [{"pattern": "echo", "decision": decision}]}
        d = skilldeck.Deck(project_dir=project, home_dir=project.parent, rules=rules,
                           read_host_settings=False)
        d.load()
        return d

    asked = deck_with("ask")
    with pytest.raises(skilldeck.RunError) as approval:
        skilldeck.run_command_sync(asked, "echo", {"text": "a"}, **mode)
    assert approval.value.code == "APPROVAL_REQUIRED"
    outcome = skilldeck.run_command_sync(asked, "echo", {"text": "a"}, approved=True, **mode)
    assert outcome["exit_code"] == 0
    with pytest.raises(skilldeck.RunError) as denied:
        skilldeck.run_command_sync(deck_with("deny"), "echo", {"text": "a"}, approved=True, **mode)
    assert denied.value.code == "PERMISSION_DENIED"


def test_fs_view_only_hides_the_rest_of_the_file_system(deck, project, sandbox_available):
    if not sandbox_available:
        pytest.skip("the engine reports the sandbox as unavailable here")
    secret = project / "secret.txt"
    secret.write_text("s3cret", encoding="utf-8")
    write(project / ".agents" / "skills" / "maker" / "scripts" / "peek.sh",
          '#!/bin/sh\ncat "$1" 2>/dev/null || echo hidden\n', executable=True)
    deck.load()
    visible = skilldeck.run_script_sync(deck, "maker", "peek.sh", [str(secret)])
    assert visible["stdout"] == "s3cret"
    system = [p for p in ("/usr", "/bin", "/lib", "/lib64", "/etc") if os.path.exists(p)]
    hidden = skilldeck.run_script_sync(
        deck, "maker", "peek.sh", [str(secret)], fs_view={"only": system}
    )
    assert hidden["stdout"] == "hidden\n"
