"""Key spellings: one SKILL.md per way a frontmatter key can be spelled.

skilldeck used to fold every key (case, `-` and `_` ignored) under every profile; the hosts
do not all do that. `oracle.py keys` writes the same cases into one discovery vector per
host (`oracle-<host>-key-spelling`), and `oracle.py record --descriptions` then asks the
real host which files it loads and what name and description it reads from each.

A key the host does not read is only visible through what it changes: a `Name:` alone leaves
the skill without a name (refused, or named after its directory), a `Description:` alone
without a description, and a value of a shape the host's field refuses (`allowed_tools:
[1]`, `disable_model_invocation: {a: 1}`) refuses the file only when the host reads that
spelling. Each case is named by its directory; where the case is not about `name`, the
file's `name` is the directory name.
"""

from __future__ import annotations

from pathlib import Path


def cases() -> dict[str, str]:
    """Directory name → frontmatter lines (between the fences)."""
    c: dict[str, str] = {}

    def keyed(d: str, *lines: str) -> None:
        c[d] = "\n".join([f"name: {d}", "description: d", *lines])

    c["a-base"] = "name: a-base\ndescription: d"
    # --- `name` in other spellings (the value is the directory name, or another one) -----
    c["b-name-title"] = "Name: b-name-title\ndescription: d"
    c["c-name-upper"] = "NAME: c-name-upper\ndescription: d"
    c["d-name-title-other"] = "Name: d-other\ndescription: d"
    # A trailing space cannot be written in a plain YAML key; a quoted one can.
    c["e-name-quoted-space"] = '"name ": e-name-quoted-space\ndescription: d'
    # --- `description` in other spellings --------------------------------------------------
    c["f-desc-title"] = "name: f-desc-title\nDescription: D-title"
    c["g-desc-upper"] = "name: g-desc-upper\nDESCRIPTION: D-upper"
    # --- both spellings in one file, in both orders ---------------------------------------
    c["h-desc-lower-then-title"] = "name: h-desc-lower-then-title\ndescription: lower\nDescription: title"
    c["i-desc-title-then-lower"] = "name: i-desc-title-then-lower\nDescription: title\ndescription: lower"
    c["j-name-lower-then-title"] = "name: j-name-lower-then-title\nName: j-other\ndescription: d"
    c["k-name-title-then-lower"] = "Name: k-other\nname: k-name-title-then-lower\ndescription: d"
    # --- `allowed-tools`: a mapping and a list of numbers (refused by different hosts) ----
    keyed("l-allowed-dash-map", "allowed-tools: {a: 1}")
    keyed("la-allowed-dash-ints", "allowed-tools: [1]")
    keyed("m-allowed-under-map", "allowed_tools: {a: 1}")
    keyed("ma-allowed-under-ints", "allowed_tools: [1]")
    keyed("n-allowed-camel-map", "allowedTools: {a: 1}")
    keyed("na-allowed-camel-ints", "allowedTools: [1]")
    # --- `disable-model-invocation`: on (seen where the host reports it), and a mapping ---
    keyed("o-dmi-dash", "disable-model-invocation: true")
    keyed("oa-dmi-dash-map", "disable-model-invocation: {a: 1}")
    keyed("p-dmi-under", "disable_model_invocation: true")
    keyed("pa-dmi-under-map", "disable_model_invocation: {a: 1}")
    keyed("q-dmi-camel", "disableModelInvocation: true")
    keyed("qa-dmi-camel-map", "disableModelInvocation: {a: 1}")
    keyed("qb-dmi-title-true", "Disable-Model-Invocation: true")
    # --- other typed keys with a value of the wrong shape ---------------------------------
    keyed("r-meta-title-scalar", "Metadata: 5")
    keyed("s-meta-dash-scalar", "meta-data: 5")
    keyed("t-user-invocable-under-map", "user_invocable: {a: 1}")
    keyed("u-user-invocable-dash-map", "user-invocable: {a: 1}")
    keyed("v-license-title-map", "License: {a: 1}")
    # --- dashes and underscores inside `name` and `description` ---------------------------
    c["w-name-dash"] = "na-me: w-name-dash\ndescription: d"
    c["x-desc-under"] = "name: x-desc-under\ndescrip_tion: D-under"
    # --- Cline's switches, capitalised ----------------------------------------------------
    keyed("y-enabled-title-false", "Enabled: false")
    keyed("z-disabled-title-true", "Disabled: true")
    return c


