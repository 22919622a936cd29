"""skilldeck's MCP client over streamable HTTP (`skilldeck mcp-client … --url`) against an
independent server built on the official MCP Python SDK (`http_skill_server.py`): listing
across pages, verified fetches (text and base64 blob), a refused digest, and the headers
given with `--header` reaching the server."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BIN = os.environ.get(
    "SKILLDECK_BIN",
    str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug" / "skilldeck"),
)


@pytest.fixture
def url():
    proc = subprocess.Popen([sys.executable, str(HERE / "http_skill_server.py")],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{line.split()[1]}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def client(tmp_path: pathlib.Path, url: str, *args: str, key: str = "k1") -> subprocess.CompletedProcess:
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    return subprocess.run(
        [BIN, "mcp-client", *args, "--label", "ind", "--no-host-settings",
         "--project", str(empty), "--home", str(empty), "--cache", str(tmp_path / "cache"),
         "--url", url, "--header", f"X-Skills-Key: {key}"],
        capture_output=True, text=True, timeout=60,
    )


def test_lists_every_page_of_an_independent_server(tmp_path, url):
    out = client(tmp_path, url, "list", "--json")
    assert out.returncode == 0, out.stderr
    listing = json.loads(out.stdout)
    assert [s["id"] for s in listing["skills"]] == ["ind:tools/greet", "ind:tampered", "ind:live/report"]
    assert listing["refused"] == []
    greet = listing["skills"][0]
    assert [f["path"] for f in greet["files"]] == ["SKILL.md", "data/logo.bin"]


def test_fetches_and_verifies_text_and_blob_files(tmp_path, url):
    out = client(tmp_path, url, "get", "skill://tools/greet/SKILL.md", "--all", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    cached = pathlib.Path(got["dir"])
    assert cached.is_relative_to(tmp_path / "cache" / "ind" / "tools" / "greet")
    assert (cached / "data" / "logo.bin").read_bytes() == b"\x89PNG\x00\xff"
    assert (cached / "SKILL.md").read_bytes().startswith(b"---\nname: greet\n")


def test_refuses_content_that_does_not_match_its_digest(tmp_path, url):
    out = client(tmp_path, url, "get", "skill://tampered/SKILL.md")
    assert out.returncode == 1
    assert "verification failed" in out.stderr and "digest" in out.stderr
    assert not (tmp_path / "cache" / "ind" / "tampered").exists()


def test_headers_reach_the_server(tmp_path, url):
    out = client(tmp_path, url, "list", key="wrong")
    assert out.returncode == 1
    assert "403" in out.stderr and "missing X-Skills-Key" in out.stderr


def test_a_dynamic_skill_loads_with_its_files_from_directory_reads(tmp_path, url):
    out = client(tmp_path, url, "get", "skill://live/report/SKILL.md", "--all", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["skill"]["dynamic"] is True and got["skill"]["files"] == []
    cached = pathlib.Path(got["dir"])
    assert cached.is_relative_to(tmp_path / "cache" / "ind" / "live" / "report")
    # Every file the server's directory reads list, nested directories followed.
    assert (cached / "data" / "today.csv").read_bytes() == b"day,count\ntoday,3\n"
    assert (cached / "data" / "archive" / "yesterday.csv").read_bytes() == b"day,count\nyesterday,2\n"
    first = (cached / "SKILL.md").read_text()
    assert first.startswith("---\nname: report\n") and "Report number" in first
    # Generated content is fetched again, never trusted from the cache.
    out = client(tmp_path, url, "get", "skill://live/report/SKILL.md", "--json")
    assert out.returncode == 0, out.stderr
    assert (cached / "SKILL.md").read_text() != first


def test_activating_a_remote_skill_lists_its_files_by_uri(tmp_path, url):
    empty = tmp_path / "empty"
    empty.mkdir()
    common = ["--no-host-settings", "--project", str(empty), "--home", str(empty),
              "--mcp-cache", str(tmp_path / "cache"), "--mcp-url", f"ind={url}",
              "--mcp-header", "X-Skills-Key: k1"]
    out = subprocess.run([BIN, "activate", "ind:tools/greet", *common],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "verified against the skill's manifest when read):\n- skill://tools/greet/data/logo.bin\n" in out.stdout
    out = subprocess.run([BIN, "activate", "ind:live/report", "--json", *common],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    activation = json.loads(out.stdout)
    assert activation["resources"] == [
        "skill://live/report/data/archive/yesterday.csv",
        "skill://live/report/data/today.csv",
    ]
    assert "none of it can be verified" in activation["text"]
    assert "Report number" in activation["text"]
