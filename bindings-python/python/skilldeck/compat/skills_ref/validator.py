"""Skill validation with skills-ref's exact messages and order."""

import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ... import _native

MAX_SKILL_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
MAX_COMPATIBILITY_LENGTH = 500

ALLOWED_FIELDS = {
    "name",
    "description",
    "license",
    "allowed-tools",
    "metadata",
    "compatibility",
}

__all__ = [
    "ALLOWED_FIELDS",
    "MAX_COMPATIBILITY_LENGTH",
    "MAX_DESCRIPTION_LENGTH",
    "MAX_SKILL_NAME_LENGTH",
    "validate",
    "validate_metadata",
]


def validate_metadata(
    metadata: Dict[str, Any], skill_dir: Optional[Union[str, "os.PathLike[str]"]] = None
) -> List[str]:
    """Validate parsed frontmatter; ``skill_dir`` enables the name/directory check.

    Returns:
        List of validation error messages. Empty list means valid.
    """
    return _native._compat_validate_metadata(
        metadata, None if skill_dir is None else Path(skill_dir)
    )


def validate(skill_dir: Union[str, "os.PathLike[str]"]) -> List[str]:
    """Validate a skill directory.

    Returns:
        List of validation error messages. Empty list means valid.
    """
    return _native._compat_validate(Path(skill_dir))
