"""skilldeck: one engine for AI-agent Skills (folders holding a SKILL.md).

Discover skills where each host looks, parse and validate them, resolve name clashes,
filter by permissions, render them into a system prompt and activate one on a tool call::

    import skilldeck

    deck = skilldeck.Deck(profile="claude-code", project_dir=".")
    catalog = deck.load()
    system_prompt = deck.render(format="xml").text
    activation = deck.activate("pdf", args="report.pdf")
    hits = deck.search("fill a pdf form", limit=5).hits

Install skills into a project with a verifiable ``skills-lock.json`` (``add``, ``remove``,
``update``, ``installed``, ``verify``, ``install_frozen``), run command skills and scripts in
a sandbox (``await run_command(...)``, ``run_script``, ``call_tool``, each with a ``_sync``
variant, a ``CancelToken`` and streamed events), and hand a model its tool definitions
(``tool_definitions``, ``agent_tools``, ``tool_result``). Marketplaces and plugins go where Claude Code keeps them
(``marketplace_add``, ``plugin_install``, ``plugin_list``, ``plugin_enable``, ...). ``audit``
reports what a skill
or plugin would run or hide before you install it (``add`` refuses critical findings unless
told otherwise with ``max_severity``); the dict shapes are in ``skilldeck.types``.

All behaviour lives in the Rust core; this package is a thin binding over it.
"""

from ._errors import (
    InstallError,
    InternalError,
    InvalidInputError,
    InvalidOptionsError,
    IoError,
    NotFoundError,
    ParseError,
    PermissionDeniedError,
    RemoteError,
    RunError,
    SkillError,
    ValidationError,
)
from ._native import (
    TOOL_FORMATS,
    VERSION,
    Activation,
    CancelToken,
    Catalog,
    Deck,
    Diagnostic,
    Diff,
    Manifest,
    McpHttpServer,
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
    add,
    agent_tools,
    attach_mcp,
    audit,
    call_tool_sync,
    install_frozen,
    installed,
    marketplace_add,
    marketplace_list,
    marketplace_remove,
    marketplace_update,
    parse,
    plugin_disable,
    plugin_enable,
    plugin_install,
    plugin_list,
    plugin_uninstall,
    plugin_update,
    remove,
    run_cli,
    run_command_sync,
    run_script_sync,
    run_skill_script_tool,
    search_skills_tool,
    search_tool_definition,
    serve_mcp,
    serve_mcp_http,
    skill_tool,
    tool_definitions,
    tool_result,
    update,
    validate,
    verify,
    version,
)
from . import types
from ._run import call_tool, run_command, run_script

__version__ = VERSION

__all__ = [
    "Activation",
    "CancelToken",
    "Catalog",
    "Deck",
    "Diagnostic",
    "Diff",
    "InstallError",
    "InternalError",
    "InvalidInputError",
    "InvalidOptionsError",
    "IoError",
    "Manifest",
    "McpHttpServer",
    "NotFoundError",
    "ParseError",
    "Parsed",
    "PermissionDeniedError",
    "PermissionRules",
    "RemoteError",
    "RenderReport",
    "Rendered",
    "RunError",
    "SearchHit",
    "SearchResults",
    "Shadowed",
    "Skill",
    "SkillError",
    "Status",
    "TOOL_FORMATS",
    "Truncation",
    "VERSION",
    "ValidationError",
    "ValidationReport",
    "add",
    "agent_tools",
    "attach_mcp",
    "audit",
    "call_tool",
    "call_tool_sync",
    "install_frozen",
    "installed",
    "marketplace_add",
    "marketplace_list",
    "marketplace_remove",
    "marketplace_update",
    "parse",
    "plugin_disable",
    "plugin_enable",
    "plugin_install",
    "plugin_list",
    "plugin_uninstall",
    "plugin_update",
    "remove",
    "run_cli",
    "run_command",
    "run_command_sync",
    "run_script",
    "run_script_sync",
    "run_skill_script_tool",
    "search_skills_tool",
    "search_tool_definition",
    "serve_mcp",
    "serve_mcp_http",
    "skill_tool",
    "tool_definitions",
    "tool_result",
    "update",
    "validate",
    "verify",
    "version",
]
