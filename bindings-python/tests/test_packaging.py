"""The wheel's metadata: the declared licence with its texts, and a long description whose
links work on PyPI (absolute, not relative to the repository)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_licence_expression_and_files():
    meta = metadata.metadata("skilldeck")
    assert meta.get("License-Expression") == "MIT OR Apache-2.0"
    files = meta.get_all("License-File") or []
    assert "LICENSE-MIT" in files and "LICENSE-APACHE" in files, files
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        assert (ROOT / name).is_file()


def test_long_description_links_are_absolute():
    description = metadata.metadata("skilldeck").get_payload() or metadata.metadata(
        "skilldeck"
    ).get("Description", "")
    assert "skilldeck" in description
    for target in re.findall(r"\]\(([^)]+)\)", description):
        assert re.match(r"https?://", target), f"relative link on PyPI: {target}"
