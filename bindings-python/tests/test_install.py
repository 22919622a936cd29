"""Install operations: add (local directory, local git repository), installed, verify,
remove, install_frozen, the lock file, progress, errors, and the embedded CLI's `add`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import skilldeck

SHA256 = re.compile(r"^sha256:[0-9a-f]{64}$")

HELLO = """---
name: hello
description: Say hello to someone.
---
# Hello

Greet the user by name.
"""


def make_source(root: Path) -> Path:
    """`<root>/hello/` with SKILL.md and a helper file."""
    skill = root / "hello"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(HELLO, encoding="utf-8")
    (skill / "scripts" / "greet.sh").write_text("#!/bin/sh\necho hello\n", encoding="utf-8")
    return skill


def git(*args: str, cwd: Path) -> str:
    out = subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


@pytest.fixture
def dirs(tmp_path: Path) -> Dict[str, Path]:
    root = tmp_path.resolve()
    project = root / "project"
    home = root / "home"
    project.mkdir()
    home.mkdir()
    return {"root": root, "project": project, "home": home, "source": make_source(root / "src")}


def ctx(dirs: Dict[str, Path]) -> Dict[str, Any]:
    return {"project_dir": dirs["project"], "home_dir": dirs["home"]}


def test_add_from_a_local_directory_writes_the_skill_and_a_lock_with_sha256_digests(dirs):
    phases: List[str] = []
    report = skilldeck.add(
        str(dirs["source"]), progress=lambda p: phases.append(p["phase"]), **ctx(dirs)
    )
    assert [s["name"] for s in report["installed"]] == ["hello"]
    entry = report["installed"][0]["entry"]
    assert entry["sourceType"] == "local"
    assert entry["path"] == ".agents/skills/hello"
    assert SHA256.match(entry["digest"])
    assert set(entry["files"]) == {"SKILL.md", "scripts/greet.sh"}
    assert all(SHA256.match(d) for d in entry["files"].values())
    installed_dir = dirs["project"] / ".agents" / "skills" / "hello"
    assert (installed_dir / "SKILL.md").read_text(encoding="utf-8") == HELLO
    lock = json.loads((dirs["project"] / "skills-lock.json").read_text(encoding="utf-8"))
    assert lock["skills"]["hello"]["digest"] == entry["digest"]
    assert lock["skills"]["hello"]["files"] == entry["files"]
    # The progress callback heard the operation, on the caller's behalf.
    assert phases and set(phases) <= {"fetch", "stage", "install", "verify", "lock"}
    assert "install" in phases or "stage" in phases


def test_installed_verify_tamper_and_remove(dirs):
    skilldeck.add(str(dirs["source"]), **ctx(dirs))
    listed = skilldeck.installed(**ctx(dirs))
    assert [s["name"] for s in listed] == ["hello"]
    assert SHA256.match(listed[0]["entry"]["digest"])

    clean = skilldeck.verify(**ctx(dirs))
    assert clean["clean"] is True
    assert clean["skills"][0]["diff"] == {"changed": [], "added": [], "missing": []}

    installed_dir = dirs["project"] / ".agents" / "skills" / "hello"
    (installed_dir / "SKILL.md").write_text(HELLO + "tampered\n", encoding="utf-8")
    (installed_dir / "extra.txt").write_text("new", encoding="utf-8")
    (installed_dir / "scripts" / "greet.sh").unlink()
    report = skilldeck.verify(**ctx(dirs))
    assert report["clean"] is False
    diff = report["skills"][0]["diff"]
    assert diff == {"changed": ["SKILL.md"], "added": ["extra.txt"], "missing": ["scripts/greet.sh"]}

    removed = skilldeck.remove(["hello"], **ctx(dirs))
    assert removed == {"removed": ["hello"]}
    assert not installed_dir.exists()
    assert skilldeck.installed(**ctx(dirs)) == []


def test_add_from_a_local_git_repository_records_the_commit_and_install_frozen_restores(dirs):
    repo = dirs["root"] / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    make_source(repo / "skills")
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "skills", cwd=repo)
    head = git("rev-parse", "HEAD", cwd=repo)

    report = skilldeck.add(f"file://{repo}", **ctx(dirs))
    entry = report["installed"][0]["entry"]
    assert report["installed"][0]["name"] == "hello"
    assert entry["sourceType"] == "git"
    assert entry["commit"] == head
    assert entry["subpath"] == "skills/hello"

    # A later commit does not leak into a frozen install: it restores the locked commit.
    (repo / "skills" / "hello" / "SKILL.md").write_text(HELLO + "v2\n", encoding="utf-8")
    git("commit", "-q", "-am", "v2", cwd=repo)
    installed_dir = dirs["project"] / ".agents" / "skills" / "hello"
    subprocess.run(["rm", "-rf", str(installed_dir)], check=True)
    frozen = skilldeck.install_frozen(**ctx(dirs))
    assert frozen == {"restored": ["hello"], "unchanged": []}
    assert (installed_dir / "SKILL.md").read_text(encoding="utf-8") == HELLO
    assert skilldeck.verify(**ctx(dirs))["clean"] is True
    # Already as locked: nothing to restore.
    assert skilldeck.install_frozen(**ctx(dirs)) == {"restored": [], "unchanged": ["hello"]}

    # update sees the new commit; dry_run applies nothing.
    planned = skilldeck.update(dry_run=True, **ctx(dirs))
    assert [c["name"] for c in planned["changes"]] == ["hello"]
    change = planned["changes"][0]
    assert change["fromCommit"] == head and change["toCommit"] != head
    assert change["applied"] is False and change["files"]["changed"] == ["SKILL.md"]
    assert (installed_dir / "SKILL.md").read_text(encoding="utf-8") == HELLO
    applied = skilldeck.update(["hello"], **ctx(dirs))
    assert applied["changes"][0]["applied"] is True
    assert (installed_dir / "SKILL.md").read_text(encoding="utf-8") == HELLO + "v2\n"


def test_user_scope_installs_under_home_with_its_own_lock(dirs):
    user_lock = dirs["root"] / "config" / "skills-lock.json"
    skilldeck.add(str(dirs["source"]), scope="user", user_lock=user_lock, **ctx(dirs))
    assert (dirs["home"] / ".agents" / "skills" / "hello" / "SKILL.md").is_file()
    assert user_lock.is_file()
    assert not (dirs["project"] / "skills-lock.json").exists()
    names = [s["name"] for s in skilldeck.installed(scope="user", user_lock=user_lock, **ctx(dirs))]
    assert names == ["hello"]
    assert skilldeck.installed(**ctx(dirs)) == []


def test_errors_are_install_errors_with_the_engine_code(dirs):
    with pytest.raises(skilldeck.InstallError) as bad:
        skilldeck.add(str(dirs["root"] / "missing"), **ctx(dirs))
    assert bad.value.code == "BAD_SOURCE"
    assert isinstance(bad.value, skilldeck.SkillError)
    assert not (dirs["project"] / "skills-lock.json").exists()

    with pytest.raises(skilldeck.InstallError) as unknown:
        skilldeck.remove(["nope"], **ctx(dirs))
    assert unknown.value.code == "NOT_FOUND"
    assert "nope" in str(unknown.value)

    with pytest.raises(skilldeck.InstallError) as no_lock:
        skilldeck.install_frozen(**ctx(dirs))
    assert no_lock.value.code == "NOT_FOUND"

    with pytest.raises(skilldeck.InstallError) as wrong_skill:
        skilldeck.add(str(dirs["source"]), skills=["other"], **ctx(dirs))
    assert wrong_skill.value.code == "NOT_FOUND"

    # A modified installed copy is not replaced without force.
    skilldeck.add(str(dirs["source"]), **ctx(dirs))
    installed_dir = dirs["project"] / ".agents" / "skills" / "hello"
    (installed_dir / "SKILL.md").write_text("mine", encoding="utf-8")
    with pytest.raises(skilldeck.InstallError) as modified:
        skilldeck.add(str(dirs["source"]), **ctx(dirs))
    assert modified.value.code == "MODIFIED"
    assert modified.value.path is not None
    skilldeck.add(str(dirs["source"]), force=True, **ctx(dirs))
    assert (installed_dir / "SKILL.md").read_text(encoding="utf-8") == HELLO


def test_a_corrupt_lock_is_an_install_error_naming_the_file(dirs):
    lock = dirs["project"] / "skills-lock.json"
    lock.write_text("{not json", encoding="utf-8")
    with pytest.raises(skilldeck.InstallError) as err:
        skilldeck.installed(**ctx(dirs))
    assert err.value.code == "PARSE_ERROR"
    assert err.value.path == str(lock)


def test_bad_options_are_invalid_options_errors(dirs):
    with pytest.raises(skilldeck.InvalidOptionsError) as scope:
        skilldeck.installed(scope="global", **ctx(dirs))
    assert "project" in str(scope.value) and "user" in str(scope.value)
    with pytest.raises(skilldeck.InvalidOptionsError) as limits:
        skilldeck.add(str(dirs["source"]), limits={"max_file": 3}, **ctx(dirs))
    assert "max_files" in str(limits.value)
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.add(str(dirs["source"]), progress=42, **ctx(dirs))
    with pytest.raises(TypeError):
        skilldeck.add(str(dirs["source"]), bogus=True, **ctx(dirs))


def test_limits_apply(dirs):
    with pytest.raises(skilldeck.InstallError) as err:
        skilldeck.add(str(dirs["source"]), limits={"max_files": 1}, **ctx(dirs))
    assert err.value.code == "TOO_LARGE"
    # camelCase (the engine's own spelling) is accepted too.
    report = skilldeck.add(str(dirs["source"]), limits={"maxFiles": 2}, **ctx(dirs))
    assert report["installed"][0]["name"] == "hello"


def test_a_failing_progress_callback_is_reported_not_raised(dirs, monkeypatch):
    reported: List[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))

    def broken(progress: Any) -> None:
        raise RuntimeError("progress display failed")

    report = skilldeck.add(str(dirs["source"]), progress=broken, **ctx(dirs))
    assert report["installed"][0]["name"] == "hello"
    assert reported and all(isinstance(e, RuntimeError) for e in reported)


def test_install_releases_the_gil(dirs):
    """Progress calls come from the engine thread (the caller's), and other threads run
    while an install works."""
    seen: List[int] = []
    skilldeck.add(
        str(dirs["source"]), progress=lambda p: seen.append(threading.get_ident()), **ctx(dirs)
    )
    assert seen and set(seen) == {threading.get_ident()}
    results: List[Any] = []
    workers = [
        threading.Thread(target=lambda: results.append(skilldeck.verify(**ctx(dirs))))
        for _ in range(4)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [r["clean"] for r in results] == [True] * 4


def test_the_embedded_cli_installs(dirs):
    code = skilldeck.run_cli(["add", str(dirs["source"]), "--project", str(dirs["project"])])
    assert code == 0
    lock = json.loads((dirs["project"] / "skills-lock.json").read_text(encoding="utf-8"))
    assert list(lock["skills"]) == ["hello"]
    assert skilldeck.run_cli(["verify", "--project", str(dirs["project"])]) == 0
