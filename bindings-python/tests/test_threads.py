"""Long calls release the GIL; one Deck is safe to share between threads."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import skilldeck

from conftest import write_skill


def _big_tree(root: Path, count: int) -> Path:
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    (root / "home").mkdir()
    skills = project / ".agents" / "skills"
    for i in range(count):
        write_skill(
            skills,
            f"skill-{i:05d}",
            f"---\nname: skill-{i:05d}\ndescription: Skill number {i} does a thing.\n---\n# {i}\n",
        )
    return root


def _deck(root: Path) -> skilldeck.Deck:
    return skilldeck.Deck(
        project_dir=root / "project", home_dir=root / "home", env={}, system_root=root
    )


def test_a_second_thread_runs_during_a_large_load(tmp_path: Path):
    """With a huge switch interval the interpreter never preempts the main thread, so the
    counter can only move while the main thread is inside `load()` if `load()` itself
    released the GIL. No timing is asserted: only whether the other thread ran at all."""
    root = _big_tree(tmp_path.resolve(), 3000)
    counter = 0
    stop = False
    started = threading.Event()

    def count():
        nonlocal counter
        started.set()
        while not stop:
            counter += 1
            time.sleep(0)  # hand the GIL back at once whenever someone waits for it

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    worker = threading.Thread(target=count, daemon=True)
    try:
        worker.start()
        started.wait()
        progressed = []
        for _ in range(3):
            deck = _deck(root)  # a fresh deck: a full, uncached load every time
            before = counter
            catalog = deck.load()
            progressed.append(counter - before)
            assert len(catalog) == 3000
    finally:
        stop = True
        sys.setswitchinterval(old_interval)
        worker.join()
    assert any(p > 0 for p in progressed), progressed


def test_a_second_thread_runs_during_a_large_search(tmp_path: Path):
    """As above, for `search()`: indexing 3000 skills (bodies included) with the GIL
    released lets the counting thread move."""
    root = _big_tree(tmp_path.resolve(), 3000)
    counter = 0
    stop = False
    started = threading.Event()

    def count():
        nonlocal counter
        started.set()
        while not stop:
            counter += 1
            time.sleep(0)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    worker = threading.Thread(target=count, daemon=True)
    try:
        worker.start()
        started.wait()
        progressed = []
        for _ in range(3):
            deck = _deck(root)
            deck.load()
            before = counter
            results = deck.search("skill number 42 thing", body=True)
            progressed.append(counter - before)
            assert results.hits[0].id == "skill-00042"
    finally:
        stop = True
        sys.setswitchinterval(old_interval)
        worker.join()
    assert any(p > 0 for p in progressed), progressed


def test_one_deck_shared_by_many_threads(tmp_path: Path):
    root = _big_tree(tmp_path.resolve(), 200)
    deck = _deck(root)

    def work(i: int):
        if i % 4 == 0:
            return ("load", deck.load().to_dict())
        if i % 4 == 1:
            return ("render", deck.render().text)
        if i % 4 == 2:
            return ("search", deck.search("skill number 7", limit=3).to_dict())
        return ("get", deck.get(f"skill-{i:05d}").to_dict())

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(80)))
    loads = [r for kind, r in results if kind == "load"]
    renders = [r for kind, r in results if kind == "render"]
    searches = [r for kind, r in results if kind == "search"]
    assert all(load == loads[0] for load in loads)
    assert all(text == renders[0] for text in renders)
    assert all(found == searches[0] for found in searches)
    assert searches[0]["hits"][0]["id"] == "skill-00007"
    assert len(loads[0]["skills"]) == 200


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_loads(tmp_path: Path):
    """A deck loaded before `os.fork()` started the engine's worker threads, which the
    child does not inherit: the child's loads must start their own and finish, not wait
    for threads that do not exist there."""
    root = _big_tree(tmp_path.resolve(), 3000)
    assert len(_deck(root).load().skills) == 3000
    with warnings.catch_warnings():
        # Python warns that forking a multi-threaded process may deadlock: that is the
        # case under test.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        try:
            ok = len(_deck(root).load().skills) == 3000 and len(_deck(root).load().skills) == 3000
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's load hung")
