"""The shapes of the dicts skilldeck's install, run and tool functions take and return.

Each is the engine's own JSON (serde) form of the Rust record, the same in every language
binding, so the keys are the engine's: snake case for the runner's records, camel case for
the install records (``gitRef``, ``sourceType``, ``upToDate``), as ``skills-lock.json``
writes them. These are ``TypedDict``s for type checkers and editors; at runtime the values
are plain ``dict``s.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

# Written as unions of single literals: a multi-value `Literal` is not a `Union` at runtime,
# which mypy's stubtest (run on this package) reports.
Scope = Union[Literal["project"], Literal["user"]]
"""Which lock and directories an install operation works on."""

ToolFormat = Union[Literal["openai"], Literal["anthropic"], Literal["vercel"]]
"""A provider's tool JSON shape (``skilldeck.TOOL_FORMATS`` lists them)."""

SandboxMode = Union[Literal["enforce"], Literal["none"]]
"""``enforce``: Landlock + seccomp + rlimits, refused where unavailable; ``none``: no
confinement (only for skills you trust)."""

# ---- audit ----

AuditSeverity = Union[
    Literal["info"], Literal["low"], Literal["medium"], Literal["high"], Literal["critical"]
]
"""How much a finding needs a human, lowest first (``add(max_severity=...)`` refuses above)."""


class AuditFinding(TypedDict):
    """One thing a reviewer should look at."""

    severity: AuditSeverity
    code: str
    """Stable kebab-case check name (``pipe-to-shell``, ``bidi-control``, ...)."""
    path: str
    """Relative to the audited root, ``/``-separated (``""`` for the root itself)."""
    line: Optional[int]
    column: Optional[int]
    message: str
    hint: str
    """What to do about it."""


class AuditReport(TypedDict):
    """What ``skilldeck.audit`` found."""

    root: str
    kind: Union[Literal["skill"], Literal["plugin"], Literal["directory"]]
    skills: List[str]
    """Directories holding a ``SKILL.md``, relative to ``root`` (``""`` for the root)."""
    files: int
    findings: List[AuditFinding]
    """Most severe first, then by path and line."""


# ---- plugins and marketplaces (Claude Code's layout) ----

PluginScope = Union[Literal["user"], Literal["project"], Literal["local"], Literal["managed"]]
"""Where a plugin is enabled: ``~/.claude/settings.json`` or ``<project>/.claude/settings.json``."""

PluginHost = Union[Literal["claude-code"], Literal["codex"], Literal["copilot-cli"]]
"""Whose plugin files the plugin functions write: Claude Code 2.1.197's (default), Codex
0.169.0's (``$CODEX_HOME/config.toml``) or GitHub Copilot CLI 1.0.102's
(``$COPILOT_HOME/settings.json`` and ``config.json``); the last two: user scope only."""


class MarketplaceInfo(TypedDict):
    """A marketplace as ``marketplace_add`` / ``marketplace_list`` report it."""

    name: str
    source: Any
    """The source as Claude Code's ``known_marketplaces.json`` records it."""
    installLocation: str
    lastUpdated: str
    commit: Optional[str]
    plugins: List[str]
    error: Optional[str]
    """Why its ``marketplace.json`` could not be read, if it could not."""


class MarketplaceUpdate(TypedDict):
    """What ``marketplace_update`` did to one marketplace."""

    name: str
    fromCommit: Optional[str]
    toCommit: Optional[str]


class MarketplaceRemoveReport(TypedDict):
    """What ``marketplace_remove`` did."""

    name: str
    uninstalled: List[str]
    """Its plugins uninstalled with it (``plugin@marketplace``)."""


class PluginInfo(TypedDict):
    """One installed plugin."""

    id: str
    """``plugin@marketplace``."""
    name: str
    marketplace: str
    scope: PluginScope
    enabled: bool
    version: Optional[str]
    installPath: str
    gitCommitSha: Optional[str]
    skills: List[str]
    """Its skills as the ``claude-code`` profile names them (``plugin:skill``)."""
    digest: Optional[str]
    modified: bool
    """The installed files differ from what skilldeck recorded."""


