// skilldeck's Node binding in process: cold `await deck.load()` on a fresh Deck (median of
// RUNS after one warm-up) and a render, on the same corpus and options as the Rust API
// timer. Prints one JSON line; on failure prints {"error": ...} and exits 3 so the runner
// skips the row with the reason.
//
// Usage: SKILLDECK_NODE=<the package dir (the checkout root), bindings-node/main.cjs or a .node
// file> node skilldeck_node.mjs CORPUS_JSON RUNS
//        node --expose-gc skilldeck_node.mjs CORPUS_JSON retained   (what one more loaded deck
//        keeps resident: the method of `api-bench --retained`)
//        node --expose-gc skilldeck_node.mjs CORPUS_JSON growth [sync]   (RSS before and after
//        eight fresh loads, one deck held at a time: what repeated loads leave behind)

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

function fail(message) {
  console.log(JSON.stringify({ error: message }));
  process.exit(3);
}

const corpus = JSON.parse(readFileSync(process.argv[2], "utf8"));
const mode = process.argv[3] ?? "5";
const runs = mode === "retained" || mode === "growth" ? 0 : Number(mode);
const entry = process.env.SKILLDECK_NODE;
if (!entry) fail("SKILLDECK_NODE is not set (no built Node binding found)");

let sd;
try {
  sd = createRequire(path.resolve("x.js"))(path.resolve(entry));
} catch (e) {
  fail(`loading the Node binding from ${entry}: ${e.message}`);
}
if (typeof sd.Deck !== "function") fail(`${entry} exports no Deck class`);

const options = {
  profile: "universal",
  projectDir: corpus.project,
  homeDir: corpus.home,
  roots: [corpus.custom],
  env: { HOME: corpus.home },
};

function rssKib() {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  if (!line) throw new Error("no VmRSS in /proc/self/status");
  return Number(line.split(/\s+/)[1]);
}

if (mode === "retained") {
  try {
    // RSS with three loaded decks held minus RSS with one, halved (the first load leaves its
    // temporaries' pages in the allocator; the later loads reuse them).
    const collect = () => (typeof global.gc === "function" ? global.gc() : undefined);
    const first = new sd.Deck(options);
    const firstCatalog = await first.load();
    collect();
    const before = rssKib();
    const held = [];
    for (let i = 0; i < 2; i++) {
      const deck = new sd.Deck(options);
      held.push([deck, await deck.load()]);
    }
    collect();
    const after = rssKib();
    const skills = firstCatalog.skills;
    let desc = 0;
    for (const s of skills) desc += Buffer.byteLength(s.description ?? "");
    console.log(JSON.stringify({
      skills: skills.length,
      retained_kib_per_deck: (after - before) / 2,
      description_bytes: desc,
      held: held.length,
    }));
  } catch (e) {
    fail(`${e.code ?? e.name}: ${e.message}`);
  }
  process.exit(0);
}

if (mode === "growth") {
  try {
    // A collected wrapper's native finalizer runs on a later turn of the event loop, which
    // a run of sync loads never yields to: let one pass so the dropped deck is freed.
    const collect = async () => {
      if (typeof global.gc === "function") global.gc();
      await new Promise((resolve) => setImmediate(resolve));
    };
    const sync = process.argv[4] === "sync";
    await collect();
    const start = rssKib();
    let held = null;
    const after = [];
    for (let i = 0; i < 8; i++) {
      const deck = new sd.Deck(options);
      const catalog = sync ? deck.loadSync() : await deck.load();
      held = [deck, catalog];
      await collect();
      after.push(rssKib());
    }
    console.log(JSON.stringify({
      skills: held[1].skills.length,
      loads: after.length,
      sync,
      rss_start_kib: start,
      rss_after_each_kib: after,
      growth_kib: after[after.length - 1] - start,
    }));
  } catch (e) {
    fail(`${e.code ?? e.name}: ${e.message}`);
  }
  process.exit(0);
}

try {
  const cold = [];
  let deck;
  let catalog;
  for (let i = 0; i <= runs; i++) {
    deck = new sd.Deck(options);
    const t = performance.now();
    catalog = await deck.load();
    const ms = performance.now() - t;
    if (i > 0) cold.push(ms);
  }
  const t = performance.now();
  const rendered = await deck.render({});
  const renderMs = performance.now() - t;
  cold.sort((a, b) => a - b);
  const mid = Math.floor(cold.length / 2);
  const median = cold.length % 2 ? cold[mid] : (cold[mid - 1] + cold[mid]) / 2;
  const skills = Array.isArray(catalog.skills) ? catalog.skills.length : catalog.skills?.length;
  console.log(JSON.stringify({
    skills,
    cold_ms: cold,
    cold_median_ms: median,
    render_ms: renderMs,
    render_chars: rendered?.text?.length ?? null,
  }));
} catch (e) {
  fail(`${e.code ?? e.name}: ${e.message}`);
}
