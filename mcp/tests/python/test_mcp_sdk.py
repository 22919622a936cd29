"""`skilldeck mcp` driven by the official MCP Python SDK (PyPI `mcp` 2.3.0), an
independent client. The SDK has no helpers for the Skills extension, so `skills/list`,
`skills/get` and `resources/directory/read` go out as custom requests; files are read
with the SDK's own `read_resource` and re-verified here with hashlib.

Run: SKILLDECK_BIN=target/debug/skilldeck python -m pytest mcp/tests/python
(needs `pip install mcp==2.3.0 pytest`)."""

import base64
import hashlib
import os
import pathlib
import subprocess
from typing import Any, Literal

import anyio
import pytest
from pydantic import TypeAdapter

import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

EXT = "io.modelcontextprotocol/skills"
ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = os.environ.get(
    "SKILLDECK_BIN",
    str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug" / "skilldeck"),
)
ANY = TypeAdapter(dict[str, Any])


class SkillsList(types.Request[dict[str, Any] | None, Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"
    params: dict[str, Any] | None = None


class SkillsGet(types.Request[dict[str, Any], Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: dict[str, Any]


class DirectoryRead(types.Request[dict[str, Any], Literal["resources/directory/read"]]):
    method: Literal["resources/directory/read"] = "resources/directory/read"
    params: dict[str, Any]


def write(path: pathlib.Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


@pytest.fixture
def skills(tmp_path: pathlib.Path) -> pathlib.Path:
    root = tmp_path / "skills"
    write(root / "pdf" / "SKILL.md",
          b"---\nname: pdf\ndescription: Fill PDF forms.\nlicense: MIT\nmetadata:\n  version: '2.1'\n---\n# PDF\n")
    write(root / "pdf" / "templates" / "invoice.md", "Rechnung \u20ac\n".encode())
    write(root / "pdf" / "templates" / "regional" / "eu.md", b"EU\r\n")
    write(root / "pdf" / "assets" / "logo.png", b"\x89PNG\r\n\x1a\n\x00\xff")
    for name in ("alpha", "beta", "gamma"):
        write(root / name / "SKILL.md", f"---\nname: {name}\ndescription: The {name} skill.\n---\n".encode())
    write(tmp_path / "secret.txt", b"secret")
    (tmp_path / "empty").mkdir()
    return root


def server(skills: pathlib.Path) -> StdioServerParameters:
    empty = str(skills.parent / "empty")
    return StdioServerParameters(
        command=BIN,
        args=["mcp", "--no-watch", "--page-size", "2", "--no-host-settings",
              "--project", empty, "--home", empty, "--root", str(skills)],
    )


async def session_run(skills: pathlib.Path, modern: bool, body) -> None:
    async with stdio_client(server(skills)) as (read, write_stream):
        async with ClientSession(read, write_stream) as session:
            if modern:
                result = await session.discover()
            else:
                result = await session.initialize()
            caps = result.capabilities.model_dump(by_alias=True, exclude_none=True)
            assert caps["extensions"][EXT] == {"directoryRead": True}
            assert "resources" in caps
            await body(session)


async def list_all(session: ClientSession) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = await session.send_request(SkillsList(params={"cursor": cursor} if cursor else {}), ANY)
        assert len(page["skills"]) <= 2
        entries += page["skills"]
        cursor = page.get("nextCursor")
        if not cursor:
            return entries


def content_bytes(content: Any) -> bytes:
    if isinstance(content, types.TextResourceContents):
        return content.text.encode()
    return base64.b64decode(content.blob)


@pytest.mark.parametrize("modern", [True, False], ids=["2026-07-28", "2025-11-25"])
def test_skills_extension_with_the_python_sdk(skills: pathlib.Path, modern: bool) -> None:
    async def body(session: ClientSession) -> None:
        entries = await list_all(session)
        assert [e["uri"] for e in entries] == [
            "skill://alpha/SKILL.md", "skill://beta/SKILL.md",
            "skill://gamma/SKILL.md", "skill://pdf/SKILL.md",
        ]
        pdf = entries[-1]
        assert pdf["frontmatter"] == {"name": "pdf", "description": "Fill PDF forms.",
                                      "license": "MIT", "metadata": {"version": "2.1"}}
        for entry in entries:
            got = await session.send_request(SkillsGet(params={"uri": entry["uri"]}), ANY)
            assert got["skill"] == entry
            if modern:
                assert got["resultType"] == "complete"
                assert isinstance(got["ttlMs"], int) and got["cacheScope"] in ("public", "private")
            assert any(f["uri"] == entry["uri"] for f in entry["resources"])
            for f in entry["resources"]:
                result = await session.read_resource(f["uri"])
                [content] = result.contents
                data = content_bytes(content)
                assert len(data) == f["size"], f["uri"]
                assert "sha256:" + hashlib.sha256(data).hexdigest() == f["digest"], f["uri"]
                assert data == (skills / f["uri"].removeprefix("skill://")).read_bytes()

        listing = await session.send_request(DirectoryRead(params={"uri": "skill://pdf/templates"}), ANY)
        children = {(r["uri"], r["mimeType"]) for r in listing["resources"]}
        assert children == {("skill://pdf/templates/invoice.md", "text/markdown"),
                            ("skill://pdf/templates/regional", "inode/directory")}

        for method, uri in [
            (SkillsGet, "skill://nope/SKILL.md"),
            (SkillsGet, "skill://pdf/templates/invoice.md"),
            (DirectoryRead, "skill://pdf/SKILL.md"),
            (DirectoryRead, "skill://pdf/%2e%2e"),
        ]:
            with pytest.raises(MCPError) as err:
                await session.send_request(method(params={"uri": uri}), ANY)
            assert err.value.error.code == -32602, uri
        for uri in ["skill://pdf/../secret.txt", "skill://pdf/%2E%2E/secret.txt",
                    "skill://pdf/templates/%2e%2e%2f%2e%2e%2fsecret.txt", "skill://pdf/nope.md"]:
            with pytest.raises(MCPError) as err:
                await session.read_resource(uri)
            assert err.value.error.code == -32602, uri

    anyio.run(session_run, skills, modern, body)


@pytest.mark.parametrize("modern", [True, False], ids=["2026-07-28", "2025-11-25"])
def test_streamable_http(skills: pathlib.Path, modern: bool) -> None:
    """`skilldeck mcp --http`: the same extension over streamable HTTP (binary built with
    the CLI's `http` feature, on by default)."""
    empty = str(skills.parent / "empty")
    proc = subprocess.Popen(
        [BIN, "mcp", "--http", "127.0.0.1:0", "--page-size", "2", "--no-watch", "--no-host-settings",
         "--project", empty, "--home", empty, "--root", str(skills)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stderr.readline()
        assert "serving streamable HTTP at " in line, line
        url = line.split("serving streamable HTTP at ", 1)[1].strip()

        async def run() -> None:
            async with streamable_http_client(url) as (read, write_stream):
                async with ClientSession(read, write_stream) as session:
                    result = await (session.discover() if modern else session.initialize())
                    caps = result.capabilities.model_dump(by_alias=True, exclude_none=True)
                    assert caps["extensions"][EXT] == {"directoryRead": True}
                    entries = await list_all(session)
                    assert len(entries) == 4
                    pdf = entries[-1]
                    for f in pdf["resources"]:
                        [content] = (await session.read_resource(f["uri"])).contents
                        data = content_bytes(content)
                        assert "sha256:" + hashlib.sha256(data).hexdigest() == f["digest"]
                    with pytest.raises(MCPError) as err:
                        await session.read_resource("skill://pdf/%2e%2e/secret.txt")
                    assert err.value.error.code == -32602

        anyio.run(run)
    finally:
        proc.kill()
        proc.wait()