class PluginSkill(TypedDict):
    """One skill of a plugin: its directory name and path inside the plugin."""

    name: str
    path: str


class PluginInstallReport(TypedDict):
    """What ``plugin_install`` did."""

    plugin: PluginInfo
    skillDirs: List[PluginSkill]
    files: Dict[str, str]
    """Installed files, relative path -> ``sha256:<hex>``."""
    warnings: List[str]
    audit: List[AuditFinding]
    """The audit of the installed files (at or below the refusal threshold)."""


class PluginUpdateChange(TypedDict):
    """One plugin ``plugin_update`` reinstalled."""

    id: str
    fromVersion: Optional[str]
    toVersion: Optional[str]
    fromCommit: Optional[str]
    toCommit: Optional[str]
    fromDigest: Optional[str]
    toDigest: str


class PluginUpdateReport(TypedDict):
    """What ``plugin_update`` did."""

    changes: List[PluginUpdateChange]
    upToDate: List[str]
    warnings: List[str]


class PluginUninstallReport(TypedDict):
    """What ``plugin_uninstall`` did."""

    id: str
    scope: PluginScope
    removedPath: Optional[str]
    """The cache directory deleted (when no other scope still used it)."""


# ---- install ----


class InstallLimits(TypedDict, total=False):
    """Caps on what one install operation may fetch and install (the ``limits`` argument;
    give any of them, snake case or the engine's camel case)."""

    max_files: int
    max_bytes: int
    max_download_bytes: int
    max_archive_entries: int
    max_archive_bytes: int
    timeout: int
    """Whole-request HTTP timeout in seconds."""


class Progress(TypedDict):
    """One step of an install operation, passed to the ``progress`` callback."""

    phase: str
    """``fetch``, ``stage``, ``install``, ``verify`` or ``lock``."""
    message: str


class _LockEntryRequired(TypedDict):
    source: str
    sourceType: str
    computedHash: str
    path: str
    digest: str
    """The skill digest, ``sha256:<hex>``."""
    files: Dict[str, str]
    """Every installed file (``/``-separated path) → ``sha256:<hex>``."""


class LockEntry(_LockEntryRequired, total=False):
    """One skill's entry in ``skills-lock.json`` (other tools' extra keys are kept)."""

    ref: str
    url: str
    subpath: str
    commit: str
    sha256: str
    links: List[str]


class InstalledSkill(TypedDict):
    """One installed skill as the lock records it."""

    name: str
    entry: LockEntry


class AddReport(TypedDict):
    """What ``add`` did."""

    installed: List[InstalledSkill]
    warnings: List[str]
    audit: List[SkillAudit]
    """What the audit of each installed skill found (skills without findings left out)."""


class SkillAudit(TypedDict):
    """One installed skill's audit findings (``AddReport.audit``)."""

    name: str
    findings: List[AuditFinding]


class RemoveReport(TypedDict):
    """What ``remove`` did."""

    removed: List[str]


class TreeDiff(TypedDict):
    """What differs between an installed directory and its lock entry (sorted paths)."""

    changed: List[str]
    added: List[str]
    missing: List[str]


class SkillVerify(TypedDict):
    """One skill's verification."""

    name: str
    path: str
    diff: TreeDiff


class VerifyReport(TypedDict):
    """What ``verify`` found: ``clean`` when every skill is exactly as locked."""

    clean: bool
    skills: List[SkillVerify]


class UpdateChange(TypedDict):
    """One skill whose commit or digest changed."""

    name: str
    fromCommit: Optional[str]
    toCommit: Optional[str]
    fromDigest: str
    toDigest: str
    files: TreeDiff
    applied: bool
    """False for ``dry_run``."""


class UpdateReport(TypedDict):
    """What ``update`` found and did."""

    changes: List[UpdateChange]
    upToDate: List[str]
    warnings: List[str]
    audit: List[SkillAudit]
    """The audit of each changed skill's new files (applying refuses critical findings)."""