def copilot_field_types() -> dict[str, str]:
    """The values Copilot CLI checks in the keys it reads (`oracle-copilot-cli-field-types`):
    each file is valid but for one value; `name` is the directory name."""
    values = {
        "at-null": "allowed-tools: null",
        "at-empty": "allowed-tools:",
        "at-empty-text": 'allowed-tools: ""',
        "at-text": "allowed-tools: Read Grep",
        "at-list": "allowed-tools: [Read]",
        "at-empty-list": "allowed-tools: []",
        "at-int": "allowed-tools: 5",
        "at-bool": "allowed-tools: true",
        "at-nested": "allowed-tools: [[a]]",
        "at-map": "allowed-tools: {a: b}",
        "ui-null": "user-invocable: null",
        "ui-empty": "user-invocable:",
        "ui-quoted": 'user-invocable: "true"',
        "ui-yes": "user-invocable: yes",
        "ui-int": "user-invocable: 1",
        "ui-false": "user-invocable: false",
        "ui-capital-true": "user-invocable: True",
        "dmi-null": "disable-model-invocation: ~",
        "dmi-quoted": 'disable-model-invocation: "false"',
        "dmi-int": "disable-model-invocation: 0",
        "dmi-no": "disable-model-invocation: no",
        "dmi-true": "disable-model-invocation: true",
        "ah-null": "argument-hint: null",
        "ah-empty": "argument-hint:",
        "ah-text": 'argument-hint: "[file]"',
        "ah-int": "argument-hint: 5",
        "ah-bool": "argument-hint: true",
        "ah-list": "argument-hint: [file]",
        "ah-title-map": "Argument-Hint: {a: 1}",
        "license-map": "license: {a: 1}",
        "metadata-scalar": "metadata: 5",
        "compatibility-map": "compatibility: {a: 1}",
        "model-map": "model: {a: 1}",
        "context-map": "context: {a: 1}",
    }
    return {d: f"name: {d}\ndescription: d\n{line}" for d, line in values.items()}


def snake_shadowed(host: str) -> dict[str, str]:
    """Both spellings of a dashed field in one file, for the hosts that also read the
    snake_case one (`oracle-<host>-snake-shadowed`, Mistral Vibe and OpenHands): the value of
    one spelling has a shape the field refuses, so whether the file loads says which
    spelling the host reads. The refused `allowed-tools` differs: Mistral Vibe takes a
    mapping (and refuses `[1]`), OpenHands takes `[1]` (and refuses a mapping). No case gives
    a bad dashed `disable-model-invocation`: OpenHands would drop the whole root for it."""
    bad = "[1]" if host == "mistral-vibe" else "{a: 1}"
    values = {
        "at-dash-ok-under-bad": f"allowed-tools: Read\nallowed_tools: {bad}",
        "at-under-bad-dash-ok": f"allowed_tools: {bad}\nallowed-tools: Read",
        "at-dash-bad-under-ok": f"allowed-tools: {bad}\nallowed_tools: Read",
        "at-under-ok-dash-bad": f"allowed_tools: Read\nallowed-tools: {bad}",
        "dmi-dash-ok-under-bad": "disable-model-invocation: false\ndisable_model_invocation: {a: 1}",
        "dmi-under-bad-dash-ok": "disable_model_invocation: {a: 1}\ndisable-model-invocation: false",
        "ui-dash-ok-under-bad": "user-invocable: true\nuser_invocable: {a: 1}",
        "ui-under-bad-dash-ok": "user_invocable: {a: 1}\nuser-invocable: true",
        "ui-dash-bad-under-ok": "user-invocable: {a: 1}\nuser_invocable: true",
    }
    return {d: f"name: {d}\ndescription: d\n{lines}" for d, lines in values.items()}


# OpenHands drops every skill of a root when pydantic refuses one file (a
# `disable-model-invocation` that is no boolean): those cases go to roots of their own, each
# with a valid companion, so the rest of the tree stays readable.
OPENHANDS_OWN_ROOTS = {
    "oa-dmi-dash-map": ("project/.openhands/skills", "ob-companion"),
    "pa-dmi-under-map": ("home/.agents/skills", "pb-companion"),
    "qa-dmi-camel-map": ("home/.openhands/skills", "qc-companion"),
}


def write_tree(vector: Path, host: str, table: dict[str, str] | None = None) -> list[str]:
    """Write the cases (`table`, else [`cases`]) under `vector`/tree; returns the directory
    names."""
    written = []
    for name, lines in (table or cases()).items():
        root, companion = "project/.agents/skills", None
        if host == "openhands" and name in OPENHANDS_OWN_ROOTS:
            root, companion = OPENHANDS_OWN_ROOTS[name]
        for d, text in [(name, lines)] + ([(companion, f"name: {companion}\ndescription: d")] if companion else []):
            path = vector / "tree" / root / d / "SKILL.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"---\n{text}\n---\nBody.\n")
            written.append(d)
    return written
