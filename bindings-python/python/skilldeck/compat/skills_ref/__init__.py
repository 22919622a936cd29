"""Drop-in replacement for ``skills_ref`` 0.1.1 (the Agent Skills reference library).

Same functions, classes, messages and output as the reference, computed by the skilldeck
engine (``skilldeck::compat::skills_ref`` in Rust). The submodules mirror the reference's
layout (``errors``, ``models``, ``parser``, ``prompt``, ``validator``), so
``from skills_ref.parser import read_properties`` becomes
``from skilldeck.compat.skills_ref.parser import read_properties``.
"""

from .errors import ParseError, SkillError, ValidationError
from .models import SkillProperties
from .parser import find_skill_md, parse_frontmatter, read_properties
from .prompt import to_prompt
from .validator import validate, validate_metadata

__all__ = [
    "SkillError",
    "ParseError",
    "ValidationError",
    "SkillProperties",
    "find_skill_md",
    "parse_frontmatter",
    "validate",
    "validate_metadata",
    "read_properties",
    "to_prompt",
]

# The reference version whose behaviour this module reproduces.
__version__ = "0.1.1"
