"""The broken-file matrix: one SKILL.md per way a file can be broken or unusual.

Every case is a skill directory whose SKILL.md breaks in exactly one way: each class of YAML
scanner and parser error, every fence (delimiter) variant and every encoding problem, plus the
wrong value types for `name` and `description`. `oracle.py matrix` writes the same cases into
one discovery vector per host (`oracle-<host>-broken-matrix`), and `oracle.py record` then
asks the real host which files it loads and what name and description it reads from each.

The cases are bytes, not text, so encodings can be broken on purpose. Each case is named by
its directory; where the case is not about `name`, the file's `name` is the directory name,
so every loaded skill is unique (OpenCode lets a later file win a clash at random).
"""

from __future__ import annotations

import random
from pathlib import Path


def fm(*lines: str, body: str = "# Body\n\nText.\n", nl: str = "\n") -> bytes:
    """A SKILL.md with the given frontmatter lines between two `---` fences."""
    return (nl.join(["---", *lines, "---"]) + nl + body.replace("\n", nl)).encode()


def ok(name: str, *extra: str, description: str = "A valid description.") -> bytes:
    return fm(f"name: {name}", f"description: {description}", *extra)


def cases() -> dict[str, bytes]:
    """Directory name → file bytes. The order is the order of this table, for readers."""
    c: dict[str, bytes] = {}

    # --- a control: loads everywhere -----------------------------------------------------
    c["control-valid"] = ok("control-valid")

    # --- YAML scanner errors: unterminated scalars of each quoting style -----------------
    c["yaml-dq-unterminated"] = fm("name: yaml-dq-unterminated", 'description: "never closed')
    c["yaml-sq-unterminated"] = fm("name: yaml-sq-unterminated", "description: 'never closed")
    c["yaml-dq-unterminated-multiline"] = fm(
        "name: yaml-dq-unterminated-multiline", 'description: "starts here', "  and goes on"
    )
    c["yaml-dq-unterminated-then-key"] = fm(
        'description: "never closed', "name: yaml-dq-unterminated-then-key"
    )
    c["yaml-dq-bad-escape"] = fm("name: yaml-dq-bad-escape", r'description: "bad \q escape"')
    c["yaml-dq-text-after"] = fm("name: yaml-dq-text-after", 'description: "Beta" converter')
    c["yaml-sq-text-after"] = fm("name: yaml-sq-text-after", "description: 'Beta' converter")
    c["yaml-block-bad-indicator"] = fm(
        "name: yaml-block-bad-indicator", "description: |x", "  text"
    )

    # --- unclosed flow collections ----------------------------------------------------------
    c["yaml-flow-seq-unclosed"] = fm("name: yaml-flow-seq-unclosed", "description: [unclosed")
    c["yaml-flow-map-unclosed"] = fm("name: yaml-flow-map-unclosed", "description: {unclosed")
    c["yaml-flow-unclosed-other-key"] = fm(
        "name: yaml-flow-unclosed-other-key",
        "description: A valid description.",
        "tags: [a, b",
    )
    c["yaml-flow-text-after"] = fm(
        "name: yaml-flow-text-after", "description: [file] [mode] converter"
    )

    # --- plain scalars that strict YAML refuses ---------------------------------------------
    c["yaml-colon-in-value"] = fm("name: yaml-colon-in-value", "description: Use when: asked")
    c["yaml-colon-at-end"] = fm("name: yaml-colon-at-end", "description: Use it for:")
    c["yaml-colon-continued"] = fm(
        "name: yaml-colon-continued", "description: Long text", "  that goes on: here"
    )
    c["yaml-at-start"] = fm("name: yaml-at-start", "description: @mention someone")
    c["yaml-backtick-start"] = fm("name: yaml-backtick-start", "description: `code` first")
    c["yaml-star-start"] = fm("name: yaml-star-start", "description: *emphasis* here")
    c["yaml-percent-start"] = fm("name: yaml-percent-start", "description: %50 off")
    c["yaml-dash-value"] = fm("name: yaml-dash-value", "description: - a list item?")
    c["yaml-comment-value"] = fm("name: yaml-comment-value", "description: # only a comment")
    c["yaml-hash-inside"] = fm("name: yaml-hash-inside", "description: C# and F# # tail")
    c["yaml-stray-line"] = fm(
        "name: yaml-stray-line", "description: A valid description.", "just some text"
    )
    c["yaml-bad-indent"] = fm("name: yaml-bad-indent", "  description: indented key")
    c["yaml-key-no-space"] = fm("name: yaml-key-no-space", "description:NoSpace")
    c["yaml-doc-end-marker"] = fm(
        "name: yaml-doc-end-marker", "description: A valid description.", "..."
    )
    c["yaml-directive"] = fm("%YAML 1.2", "name: yaml-directive", "description: Directive.")

    # --- aliases, anchors, tags, merge keys ---------------------------------------------------
    c["yaml-alias-unknown"] = fm("name: yaml-alias-unknown", "description: *nope")
    c["yaml-alias-valid"] = fm(
        "name: yaml-alias-valid", "summary: &s Shared text.", "description: *s"
    )
    c["yaml-alias-unknown-other-key"] = fm(
        "name: yaml-alias-unknown-other-key",
        "description: A valid description.",
        "metadata:",
        "  x: *missing",
    )
    c["yaml-anchor-on-name"] = fm("name: &n yaml-anchor-on-name", "description: Anchored.")
    c["yaml-merge-key"] = fm(
        "base: &b",
        "  description: Merged description.",
        "<<: *b",
        "name: yaml-merge-key",
    )
    c["yaml-tag-str"] = fm("name: !!str 4242", "description: Tagged name.")
    c["yaml-tag-custom"] = fm("name: yaml-tag-custom", "description: !custom Tagged text.")
    c["yaml-tag-int-description"] = fm(
        "name: yaml-tag-int-description", "description: !!int 42"
    )

    # --- duplicate keys ----------------------------------------------------------------------
    c["yaml-dup-description"] = fm(
        "name: yaml-dup-description", "description: First.", "description: Second."
    )
    c["yaml-dup-name"] = fm("name: first-name", "name: yaml-dup-name", "description: Dup name.")
    c["yaml-dup-other-key"] = fm(
        "name: yaml-dup-other-key", "description: Dup other.", "license: MIT", "license: BSD"
    )

    # --- tabs and control characters ---------------------------------------------------------
    c["yaml-tab-indent"] = fm(
        "name: yaml-tab-indent", "description: Tab indent.", "metadata:", "\tkey: value"
    )
    c["yaml-tab-after-colon"] = fm("name: yaml-tab-after-colon", "description:\tTab value.")
    c["yaml-tab-before-key"] = fm("name: yaml-tab-before-key", "\tdescription: Tab key.")
    c["yaml-tab-in-value"] = fm("name: yaml-tab-in-value", "description: a\tb")
    c["yaml-control-bell"] = fm("name: yaml-control-bell", "description: ring \x07 bell")
    c["yaml-control-escape"] = fm("name: yaml-control-escape", "description: esc \x1b[1m bold")
    c["yaml-control-in-dq"] = fm("name: yaml-control-in-dq", 'description: "ring \x07 bell"')
    c["yaml-del-char"] = fm("name: yaml-del-char", "description: del \x7f char")
    c["yaml-nbsp-value"] = fm("name: yaml-nbsp-value", "description: non\u00a0breaking")

    # --- value types of `name` ----------------------------------------------------------------
    c["name-int"] = fm("name: 1001", "description: Integer name.")
    c["name-float"] = fm("name: 1.5", "description: Float name.")
    c["name-bool-true"] = fm("name: true", "description: Boolean name.")
    c["name-yes"] = fm("name: yes", "description: YAML 1.1 boolean name.")
    c["name-null-tilde"] = fm("name: ~", "description: Null name.")
    c["name-empty"] = fm("name:", "description: Empty name.")
    c["name-blank-quoted"] = fm('name: "  "', "description: Blank name.")
    c["name-list"] = fm("name: [a, b]", "description: List name.")
    c["name-map"] = fm("name: {a: b}", "description: Map name.")
    c["name-missing"] = fm("description: No name key.")
    c["name-multiline"] = fm("name: >-", "  name-multi", "  line", "description: Folded name.")
    c["name-spaces"] = fm("name: Name With Spaces", "description: Spaces.")
    c["name-padded"] = fm('name: "  name-padded  "', "description: Padded name.")

    # --- value types of `description` ---------------------------------------------------------
    c["desc-int"] = fm("name: desc-int", "description: 42")
    c["desc-float"] = fm("name: desc-float", "description: 4.2")
    c["desc-bool"] = fm("name: desc-bool", "description: true")
    c["desc-yes"] = fm("name: desc-yes", "description: yes")
    c["desc-null"] = fm("name: desc-null", "description: null")
    c["desc-empty"] = fm("name: desc-empty", "description:")
    c["desc-empty-quoted"] = fm("name: desc-empty-quoted", 'description: ""')
    c["desc-list"] = fm("name: desc-list", "description:", "  - one", "  - two")
    c["desc-map"] = fm("name: desc-map", "description:", "  a: b")
    c["desc-missing"] = fm("name: desc-missing")
    c["desc-block-literal"] = fm("name: desc-block-literal", "description: |", "  one", "  two")
    c["desc-block-folded"] = fm("name: desc-block-folded", "description: >-", "  one", "  two")
    c["desc-plain-continued"] = fm(
        "name: desc-plain-continued", "description: one", "  two", "  three"
    )
    c["desc-dq-escapes"] = fm("name: desc-dq-escapes", r'description: "tab\there \"q\" \u00e9"')
    c["desc-too-long"] = fm("name: desc-too-long", "description: " + "x" * 1100)

    # --- fences -------------------------------------------------------------------------------
    c["fence-closing-missing"] = b"---\nname: fence-closing-missing\ndescription: Open.\n"
    c["fence-closing-indented"] = (
        b"---\nname: fence-closing-indented\ndescription: Indented close.\n  ---\nBody\n"
    )
    c["fence-closing-extra-dash"] = (
        b"---\nname: fence-closing-extra-dash\ndescription: Four dashes.\n----\nBody\n"
    )
    c["fence-closing-trailing-space"] = (
        b"---\nname: fence-closing-trailing-space\ndescription: Trailing.\n---   \nBody\n"
    )
    c["fence-closing-with-text"] = (
        b"---\nname: fence-closing-with-text\ndescription: Text after.\n--- end\nBody\n"
    )
    c["fence-closing-dots"] = b"---\nname: fence-closing-dots\ndescription: Dots.\n...\nBody\n"
    c["fence-closing-eof"] = b"---\nname: fence-closing-eof\ndescription: No newline.\n---"
    c["fence-closing-tab"] = b"---\nname: fence-closing-tab\ndescription: Tab close.\n---\t\nBody\n"
    c["fence-opening-indented"] = (
        b" ---\nname: fence-opening-indented\ndescription: Indented open.\n---\nBody\n"
    )
    c["fence-opening-trailing-space"] = (
        b"---  \nname: fence-opening-trailing-space\ndescription: Trailing open.\n---\nBody\n"
    )
    c["fence-opening-extra-dash"] = (
        b"----\nname: fence-opening-extra-dash\ndescription: Four open.\n---\nBody\n"
    )
    c["fence-opening-with-text"] = (
        b"--- yaml\nname: fence-opening-with-text\ndescription: Text open.\n---\nBody\n"
    )
    c["fence-language-toml"] = b"--- toml\nname = 'fence-language-toml'\n---\nBody\n"
    c["fence-language-json"] = (
        b'--- json\n{"name": "fence-language-json", "description": "JSON."}\n---\nBody\n'
    )
    c["fence-language-yml"] = (
        b"--- yml\nname: fence-language-yml\ndescription: yml.\n---\nBody\n"
    )
    c["fence-text-before"] = (
        b"# Title\n---\nname: fence-text-before\ndescription: Text first.\n---\nBody\n"
    )
    c["fence-blank-line-before"] = (
        b"\n---\nname: fence-blank-line-before\ndescription: Blank first.\n---\nBody\n"
    )
    c["fence-empty-frontmatter"] = b"---\n---\nBody\n"
    c["fence-blank-frontmatter"] = b"---\n\n---\nBody\n"
    c["fence-comment-only"] = b"---\n# just a comment\n---\nBody\n"
    c["fence-not-mapping"] = b"---\n- a\n- b\n---\nBody\n"
    c["fence-scalar-frontmatter"] = b"---\njust text\n---\nBody\n"
    c["fence-dashes-in-body"] = (
        b"---\nname: fence-dashes-in-body\ndescription: Rule below.\n---\nBody\n---\nMore\n"
    )
    c["fence-no-frontmatter"] = b"# fence-no-frontmatter\n\nJust Markdown.\n"
    c["fence-empty-file"] = b""
    c["fence-bom"] = b"\xef\xbb\xbf" + ok("fence-bom")
    c["fence-crlf"] = fm("name: fence-crlf", "description: CRLF lines.", nl="\r\n")
    c["fence-lone-cr"] = fm("name: fence-lone-cr", "description: CR lines.", nl="\r")
    c["fence-mixed-endings"] = (
        b"---\r\nname: fence-mixed-endings\ndescription: Mixed.\r\n---\nBody\n"
    )
    c["fence-code-fenced"] = (
        b"```skill\n---\nname: fence-code-fenced\ndescription: In a code fence.\n---\n```\n"
    )

    # --- encodings ----------------------------------------------------------------------------
    c["enc-invalid-utf8-frontmatter"] = (
        b"---\nname: enc-invalid-utf8-frontmatter\ndescription: bad \xff byte\n---\nBody\n"
    )
    c["enc-invalid-utf8-body"] = (
        b"---\nname: enc-invalid-utf8-body\ndescription: Bad body.\n---\nBody \xff\xfe here\n"
    )
    c["enc-invalid-utf8-far-body"] = (
        b"---\nname: enc-invalid-utf8-far-body\ndescription: Bad byte far down.\n---\n"
        + b"Line of text.\n" * 2000
        + b"\xc3\x28\n"
    )
    c["enc-truncated-utf8-at-end"] = (
        b"---\nname: enc-truncated-utf8-at-end\ndescription: Cut rune.\n---\nBody \xe2\x82"
    )
    c["enc-latin1-name"] = b"---\nname: enc-latin1-\xe9\ndescription: Latin-1.\n---\nBody\n"
    c["enc-nul-frontmatter"] = (
        b"---\nname: enc-nul-frontmatter\ndescription: nul \x00 byte\n---\nBody\n"
    )
    c["enc-nul-body"] = b"---\nname: enc-nul-body\ndescription: NUL in body.\n---\nBo\x00dy\n"
    c["enc-utf16le-bom"] = "\ufeff---\nname: enc-utf16le-bom\ndescription: UTF-16.\n---\n".encode(
        "utf-16-le"
    )
    c["enc-non-ascii"] = ok("enc-non-ascii", description="Résumé 文档 ✓ émoji 🎉")
    c["enc-overlong-encoding"] = (
        b"---\nname: enc-overlong-encoding\ndescription: over \xc0\xaf long\n---\nBody\n"
    )
    c["enc-surrogate-encoded"] = (
        b"---\nname: enc-surrogate-encoded\ndescription: sur \xed\xa0\x80 rogate\n---\nBody\n"
    )
    return c