class FrozenReport(TypedDict):
    """What ``install_frozen`` did."""

    restored: List[str]
    unchanged: List[str]


# ---- run ----


class RunLimits(TypedDict, total=False):
    """Resource limits applied to a run's process (rlimits)."""

    memory_bytes: int
    file_size_bytes: int
    processes: int


class FsViewOnly(TypedDict):
    """Only these paths (and what is below them) are readable in the sandbox."""

    only: List[str]


FsView = Union[Literal["read_only"], FsViewOnly]


class RunOptions(TypedDict, total=False):
    """The keyword options of ``run_command``, ``run_script`` and ``call_tool`` (and their
    ``_sync`` variants): the engine's ``RunOptions``."""

    timeout: Optional[float]
    """Seconds before the process group is killed (default: the skill's ``timeout``, else
    30)."""
    output_limit: Optional[int]
    """Bytes kept per stream (default 1 MiB); the rest is dropped (``truncated``)."""
    sandbox: SandboxMode
    fs_view: FsView
    allow_network: bool
    limits: RunLimits
    agent: Optional[str]
    """The agent whose permission rules apply (else the deck's)."""
    approved: bool
    """The user approved a skill whose permission is ``ask``."""
    work_root: Optional[str]
    keep_work_dir: bool


class SandboxReport(TypedDict):
    """What the sandbox enforced, mechanism by mechanism."""

    landlock_abi: int
    filesystem: bool
    network_denied: bool
    seccomp: bool
    limits: RunLimits


class _RunOutcomeRequired(TypedDict):
    skill: str
    exit_code: Optional[int]
    """``None`` when a signal ended the process (timeout, cancel, a crash)."""
    signal: Optional[int]
    stdout: str
    stderr: str
    truncated: bool
    timed_out: bool
    cancelled: bool
    duration_ms: int
    sandboxed: bool


class RunOutcome(_RunOutcomeRequired, total=False):
    """What a run did (returned by ``run_command``, ``run_script``, ``call_tool``)."""

    json: Any
    """``stdout`` parsed as JSON, when it is JSON."""
    sandbox: SandboxReport
    artifacts: List[str]
    """The files delivered to ``destination`` (absolute paths)."""
    work_dir: str
    """The work directory, when ``keep_work_dir``."""


class StartedEvent(TypedDict):
    type: Literal["started"]
    skill: str
    target: str


class StdoutEvent(TypedDict):
    type: Literal["stdout"]
    text: str


class StderrEvent(TypedDict):
    type: Literal["stderr"]
    text: str


class FinishedEvent(TypedDict):
    type: Literal["finished"]
    exit_code: Optional[int]
    duration_ms: int
    timed_out: bool
    cancelled: bool
    truncated: bool


ExecEvent = Union[StartedEvent, StdoutEvent, StderrEvent, FinishedEvent]
"""Streamed to ``on_event`` while a run goes on: ``started``, output chunks, ``finished``."""

__all__ = [
    "AddReport",
    "AuditFinding",
    "AuditReport",
    "AuditSeverity",
    "ExecEvent",
    "FinishedEvent",
    "FrozenReport",
    "FsView",
    "FsViewOnly",
    "InstallLimits",
    "InstalledSkill",
    "LockEntry",
    "MarketplaceInfo",
    "MarketplaceRemoveReport",
    "MarketplaceUpdate",
    "PluginInfo",
    "PluginInstallReport",
    "PluginHost",
    "PluginScope",
    "PluginSkill",
    "PluginUninstallReport",
    "PluginUpdateChange",
    "PluginUpdateReport",
    "Progress",
    "RemoveReport",
    "RunLimits",
    "RunOptions",
    "RunOutcome",
    "SandboxMode",
    "SandboxReport",
    "Scope",
    "SkillAudit",
    "SkillVerify",
    "StartedEvent",
    "StderrEvent",
    "StdoutEvent",
    "ToolFormat",
    "TreeDiff",
    "UpdateChange",
    "UpdateReport",
    "VerifyReport",
]
