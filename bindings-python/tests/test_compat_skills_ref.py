"""skilldeck.compat.skills_ref against the real skills-ref 0.1.1, case by case.

The reference is installed in the test venv (scripts/test.d/30-python.sh pins it). Every
answer must be identical, except the text StrictYAML appends after
"Invalid YAML in frontmatter:" (its own multi-line parser trace), where only the prefix is
compared. skills-ref's own 40 tests run separately against the drop-in (see the script).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Tuple

import pytest
import skills_ref as reference

from skilldeck.compat import skills_ref as compat

INVALID_YAML = "Invalid YAML in frontmatter:"

CASES: List[Tuple[str, str]] = [
    ("pdf", "---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n"),
    ("pdf", "---\nname: pdf\ndescription: d\nlicense: MIT\ncompatibility: py3\n"
     "allowed-tools: Bash(git:*) Read\nmetadata:\n  author: a\n  version: 1.0\n---\nbody\n"),
    ("pdf", "---\nname: pdf\ndescription: d\nmetadata:\n  nested:\n    a: b\n  list:\n  - x\n---\n"),
    ("Bad--Name-", "---\nname: Bad--Name-\ndescription: d\nzeta: 1\nalpha: 2\n---\n"),
    ("wrong", "---\nname: right\ndescription: d\n---\n"),
    ("a_b", "---\nname: a_b\ndescription: d\n---\n"),
    ("x" * 70, "---\nname: " + "x" * 70 + "\ndescription: d\n---\n"),
    ("long", "---\nname: long\ndescription: " + "y" * 1100 + "\ncompatibility: " + "z" * 600 + "\n---\n"),
    ("empty", "---\nname:\ndescription: ''\n---\n"),
    ("blank", "---\nname: '   '\ndescription: d\n---\n"),
    ("listy", "---\nname:\n- a\ndescription:\n  k: v\ncompatibility:\n- c\n---\n"),
    ("none", "---\ndescription: only\n---\n"),
    ("none", "---\nname: none\n---\n"),
    ("flow", "---\nname: flow\ndescription: d\ntags: [a, b]\n---\n"),
    ("dup", "---\nname: dup\nname: dup\ndescription: d\n---\n"),
    ("nomatter", "# heading first\n"),
    ("unclosed", "---\nname: unclosed\ndescription: d\n"),
    ("seq", "---\n- a\n- b\n---\n"),
    ("emptyfm", "---\n---\nbody\n"),
    ("crlf", "---\r\nname: crlf\r\ndescription: Windows.\r\n---\r\nbody\r\n"),
    ("bom", "\ufeff---\nname: bom\ndescription: d\n---\n"),
    ("quoted", '---\nname: quoted\ndescription: "Use <a> & \\"b\\" \'c\'"\n---\n'),
    ("folded", "---\nname: folded\ndescription: >-\n  one\n  two\n---\n"),
    ("inline---dash", "---\nname: inline---dash\ndescription: a---b\n---\n"),
    ("yes", "---\nname: yes\ndescription: 1.0\n---\n"),
    ("技能", "---\nname: 技能\ndescription: 中文\n---\n"),
    ("НАВЫК", "---\nname: НАВЫК\ndescription: d\n---\n"),
    ("café", "---\nname: cafe\u0301\ndescription: d\n---\n"),
    ("ﬁle", "---\nname: ﬁle\ndescription: ligature\n---\n"),
    ("anchor", "---\nname: &n anchor\ndescription: *n\n---\n"),
    ("tagged", "---\nname: !!str tagged\ndescription: d\n---\n"),
]


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        value = fn()
    except Exception as err:  # compared by class name and message
        message = str(err)
        if message.startswith(INVALID_YAML):
            message = INVALID_YAML
        return ("raised", type(err).__name__, message)
    if isinstance(value, list):
        return [INVALID_YAML if str(v).startswith(INVALID_YAML) else v for v in value]
    return value


def _skill(root: Path, dir_name: str, text: str) -> Path:
    skill_dir = root / dir_name
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_bytes(text.encode("utf-8"))
    return skill_dir


@pytest.mark.parametrize("dir_name,text", CASES, ids=[f"{i}-{c[0][:12]}" for i, c in enumerate(CASES)])
def test_same_answers_as_reference(tmp_path: Path, dir_name: str, text: str):
    skill_dir = _skill(tmp_path, dir_name, text)
    assert _outcome(lambda: compat.validate(skill_dir)) == _outcome(
        lambda: reference.validate(skill_dir)
    )
    assert _outcome(lambda: compat.read_properties(skill_dir).to_dict()) == _outcome(
        lambda: reference.read_properties(skill_dir).to_dict()
    )
    assert _outcome(lambda: compat.to_prompt([skill_dir])) == _outcome(
        lambda: reference.to_prompt([skill_dir])
    )
    content = text.replace("\r\n", "\n")
    assert _outcome(lambda: compat.parse_frontmatter(content)) == _outcome(
        lambda: reference.parser.parse_frontmatter(content)
    )


def test_paths_and_directories(tmp_path: Path):
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "empty").mkdir()
    lower = _skill(tmp_path, "lower", "---\nname: lower\ndescription: d\n---\n")
    (lower / "SKILL.md").rename(lower / "skill.md")
    for target in (tmp_path / "missing", tmp_path / "file.txt", tmp_path / "empty", lower):
        assert compat.validate(target) == reference.validate(target)
        assert compat.validate(str(target)) == reference.validate(str(target))
        assert compat.find_skill_md(target) == reference.find_skill_md(target)
    assert compat.to_prompt([]) == reference.to_prompt([])
    assert compat.to_prompt([lower, str(lower)]) == reference.to_prompt([lower, str(lower)])


def test_same_public_names_and_exception_shapes():
    assert set(reference.__all__) <= set(compat.__all__)
    err = compat.ValidationError("m")
    assert err.errors == ["m"] and isinstance(err, compat.SkillError)
    assert issubclass(compat.ParseError, compat.SkillError)
    assert compat.SkillProperties(name="a", description="b").to_dict() == {
        "name": "a",
        "description": "b",
    }


def _decode_failure(fn: Callable[[], Any]) -> Any:
    try:
        fn()
    except UnicodeDecodeError as err:
        return (err.encoding, err.start, err.end, err.reason, str(err))
    return "no error"


@pytest.mark.parametrize(
    "raw",
    [b"---\nname: \xff\n---\n", b"---\nname: \xe4\x41\n---\n", b"---\nname: x\n---\n\xe4\xb8"],
)
def test_undecodable_files_raise_unicode_decode_error(tmp_path: Path, raw: bytes):
    skill_dir = tmp_path / "x"
    skill_dir.mkdir()
    (skill_dir / "SKILL.md").write_bytes(raw)
    for name in ("validate", "read_properties"):
        ours = _decode_failure(lambda: getattr(compat, name)(skill_dir))
        theirs = _decode_failure(lambda: getattr(reference, name)(skill_dir))
        assert ours == theirs, name
