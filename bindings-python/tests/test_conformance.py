"""Runs every conformance vector in tests/vectors through the Python API.

Follows tests/README.md step by step: copy tree/, apply setup, run the operation through
skilldeck's public Python classes, turn the result into canonical JSON with to_dict(),
replace the tree path with <tree>, and compare by subset match.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import skilldeck

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors"


def _cases() -> List[Path]:
    return sorted(p.parent for p in VECTORS.rglob("case.json"))


def _case_id(path: Path) -> str:
    return path.relative_to(VECTORS).as_posix()


def _apply_setup(tree: Path, setup: Dict[str, Any]) -> None:
    for rel in setup.get("mkdir", []):
        (tree / rel).mkdir(parents=True, exist_ok=True)
    for link in setup.get("symlinks", []):
        at = tree / link["link"]
        at.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(link["target"], at)


def _deck(tree: Path, spec: Dict[str, Any]) -> skilldeck.Deck:
    """A Deck from input.deck with the vector defaults (nothing sees the real machine)."""
    options = dict(spec)
    options["project_dir"] = tree / options.get("project_dir", "project")
    options["home_dir"] = tree / (options.get("home_dir") or "home")
    options["system_root"] = tree / (options.get("system_root") or ".")
    options["env"] = {
        k: str(v).replace("<tree>", str(tree)) for k, v in (options.get("env") or {}).items()
    }
    roots = []
    for root in options.get("roots", []):
        if isinstance(root, str):
            roots.append(tree / root)
        else:
            root = dict(root)
            root["path"] = tree / root.get("path", ".")
            roots.append(root)
    options["roots"] = roots
    return skilldeck.Deck(**options)


def _apply_changes(tree: Path, changes: List[Dict[str, Any]]) -> None:
    for change in changes:
        if "write" in change:
            path = tree / change["write"]
            previous = path.stat().st_mtime if path.exists() else None
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(change.get("text", ""), encoding="utf-8")
            # A stat-based cache must see the change: move the mtime 2 s past the old one.
            base = previous if previous is not None else path.stat().st_mtime
            os.utime(path, (base + 2, base + 2))
        elif "remove" in change:
            path = tree / change["remove"]
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()


def _run(tree: Path, case: Dict[str, Any]) -> Any:
    op = case["operation"]
    data = case.get("input", {})
    if op == "parse":
        return skilldeck.parse(data.get("text", "")).to_dict()
    if op == "validate":
        reports = skilldeck.validate(tree / data.get("path", "."), strict=data.get("strict", False))
        return [r.to_dict() for r in reports]
    if op == "discover":
        return _deck(tree, data.get("deck", {})).load().to_dict()
    if op == "reload":
        deck = _deck(tree, data.get("deck", {}))
        deck.load()
        _apply_changes(tree, data.get("changes", []))
        return deck.reload().to_dict()
    if op == "permissions":
        rules = skilldeck.PermissionRules(data.get("rules"))
        agent: Optional[str] = data.get("agent")
        return {
            "decisions": {i: rules.evaluate(i, agent=agent) for i in data.get("ids", [])},
            "tool_disabled": rules.tool_disabled(agent=agent),
        }
    if op == "render":
        return _deck(tree, data.get("deck", {})).render(**data.get("render", {})).to_dict()
    if op == "search":
        return _deck(tree, data.get("deck", {})).search(**data.get("search", {})).to_dict()
    if op == "activate":
        deck = _deck(tree, data.get("deck", {}))
        return deck.activate(data["id"], **data.get("activate", {})).to_dict()
    if op == "audit":
        return skilldeck.audit(tree / data.get("path", "."))
    raise AssertionError(f"unknown operation {op!r}")


def _normalise(value: Any, tree: str) -> Any:
    if isinstance(value, str):
        return value.replace(tree, "<tree>")
    if isinstance(value, list):
        return [_normalise(v, tree) for v in value]
    if isinstance(value, dict):
        return {k: _normalise(v, tree) for k, v in value.items()}
    return value


def _mismatch(expected: Any, actual: Any, at: str = "$") -> Optional[str]:
    """Subset match (tests/README.md); the JSON path of the first difference, or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{at}: expected an object, got {actual!r}"
        for key, exp in expected.items():
            if key not in actual:
                if exp is None:
                    continue
                return f"{at}.{key}: missing"
            why = _mismatch(exp, actual[key], f"{at}.{key}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{at}: expected an array, got {actual!r}"
        if len(expected) != len(actual):
            return f"{at}: expected {len(expected)} items, got {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            why = _mismatch(e, a, f"{at}[{i}]")
            if why:
                return why
        return None
    # JSON has one number type: 1 == 1.0, but True is not 1.
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = type(expected) is type(actual) and expected == actual
    else:
        same = expected == actual
    return None if same else f"{at}: expected {expected!r}, got {actual!r}"


def test_vectors_exist():
    assert _cases(), f"no vectors found under {VECTORS}"


@pytest.mark.parametrize("case_dir", _cases(), ids=_case_id)
def test_vector(case_dir: Path, tmp_path: Path):
    case = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
    tree = tmp_path.resolve()
    if (case_dir / "tree").is_dir():
        shutil.copytree(case_dir / "tree", tree, dirs_exist_ok=True, symlinks=True)
    _apply_setup(tree, case.get("setup", {}))
    try:
        result = _run(tree, case)
    except skilldeck.SkillError as err:
        result = {"error": {"code": err.code, "message": str(err)}}
    actual = _normalise(result, str(tree))
    why = _mismatch(case["expected"], actual)
    assert why is None, f"{why}\nactual: {json.dumps(actual, indent=2)}"
