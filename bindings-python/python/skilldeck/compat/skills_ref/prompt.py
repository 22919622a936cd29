"""The ``<available_skills>`` block, byte for byte as skills-ref prints it."""

from pathlib import Path
from typing import Iterable, Union
import os

from ... import _native

__all__ = ["to_prompt"]


def to_prompt(skill_dirs: Iterable[Union[str, "os.PathLike[str]"]]) -> str:
    """Generate the <available_skills> XML block for inclusion in agent prompts.

    Raises:
        ParseError, ValidationError: as ``read_properties`` for the first bad skill
    """
    return _native._compat_to_prompt([Path(d) for d in skill_dirs])