def write_tree(vector: Path, skills_dir: str = "project/.agents/skills") -> list[str]:
    """Write every case under `vector/tree/<skills_dir>/<case>/SKILL.md`; returns the names."""
    root = vector / "tree" / skills_dir
    written = []
    for name, data in cases().items():
        d = root / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "SKILL.md").write_bytes(data)
        written.append(name)
    return written


# ---------------------------------------------------------------------------------------------
# Randomised corpora: mutate valid files with the same damage classes, for `oracle.py fuzz`.
# ---------------------------------------------------------------------------------------------

FRAGMENTS = [
    'description: "unterminated',
    "description: 'unterminated",
    "description: [open",
    "description: {open",
    "description: Use when: asked",
    "description: *alias",
    "description: @at",
    "description: `tick`",
    "description: 42",
    "description: true",
    "description:",
    "description: |",
    "  block line",
    "\tindented: tab",
    "metadata:",
    "  key: value",
    "  other: *nope",
    "tags: [a, b]",
    "name: 77",
    "name: [x]",
    "license: MIT",
    "license: MIT",
    "just text",
    "x: &a v",
    "y: *a",
    "description: \"esc \\q\"",
    "description: ring \x07",
    "...",
]


def _matrix_lines() -> list[str]:
    """Every frontmatter line of the matrix (names included), as more material to mutate."""
    out = []
    for data in cases().values():
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        out.extend(line for line in text.split("\n")[1:6] if line and line != "---")
    return sorted(set(out))


