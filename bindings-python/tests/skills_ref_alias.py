"""pytest plugin: makes ``import skills_ref`` (and its submodules) resolve to
``skilldeck.compat.skills_ref``, so skills-ref 0.1.1's own test files run unmodified against
the drop-in. Used by scripts/test.d/30-python.sh: ``pytest -p skills_ref_alias <suite>``.
"""

import importlib
import sys

_SUBMODULES = ("errors", "models", "parser", "prompt", "validator")


def _alias() -> None:
    compat = importlib.import_module("skilldeck.compat.skills_ref")
    sys.modules["skills_ref"] = compat
    for name in _SUBMODULES:
        sys.modules[f"skills_ref.{name}"] = importlib.import_module(
            f"skilldeck.compat.skills_ref.{name}"
        )


def pytest_configure(config):  # noqa: ARG001 (pytest hook signature)
    _alias()


def pytest_report_header(config):  # noqa: ARG001 (pytest hook signature)
    module = sys.modules["skills_ref"]
    return f"skills_ref is {module.__name__} ({module.__file__})"
