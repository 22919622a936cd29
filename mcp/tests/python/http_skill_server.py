"""An independent streamable-HTTP MCP server for `McpSkillSource::connect_url`, built on the
official MCP Python SDK's low-level `Server` (PyPI `mcp` 2.3.0): it declares the Skills
extension and answers `skills/list` / `skills/get` with custom request handlers (the SDK has
no skills support of its own) and `resources/read` with its `on_read_resource` hook.

It serves one sound skill (`greet`, a text and a binary file), one whose published digest is
wrong (`tampered`), and one whose content it generates (`report`, `resources: "dynamic"`:
its `SKILL.md` changes on every read, its files are found with `resources/directory/read`,
which it declares and answers, nested directories included), and requires the header
`X-Skills-Key: k1` on every request (403 otherwise). Prints `PORT <n>` once listening.
Run: python http_skill_server.py"""

import base64
import hashlib
import socket
import sys
from typing import Any

import mcp_types as types
import uvicorn
from mcp.server.lowlevel.server import Server
from pydantic import ConfigDict

EXT = "io.modelcontextprotocol/skills"
KEY = ("x-skills-key", "k1")


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


FILES: dict[str, bytes] = {
    "skill://tools/greet/SKILL.md": b"---\nname: greet\ndescription: Greets people.\n---\n# Greet\nSay hello.\n",
    "skill://tools/greet/data/logo.bin": b"\x89PNG\x00\xff",
    "skill://tampered/SKILL.md": b"---\nname: tampered\ndescription: Changed after listing.\n---\nbody\n",
}
FRONTMATTER = {
    "skill://tools/greet/SKILL.md": {"name": "greet", "description": "Greets people."},
    "skill://tampered/SKILL.md": {"name": "tampered", "description": "Changed after listing."},
    "skill://live/report/SKILL.md": {"name": "report", "description": "Today's report, generated."},
}
READS = [0]


def report_skill_md() -> bytes:
    READS[0] += 1
    return f"---\nname: report\ndescription: Today's report, generated.\n---\nReport number {READS[0]}.\n".encode()


# The generated skill's tree: directory URI -> children (name, is_directory).
TREE = {
    "skill://live/report": [("SKILL.md", False), ("data", True)],
    "skill://live/report/data": [("today.csv", False), ("archive", True)],
    "skill://live/report/data/archive": [("yesterday.csv", False)],
}
GENERATED = {
    "skill://live/report/SKILL.md": report_skill_md,
    "skill://live/report/data/today.csv": lambda: b"day,count\ntoday,3\n",
    "skill://live/report/data/archive/yesterday.csv": lambda: b"day,count\nyesterday,2\n",
}


def entry(uri: str) -> dict[str, Any]:
    if uri in GENERATED:
        return {"uri": uri, "frontmatter": FRONTMATTER[uri], "resources": "dynamic"}
    base = uri.rsplit("/", 1)[0] + "/"
    resources = [
        {"uri": u, "size": len(data), "digest": digest(data)}
        for u, data in FILES.items()
        if u.startswith(base)
    ]
    if uri == "skill://tampered/SKILL.md":
        resources[0]["digest"] = digest(b"what was listed")
    return {"uri": uri, "frontmatter": FRONTMATTER[uri], "resources": resources}


class AnyParams(types.RequestParams):
    model_config = ConfigDict(extra="allow")


async def skills_list(ctx: Any, params: AnyParams) -> dict[str, Any]:
    # One skill per page, to exercise the client's cursor handling.
    uris = list(FRONTMATTER)
    extra = params.model_extra or {}
    start = int(extra.get("cursor") or 0)
    page: dict[str, Any] = {"skills": [entry(uris[start])]}
    if start + 1 < len(uris):
        page["nextCursor"] = str(start + 1)
    return page


async def skills_get(ctx: Any, params: AnyParams) -> dict[str, Any]:
    uri = (params.model_extra or {}).get("uri")
    if uri not in FRONTMATTER:
        raise ValueError(f"unknown skill {uri}")
    return {"skill": entry(uri)}


async def directory_read(ctx: Any, params: AnyParams) -> dict[str, Any]:
    uri = (params.model_extra or {}).get("uri")
    if uri not in TREE:
        raise ValueError(f"{uri} is not a directory resource")
    children = [
        {"uri": f"{uri}/{name}", "name": name,
         "mimeType": "inode/directory" if is_dir else "text/plain"}
        for name, is_dir in TREE[uri]
    ]
    return {"resources": children}


async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    data = GENERATED[uri]() if uri in GENERATED else FILES[uri]
    if uri.endswith(".bin"):
        content: Any = types.BlobResourceContents(uri=uri, blob=base64.b64encode(data).decode())
    else:
        content = types.TextResourceContents(uri=uri, text=data.decode())
    return types.ReadResourceResult(contents=[content])


def main() -> None:
    server = Server("independent-skills", version="1.0", on_read_resource=read_resource)
    server.add_request_handler("skills/list", AnyParams, skills_list)
    server.add_request_handler("skills/get", AnyParams, skills_get)
    server.add_request_handler("resources/directory/read", AnyParams, directory_read)
    server.extensions = {EXT: {"directoryRead": True}}
    app = server.streamable_http_app()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            if headers.get(KEY[0]) != KEY[1]:
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"text/plain")]})
                await send({"type": "http.response.body", "body": b"missing X-Skills-Key"})
                return
        await app(scope, receive, send)

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    # Listening before the port is announced: a client may connect before uvicorn starts.
    sock.listen(64)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
