"""Peer: the Agent Skills reference library, skills-ref 0.1.1 (PyPI), used as a host would.

skills-ref has no discovery of its own, so this walks the same roots as every other
contender (os.walk following directory links, skipping .git and node_modules, each real
directory once), calls read_properties() on every skill directory (a broken skill is
reported and left out, as a host must do since to_prompt() raises on it), then renders the
loadable ones with to_prompt(). Prints one JSON line.

Usage: python skills_ref_peer.py ROOT...
"""

import json
import os
import sys
import time

import skills_ref

SKIP = {".git", "node_modules"}


def skill_dirs(roots):
    seen = set()
    for root in roots:
        if not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
            try:
                st = os.stat(dirpath)
            except OSError:
                dirnames[:] = []
                continue
            key = (st.st_dev, st.st_ino)
            if key in seen:
                dirnames[:] = []
                continue
            seen.add(key)
            dirnames[:] = [d for d in dirnames if d not in SKIP]
            if "SKILL.md" in filenames and os.path.isfile(os.path.join(dirpath, "SKILL.md")):
                yield dirpath


def main():
    start = time.perf_counter()
    loadable, failed = [], 0
    for d in skill_dirs(sys.argv[1:]):
        try:
            skills_ref.read_properties(d)
            loadable.append(d)
        except (skills_ref.SkillError, UnicodeDecodeError, OSError):
            failed += 1
        except Exception:  # noqa: BLE001
            # skills-ref 0.1.1 lets some strictyaml errors (e.g. on real-world flow
            # sequences) escape read_properties unwrapped; a caller has to catch them too,
            # and the directory counts as rejected.
            failed += 1
    prompt = skills_ref.to_prompt(loadable)
    elapsed = (time.perf_counter() - start) * 1000
    print(json.dumps({
        "skills": len(loadable),
        "failed": failed,
        "prompt_chars": len(prompt),
        "elapsed_ms": elapsed,
        "version": skills_ref.__version__,
    }))


if __name__ == "__main__":
    main()
