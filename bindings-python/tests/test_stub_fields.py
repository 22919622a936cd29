"""The manifest properties in _native.pyi are generated from the engine's field list
(bindings-python/stubgen.py): fail while the committed stub is stale."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import skilldeck
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


def _literal(name: str) -> list[str]:
    """The values of `name = Literal[...]` in the committed stub."""
    text = _stubgen().STUB.read_text(encoding="utf-8")
    start = text.index(f"{name} = Literal[")
    block = text[start : text.index("]", start)]
    return re.findall(r'"([^"]+)"', block)


def _engine_names(message: str) -> list[str]:
    """The names an INVALID_OPTIONS message lists after `expected one of:`."""
    listed = message.split("expected one of: ", 1)[1]
    return [n.strip() for n in re.split(r"[,)]", listed.split(", or ")[0]) if n.strip()]


def test_profile_literal_lists_every_builtin_profile(tmp_path):
    with pytest.raises(skilldeck.InvalidOptionsError) as err:
        skilldeck.Deck(project_dir=str(tmp_path), profile="no-such-profile")
    assert _literal("_Profile") == _engine_names(str(err.value))


def test_format_literals_list_every_engine_format(tmp_path):
    deck = skilldeck.Deck(project_dir=str(tmp_path))
    with pytest.raises(skilldeck.InvalidOptionsError) as err:
        deck.render(format="no-such-format")
    assert _literal("_RenderFormat") == _engine_names(str(err.value))
    with pytest.raises(skilldeck.InvalidOptionsError) as err:
        deck.activate("x", format="no-such-format")
    assert _literal("_ActivationFormat") == _engine_names(str(err.value))
