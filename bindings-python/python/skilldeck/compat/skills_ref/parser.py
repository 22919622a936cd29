"""Frontmatter parsing with skills-ref's semantics (StrictYAML: every scalar a string)."""

import os
from pathlib import Path
from typing import Any, Dict, Optional, Tuple, Union

from ... import _native
from .errors import ParseError, ValidationError
from .models import SkillProperties

PathArg = Union[str, "os.PathLike[str]"]

__all__ = [
    "ParseError",
    "ValidationError",
    "find_skill_md",
    "parse_frontmatter",
    "read_properties",
]


def find_skill_md(skill_dir: PathArg) -> Optional[Path]:
    """Find the SKILL.md file in a skill directory (``SKILL.md``, else ``skill.md``)."""
    return _native._compat_find_skill_md(Path(skill_dir))


def parse_frontmatter(content: str) -> Tuple[Dict[str, Any], str]:
    """Parse YAML frontmatter from SKILL.md content into ``(metadata dict, body)``.

    Raises:
        ParseError: If frontmatter is missing or invalid
    """
    return _native._compat_parse_frontmatter(content)


def read_properties(skill_dir: PathArg) -> SkillProperties:
    """Read skill properties from SKILL.md frontmatter (no full validation).

    Raises:
        ParseError: If SKILL.md is missing or has invalid YAML
        ValidationError: If required fields (name, description) are missing
    """
    fields = _native._compat_read_properties(Path(skill_dir))
    return SkillProperties(**fields)
