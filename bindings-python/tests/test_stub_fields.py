"""The manifest properties in _native.pyi are generated from the engine's field list
(bindings-python/stubgen.py): fail while the committed stub is stale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from skilldeck import _native

STUBGEN = Path(__file__).resolve().parents[1] / "stubgen.py"


def _stubgen():
    spec = importlib.util.spec_from_file_location("stubgen", STUBGEN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_manifest_and_skill_stubs_are_generated_from_the_field_list():
    stubgen = _stubgen()
    text = stubgen.STUB.read_text(encoding="utf-8")
    # Manifest and Skill each hold one generated block.
    assert text.count(stubgen.BEGIN) == 2
    fresh = stubgen.render(text, _native.Manifest._fields)
    assert fresh == text, "run `python bindings-python/stubgen.py` and commit the stub"


def test_every_listed_field_is_a_property_of_manifest_and_skill():
    names = [name for name, _ in _native.Manifest._fields]
    assert "max_thinking_tokens" in names and "extra" in names
    for cls in (_native.Manifest, _native.Skill):
        for name in names:
            assert hasattr(cls, name), (cls, name)