MATRIX_LINES = _matrix_lines()


def random_case(rng: random.Random, index: int) -> bytes:
    """A file built from a valid one by a few random insertions, deletions and fence/encoding
    changes; the name stays unique (`fuzz-<index>`) unless a fragment replaces it."""
    name = f"fuzz-{index}"
    lines = [f"name: {name}", "description: A fuzzed skill."]
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if op < 0.3:
            lines.insert(rng.randint(0, len(lines)), rng.choice(MATRIX_LINES))
        elif op < 0.6:
            lines.insert(rng.randint(0, len(lines)), rng.choice(FRAGMENTS))
        elif op < 0.8 and lines:
            del lines[rng.randrange(len(lines))]
        else:
            i = rng.randrange(len(lines)) if lines else 0
            if lines:
                lines[i] = lines[i].replace(": ", rng.choice([":", ":\t", ": : ", ":  "]), 1)
    opening = rng.choice(["---"] * 8 + [" ---", "----", "---  "])
    closing = rng.choice(["---"] * 8 + ["  ---", "----", "...", None])
    nl = rng.choice(["\n"] * 6 + ["\r\n", "\r"])
    text = nl.join([opening, *lines] + ([closing] if closing is not None else []))
    text += nl + "Body" + nl
    data = text.encode()
    roll = rng.random()
    if roll < 0.05:
        data = b"\xef\xbb\xbf" + data
    elif roll < 0.10:
        data += b"\xff tail\n"
    elif roll < 0.13:
        data = data.replace(b"fuzzed", b"fuz\xffzed")
    return data
