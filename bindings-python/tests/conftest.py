"""Shared fixtures: small skill trees built in a temp dir, so no test sees the real machine."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict

import pytest

import skilldeck

PDF = """---
name: pdf
description: Extract text and tables from PDF files.
license: MIT
allowed-tools: Read Bash(pdftotext:*)
metadata:
  author: someone
tags: [documents, pdf]
source: internal
---
# PDF

Run `pdftotext $ARGUMENTS`.
"""

DOCX = """---
name: docx
description: Edit Word documents.
disable-model-invocation: true
---
# DOCX
"""

BROKEN = """---
name: broken
description: [unclosed
---
"""


def write_skill(root: Path, name: str, text: str) -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """`<tmp>/project` (a git repository with three skills) and an empty `<tmp>/home`."""
    root = tmp_path.resolve()
    (root / "project" / ".git").mkdir(parents=True)
    (root / "home").mkdir()
    skills = root / "project" / ".agents" / "skills"
    write_skill(skills, "pdf", PDF)
    write_skill(skills, "docx", DOCX)
    write_skill(skills, "broken", BROKEN)
    return root


@pytest.fixture
def make_deck(tree: Path) -> Callable[..., skilldeck.Deck]:
    def make(**options) -> skilldeck.Deck:
        defaults: Dict[str, object] = {
            "project_dir": tree / "project",
            "home_dir": tree / "home",
            "env": {},
            "system_root": tree,
        }
        defaults.update(options)
        return skilldeck.Deck(**defaults)

    return make
