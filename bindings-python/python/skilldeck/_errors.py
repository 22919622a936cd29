"""Exceptions raised by skilldeck.

Every engine error carries the core's stable ``code`` (the same string in every language
binding) and the ``path`` it is about, when there is one. Each class also derives from the
built-in exception a Python caller would naturally catch.
"""

from __future__ import annotations

import os
from typing import List, Optional, Sequence, Union


class SkillError(Exception):
    """Base class of every skilldeck error."""

    code: str = "SKILL_ERROR"
    path: Optional[str]

    def __init__(
        self,
        message: str,
        code: Optional[str] = None,
        path: Union[str, "os.PathLike[str]", None] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.path = os.fspath(path) if path is not None else None

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):  # keeps code, path (and e.g. problems) through pickling
        return (type(self), (self.message, self.code, self.path), self.__dict__)


class ParseError(SkillError, ValueError):
    """A SKILL.md (or settings file) could not be parsed."""

    code = "PARSE_ERROR"


class ValidationError(SkillError, ValueError):
    """A skill failed validation."""

    code = "VALIDATION_ERROR"


class NotFoundError(SkillError, LookupError):
    """No skill with this id or name."""

    code = "NOT_FOUND"


class PermissionDeniedError(SkillError, PermissionError):
    """A permission rule denies the skill."""

    code = "PERMISSION_DENIED"


class IoError(SkillError, OSError):
    """Reading or writing a file failed."""

    code = "IO_ERROR"


class RemoteError(SkillError, OSError):
    """A skill from an MCP server failed a check before use, or its server failed; no
    unverified content was used. ``code`` says which: ``REMOTE_SIZE_MISMATCH``,
    ``REMOTE_DIGEST_MISMATCH``, ``REMOTE_FRONTMATTER_MISMATCH`` (the server serves other
    content than it listed: reload the deck), ``REMOTE_NOT_LISTED`` (a file the held entry
    does not list), ``REMOTE_LIMIT_EXCEEDED`` (over 512 files or 16 MiB),
    ``REMOTE_ENTRY_INVALID``, ``REMOTE_SERVER_ERROR`` or ``REMOTE_UNAVAILABLE``."""

    code = "REMOTE_ERROR"


class InvalidOptionsError(SkillError, ValueError):
    """The caller's options are inconsistent (unknown profile, bad format name, ...), or a
    configuration skilldeck reads (a rules document, a profile file) has an unknown key, a
    wrong type or an unknown shape; ``path`` is the file, when there is one, and the
    message names the line and the key."""

    code = "INVALID_OPTIONS"


class InternalError(SkillError, RuntimeError):
    """A bug in skilldeck: the engine panicked. Raised instead of pyo3's ``PanicException``
    (a ``BaseException`` that ``except Exception`` would miss); please report it."""

    code = "INTERNAL"


class InstallError(SkillError):
    """An install operation (``add``, ``remove``, ``update``, ``installed``, ``verify``,
    ``install_frozen``) failed; nothing was changed. ``code`` is the engine's: ``BAD_SOURCE``,
    ``GIT_ERROR``, ``HTTP_ERROR``, ``DIGEST_MISMATCH``, ``UNSAFE_ARCHIVE``, ``TOO_LARGE``,
    ``INVALID_NAME``, ``NOT_FOUND``, ``MODIFIED``, ``FROZEN_MISMATCH``, ``IO_ERROR``, or the
    lock file's ``PARSE_ERROR``/``INVALID_OPTIONS``."""

    code = "INSTALL_ERROR"


class RunError(SkillError):
    """A skill did not run (``run_command``, ``run_script``, ``call_tool``): nothing was
    executed. ``code`` is the engine's: ``NOT_FOUND``, ``PERMISSION_DENIED``,
    ``APPROVAL_REQUIRED``, ``REQUIREMENTS_MISSING``, ``NOT_RUNNABLE``, ``SCRIPT_REFUSED``,
    ``NO_INTERPRETER``, ``DESTINATION_REFUSED``, ``SANDBOX_UNAVAILABLE``, ``SPAWN_FAILED``,
    ``IO_ERROR``, ... A run that started and failed is not an error: see the outcome's
    ``exit_code``, ``timed_out`` and ``cancelled``."""

    code = "RUN_ERROR"


class InvalidInputError(RunError, ValueError):
    """The input does not match the skill's ``parameters`` (or a tool call's arguments have
    the wrong shape); nothing was executed. ``problems`` lists every mismatch."""

    code = "INVALID_INPUT"
    problems: List[str]

    def __init__(
        self,
        message: str,
        code: Optional[str] = None,
        path: Union[str, "os.PathLike[str]", None] = None,
        problems: Optional[Sequence[str]] = None,
    ) -> None:
        super().__init__(message, code, path)
        self.problems = list(problems) if problems is not None else []


__all__ = [
    "SkillError",
    "ParseError",
    "ValidationError",
    "NotFoundError",
    "PermissionDeniedError",
    "IoError",
    "RemoteError",
    "InvalidOptionsError",
    "InternalError",
    "InstallError",
    "RunError",
    "InvalidInputError",
]
