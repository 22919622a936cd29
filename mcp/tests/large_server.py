#!/usr/bin/env python3
"""A small independent MCP server (stdlib only, raw JSON-RPC over stdio) that declares the
Skills extension and serves skills at and past the extension's 16 MiB limit, for testing
what a client retrieves over the transport:

- `big-binary`: listed and served soundly, one 12 MiB binary file (within the limit; as
  base64 it is a 16.7 MiB message, past a 16 MiB line limit);
- `understated`: its entry lists a 10-byte file, the server sends 5 MiB for it;
- `dynamic-big`: generated (`resources: "dynamic"`), two 9 MiB files: 18 MiB retrieved;
- `dynamic-huge`: generated, one 40 MiB file, a message larger than any allowed file needs.
"""
import base64
import hashlib
import json
import sys

MIB = 1024 * 1024


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def skill_md(name: str) -> bytes:
    return f"---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n".encode()


FILES = {}  # uri -> bytes (or a function producing them, for generated skills)
SKILLS = []


def publish(name, files, *, dynamic=False, listed=None):
    resources = []
    for rel, data in files.items():
        uri = f"skill://{name}/{rel}"
        FILES[uri] = data
        shown = (listed or {}).get(rel, data)
        resources.append({"uri": uri, "digest": digest(shown), "size": len(shown)})
    SKILLS.append({
        "uri": f"skill://{name}/SKILL.md",
        "frontmatter": {"name": name, "description": f"The {name} skill."},
        "resources": "dynamic" if dynamic else resources,
    })


# Bytes 0..255 repeated: not UTF-8, so it travels as a base64 blob.
publish("big-binary", {"SKILL.md": skill_md("big-binary"), "data.bin": bytes(range(256)) * (12 * MIB // 256)})
publish("understated", {"SKILL.md": skill_md("understated"), "data.txt": b"x" * (5 * MIB)},
        listed={"data.txt": b"0123456789"})
publish("dynamic-big", {"SKILL.md": skill_md("dynamic-big"), "a.txt": b"a" * (9 * MIB), "b.txt": b"b" * (9 * MIB)},
        dynamic=True)
publish("dynamic-huge", {"SKILL.md": skill_md("dynamic-huge"), "data.txt": b"h" * (40 * MIB)}, dynamic=True)


def result(msg_id, value):
    return {"jsonrpc": "2.0", "id": msg_id, "result": value}


def error(msg_id, code, message):
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def handle(msg):
    method, msg_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if msg_id is None:
        return None
    if method == "initialize":
        return result(msg_id, {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {}}},
            "serverInfo": {"name": "large", "version": "1"},
        })
    if method == "ping":
        return result(msg_id, {})
    if method == "skills/list":
        return result(msg_id, {"skills": SKILLS, "ttlMs": 1000, "cacheScope": "private",
                               "resultType": "complete"})
    if method == "resources/read":
        uri = params.get("uri")
        if uri not in FILES:
            return error(msg_id, -32602, f"unknown resource {uri}")
        data = FILES[uri]
        try:
            content = {"uri": uri, "text": data.decode("utf-8")}
        except UnicodeDecodeError:
            content = {"uri": uri, "blob": base64.b64encode(data).decode()}
        return result(msg_id, {"contents": [content]})
    return error(msg_id, -32601, f"method not found: {method}")


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    reply = handle(json.loads(line))
    if reply is not None:
        try:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            # The client closed the connection (e.g. after an oversized message).
            sys.exit(0)
