"""MCP in the Python binding: a deck served over streamable HTTP (`serve_mcp_http`) and over
stdio (`serve_mcp`, in a child Python process), each consumed by another deck through
`attach_mcp` (skills listed with their origin, fetched and verified on activation), and
the typed errors of a server that cannot be reached or a command line that does not
split."""

import shlex
import sys
from pathlib import Path

import pytest

import skilldeck


def write_skill(root: Path, name: str, body: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: The {name} skill.\n---\n{body}\n"
    )


def deck_over(tmp: Path, skills: Path) -> skilldeck.Deck:
    empty = tmp / "empty"
    empty.mkdir(exist_ok=True)
    return skilldeck.Deck(
        project_dir=empty, home_dir=empty, roots=[skills], read_host_settings=False, env={}
    )


@pytest.fixture
def served(tmp_path: Path) -> Path:
    remote = tmp_path / "remote skills"
    write_skill(remote, "alpha", "alpha body")
    (remote / "alpha" / "scripts").mkdir()
    (remote / "alpha" / "scripts" / "run.sh").write_text("echo hi\n")
    return remote


def test_a_deck_served_over_http_is_another_decks_source(tmp_path: Path, served: Path) -> None:
    local = tmp_path / "local"
    write_skill(local, "beta", "beta body")
    with skilldeck.serve_mcp_http(deck_over(tmp_path, served)) as server:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/mcp")
        deck = deck_over(tmp_path, local)
        labels = skilldeck.attach_mcp(deck, urls=[f"web={server.url}"], cache=tmp_path / "cache")
        assert labels == ["web"]
        catalog = deck.load()
        assert [s.id for s in catalog.listed()] == ["beta", "web:alpha"]
        remote = catalog.get("web:alpha")
        assert remote is not None and remote.scope == "extra"
        activation = deck.activate("web:alpha")
        assert activation.text.startswith("Origin: MCP server `web` (skill `web:alpha`).")
        assert "alpha body" in activation.text
        assert activation.resources == ["skill://alpha/scripts/run.sh"]
    # Closed: the URL no longer answers.
    with pytest.raises(skilldeck.RemoteError) as err:
        skilldeck.attach_mcp(
            deck_over(tmp_path, local), urls=[f"web={server.url}"], cache=tmp_path / "cache"
        )
    assert err.value.code == "REMOTE_UNAVAILABLE"
    server.close()  # idempotent


def test_a_deck_served_over_stdio_by_a_child_python(tmp_path: Path, served: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    script = (
        "import skilldeck; "
        f"d = skilldeck.Deck(project_dir={str(empty)!r}, home_dir={str(empty)!r}, "
        f"roots=[{str(served)!r}], read_host_settings=False, env={{}}); "
        "skilldeck.serve_mcp(d)"
    )
    # The command line is split like a shell line: the quoted script stays one argument.
    command = f"py={shlex.quote(sys.executable)} -c {shlex.quote(script)}"
    local = tmp_path / "local"
    local.mkdir()
    deck = deck_over(tmp_path, local)
    assert skilldeck.attach_mcp(deck, servers=[command], cache=tmp_path / "cache") == ["py"]
    assert [s.id for s in deck.load().listed()] == ["py:alpha"]
    assert "alpha body" in deck.activate("py:alpha").text


def test_errors_are_typed(tmp_path: Path) -> None:
    local = tmp_path / "local"
    local.mkdir()
    deck = deck_over(tmp_path, local)
    with pytest.raises(skilldeck.RemoteError) as err:
        skilldeck.attach_mcp(deck, servers=["gone=/nonexistent/server"], cache=tmp_path / "c")
    assert err.value.code == "REMOTE_UNAVAILABLE"
    assert "gone: cannot start or reach the MCP server" in str(err.value)
    with pytest.raises(skilldeck.InvalidOptionsError, match="unbalanced quote"):
        skilldeck.attach_mcp(deck, servers=["srv 'a"], cache=tmp_path / "c")
    with pytest.raises(skilldeck.InvalidOptionsError, match="overlaps the skill discovery path"):
        skilldeck.attach_mcp(deck, servers=["x=y"], cache=local / "cache")
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.serve_mcp_http(deck, addr="not an address")
