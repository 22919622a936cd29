#!/usr/bin/env python3
"""A small independent MCP server (stdlib only, raw JSON-RPC over stdio) that declares the
Skills extension and serves deliberately broken skills, for testing a client's checks:
a wrong digest, a wrong size, a frontmatter that differs from its file, the same URI listed
twice, an entry without `resources`, a manifest reaching outside its skill, 513 files, over
16 MiB, a name shared with a local skill and a name shared by two paths of this server.
Only `good` and the two `same` skills (and `alpha`) are sound. `dynamic` is generated: its
`SKILL.md` differs on every read (its frontmatter does not)."""
import hashlib
import json
import sys


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def skill_md(name: str, description: str) -> bytes:
    return f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n".encode()


FILES = {}  # uri -> bytes
SKILLS = []  # entries, in listing order


def add(path, name, files, *, frontmatter=None, tamper=None, extra_resources=None):
    """Publish a skill at skill://<path>; `tamper(resources)` breaks the entry's manifest."""
    base = f"skill://{path}"
    resources = []
    for rel, data in files.items():
        uri = f"{base}/{rel}"
        FILES[uri] = data
        resources.append({"uri": uri, "digest": digest(data), "size": len(data)})
    if tamper:
        tamper(resources)
    resources += extra_resources or []
    entry = {
        "uri": f"{base}/SKILL.md",
        "frontmatter": frontmatter or {"name": name, "description": f"The {name} skill."},
        "resources": resources,
    }
    SKILLS.append(entry)
    return entry


add("good", "good", {"SKILL.md": skill_md("good", "The good skill."), "notes/a.txt": b"\x00\x01binary\xff"})
add("bad-digest", "bad-digest", {"SKILL.md": skill_md("bad-digest", "The bad-digest skill.")},
    tamper=lambda r: r[0].update(digest=digest(b"something else")))
add("wrong-size", "wrong-size", {"SKILL.md": skill_md("wrong-size", "The wrong-size skill.")},
    tamper=lambda r: r[0].update(size=r[0]["size"] + 1))
add("fm-mismatch", "fm-mismatch", {"SKILL.md": skill_md("fm-mismatch", "What the file says.")},
    frontmatter={"name": "fm-mismatch", "description": "What the entry says."})
dup = add("dup", "dup", {"SKILL.md": skill_md("dup", "The dup skill.")})
SKILLS.append(dict(dup))
SKILLS.append({"uri": "skill://dynamic/SKILL.md",
               "frontmatter": {"name": "dynamic", "description": "The dynamic skill."},
               "resources": "dynamic"})
add("escape", "escape", {"SKILL.md": skill_md("escape", "The escape skill.")},
    extra_resources=[{"uri": "skill://good/SKILL.md", "digest": digest(b""), "size": 0}])
SKILLS.append({"uri": "skill://no-resources/SKILL.md",
               "frontmatter": {"name": "no-resources", "description": "Lists no files."}})
many = add("too-many", "too-many", {"SKILL.md": skill_md("too-many", "The too-many skill.")})
many["resources"] += [{"uri": f"skill://too-many/f{i}.txt", "digest": digest(b""), "size": 0} for i in range(512)]
big = add("too-big", "too-big", {"SKILL.md": skill_md("too-big", "The too-big skill.")})
big["resources"].append({"uri": "skill://too-big/data.bin", "digest": digest(b""), "size": 16 * 1024 * 1024})
add("alpha", "alpha", {"SKILL.md": skill_md("alpha", "The alpha skill.")})
add("team-a/same", "same", {"SKILL.md": skill_md("same", "The same skill.")})
add("team-b/same", "same", {"SKILL.md": skill_md("same", "The same skill.")})

READS = [0]


def dynamic_skill_md():
    READS[0] += 1
    return f"---\nname: dynamic\ndescription: The dynamic skill.\n---\nread number {READS[0]}\n"


DYNAMIC = {
    "skill://dynamic/SKILL.md": dynamic_skill_md,
}

PAGE = 3


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
            "serverInfo": {"name": "skilldeck", "version": "0-impostor"},
        })
    if method == "ping":
        return result(msg_id, {})
    if method == "skills/list":
        start = int(params.get("cursor") or 0)
        page = {"skills": SKILLS[start:start + PAGE], "ttlMs": 1000, "cacheScope": "private",
                "resultType": "complete"}
        if start + PAGE < len(SKILLS):
            page["nextCursor"] = str(start + PAGE)
        return result(msg_id, page)
    if method == "skills/get":
        for entry in SKILLS:
            if entry["uri"] == params.get("uri"):
                return result(msg_id, {"skill": entry, "ttlMs": 1000, "cacheScope": "private",
                                       "resultType": "complete"})
        return error(msg_id, -32602, f"No skill is served at {params.get('uri')}")
    if method == "resources/read":
        uri = params.get("uri")
        if uri in DYNAMIC:
            return result(msg_id, {"contents": [{"uri": uri, "text": DYNAMIC[uri]()}]})
        if uri not in FILES:
            return error(msg_id, -32602, f"unknown resource {uri}")
        data = FILES[uri]
        try:
            content = {"uri": uri, "text": data.decode("utf-8")}
        except UnicodeDecodeError:
            import base64
            content = {"uri": uri, "blob": base64.b64encode(data).decode()}
        return result(msg_id, {"contents": [content]})
    return error(msg_id, -32601, f"method not found: {method}")


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    reply = handle(json.loads(line))
    if reply is not None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
