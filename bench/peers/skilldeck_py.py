"""skilldeck's Python binding in process: cold load on a fresh Deck (median of RUNS after
one warm-up) and a render, on the same corpus and options as the Rust API timer.
Prints one JSON line; on any failure prints {"error": ...} and exits 3, so the runner can
skip the row with the reason instead of inventing a number.

Usage: python skilldeck_py.py CORPUS_JSON RUNS
       python skilldeck_py.py CORPUS_JSON retained   (what one more loaded deck keeps resident)
"""

import gc
import json
import statistics
import sys
import time


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise OSError("no VmRSS in /proc/self/status")


def retained(skilldeck, kwargs):
    """RSS with three loaded decks held minus RSS with one, halved: the same method as
    `api-bench --retained`, so the languages compare (the first load leaves its temporaries'
    pages in the allocator, later loads reuse them)."""
    first = skilldeck.Deck(**kwargs)
    first_catalog = first.load()
    gc.collect()
    before = rss_kib()
    held = []
    for _ in range(2):
        deck = skilldeck.Deck(**kwargs)
        held.append((deck, deck.load()))
    gc.collect()
    after = rss_kib()
    skills = first_catalog.skills
    desc = sum(len((s.description or "").encode()) for s in skills)
    return {
        "skills": len(skills),
        "retained_kib_per_deck": (after - before) / 2,
        "description_bytes": desc,
    }


def main():
    corpus = json.load(open(sys.argv[1]))
    mode = sys.argv[2]
    runs = 0 if mode == "retained" else int(mode)
    try:
        import skilldeck
    except ImportError as e:
        print(json.dumps({"error": f"import skilldeck: {e}"}))
        sys.exit(3)

    kwargs = dict(
        profile="universal",
        project_dir=corpus["project"],
        home_dir=corpus["home"],
        roots=[corpus["custom"]],
    )
    try:
        # A fixed environment, like the Rust timer, when the binding accepts one.
        skilldeck.Deck(env={"HOME": corpus["home"]}, **kwargs)
        kwargs["env"] = {"HOME": corpus["home"]}
    except TypeError:
        pass

    if mode == "retained":
        try:
            print(json.dumps(retained(skilldeck, kwargs)))
        except Exception as e:
            print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
            sys.exit(3)
        return

    try:
        cold = []
        for i in range(runs + 1):
            deck = skilldeck.Deck(**kwargs)
            t = time.perf_counter()
            loaded = deck.load()
            ms = (time.perf_counter() - t) * 1000
            # Replace the previous catalog only now: dropping it must not count as loading.
            catalog = loaded
            if i > 0:
                cold.append(ms)
        t = time.perf_counter()
        rendered = deck.render()
        render_ms = (time.perf_counter() - t) * 1000
        skills = len(catalog.skills)
    except Exception as e:  # the binding's own SkillError or anything unexpected
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        sys.exit(3)
    print(json.dumps({
        "skills": skills,
        "cold_ms": cold,
        "cold_median_ms": statistics.median(cold),
        "render_ms": render_ms,
        "render_chars": len(rendered.text),
        "version": getattr(skilldeck, "__version__", None),
    }))


if __name__ == "__main__":
    main()
