"""skilldeck: one engine for AI-agent Skills (folders holding a SKILL.md).

Discover skills where each host looks, parse and validate them, resolve name clashes,
filter by permissions, render them into a system prompt and activate one on a tool call::

    import skilldeck

    deck = skilldeck.Deck(profile="claude-code", project_dir=".")
    catalog = deck.load()
    system_prompt = deck.render(format="xml").text
    activation = deck.activate("pdf", args="report.pdf")
    hits = deck.search("fill a pdf form", limit=5).hits

All behaviour lives in the Rust core; this package is a thin binding over it.
"""

from ._errors import (
    InternalError,
    InvalidOptionsError,
    IoError,
    NotFoundError,
    ParseError,
    PermissionDeniedError,
    SkillError,
    ValidationError,
)
from ._native import (
    VERSION,
    Activation,
    Catalog,
    Deck,
    Diagnostic,
    Diff,
    Manifest,
    Parsed,
    PermissionRules,
    Rendered,
    RenderReport,
    SearchHit,
    SearchResults,
    Shadowed,
    Skill,
    Status,
    Truncation,
    ValidationReport,
    parse,
    run_cli,
    search_tool_definition,
    validate,
    version,
)

__version__ = VERSION

__all__ = [
    "VERSION",
    "Activation",
    "Catalog",
    "Deck",
    "Diagnostic",
    "Diff",
    "InternalError",
    "InvalidOptionsError",
    "IoError",
    "Manifest",
    "NotFoundError",
    "ParseError",
    "Parsed",
    "PermissionDeniedError",
    "PermissionRules",
    "RenderReport",
    "Rendered",
    "SearchHit",
    "SearchResults",
    "Shadowed",
    "Skill",
    "SkillError",
    "Status",
    "Truncation",
    "ValidationError",
    "ValidationReport",
    "parse",
    "run_cli",
    "search_tool_definition",
    "validate",
    "version",
]
