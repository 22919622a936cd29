#!/usr/bin/env python3
"""Which crates a sequence of cargo builds compiles, and how often: the compiled units each
build adds to what the builds before it left in the target directory.

Cargo compiles a crate again when its features differ, or when a crate it links does (the
unit's hash covers its dependencies'). So a `cargo build -p X` after `cargo test` recompiles
every crate whose features the test build's dev-dependencies changed, and every crate above
it. This script reads each build's resolved graph from `cargo tree` (features as that build
resolves them: `-e normal,build,dev` resolves as `cargo test` does, `-e normal,build` as
`cargo build`), gives every crate a unit identity (name, version, features, and the
identities of the crates it links; dev-dependencies do not enter a library's), and reports,
per build, the units it adds. It compiles nothing.

Usage: scripts/lib/build-units.py [--host TRIPLE] [--strict NAME,... --allow CRATE,...] NAME=CARGO_TREE_ARGS ...
  e.g. build-units.py "rust=--workspace-default -e normal,build,dev" "cli=-p skilldeck-cli -e normal,build"
  (`--workspace-default` stands for no -p: the default members, what a bare `cargo test` builds)
  --strict: those builds must compile no crate again, except the --allow ones (exit 1).
"""
import hashlib
import re
import shlex
import subprocess
import sys
from collections import Counter

LINE = re.compile(r"^(?P<prefix>(?:[│ ]   |├── |└── )*)(?P<text>.*)$")


def tree(args, host):
    cmd = ["cargo", "tree", "--locked", "--no-dedupe", "-f", "{p} [{f}]", "--target", host] + args
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def units(lines):
    """The unit identities of one build: {identity: crate name}."""
    found = {}
    # stack of [depth, label, children (kind, identity), kind of the next children]
    stack = []

    def close(depth):
        while stack and stack[-1][0] >= depth:
            d, label, children, _ = stack.pop()
            linked = sorted(i for kind, i in children if kind != "dev")
            ident = hashlib.sha256((label + "\0" + "\0".join(linked)).encode()).hexdigest()[:16]
            found[ident] = label.split(" [")[0]
            if stack:
                stack[-1][2].append((stack[-1][3], ident))

    for raw in lines:
        if not raw.strip():
            close(0)
            continue
        m = LINE.match(raw)
        prefix, text = m.group("prefix"), m.group("text")
        depth = len(prefix) // 4
        if text in ("[dev-dependencies]", "[build-dependencies]", "[dependencies]"):
            # A kind header sits at its parent's child indentation minus one level.
            close(depth + 1)
            if stack:
                stack[-1][3] = text.strip("[]").replace("-dependencies", "").replace("dependencies", "normal")
            continue
        close(depth)
        label = re.sub(r" \(/[^)]*\)", "", text)  # a workspace crate's path is not its identity
        stack.append([depth, label, [], "normal"])
    close(0)
    return found


def main(argv):
    host = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    host = re.search(r"^host: (\S+)", host, re.M).group(1)
    strict, allow = set(), set()
    while argv[:1] in (["--host"], ["--strict"], ["--allow"]):
        opt, value, argv = argv[0], argv[1], argv[2:]
        if opt == "--host":
            host = value
        elif opt == "--strict":
            strict |= set(value.split(","))
        else:
            allow |= set(value.split(","))
    failed = []
    if not argv:
        sys.exit(__doc__)
    built = {}
    total = 0
    for spec in argv:
        name, _, args = spec.partition("=")
        args = [a for a in shlex.split(args) if a != "--workspace-default"]
        these = units(tree(args, host))
        new = {i: n for i, n in these.items() if i not in built}
        again = sorted(Counter(n for n in new.values() if n in built.values()).items())
        total += len(new)
        print(f"{name}: {len(these)} units, {len(new)} compiled, "
              f"{len(again)} of them crates compiled before with other features or dependencies")
        if again:
            print("  again: " + ", ".join(n for n, _ in again))
        extra = [n for n, _ in again if n.split(" ")[0] not in allow]
        if name in strict and extra:
            failed.append(f"{name} compiles again {', '.join(extra)}: align their features in workspace-hack/Cargo.toml")
        built.update(new)
    print(f"total: {total} units compiled")
    if failed:
        sys.exit("\n".join(failed))


if __name__ == "__main__":
    main(sys.argv[1:])
