// Peer: an OpenCode-style skill loader in Node, written the way OpenCode's
// packages/opencode/src/skill/skill.ts does it (with the same pinned glob 13.0.5 and
// gray-matter 4.0.3):
//   1. `.claude` and `.agents` under home, then in every directory from the project dir up
//      to the worktree: glob `skills/**/SKILL.md` (dot: true, follow symlinks, files only),
//      all matches parsed concurrently (Promise.all);
//   2. config dirs (~/.config/opencode, each `.opencode` from the project dir up, ~/.opencode):
//      glob `{skill,skills}/**/SKILL.md`, parsed one by one;
//   3. `skills.paths` (here: the universal roots OpenCode has no default for — .codex,
//      .kode and the custom root — as an OpenCode user would configure them): `**/SKILL.md`.
// Each file is read whole and parsed by gray-matter; on a YAML error the frontmatter is
// sanitised (values with ':' turned into block scalars) and parsed again; a skill needs
// string `name` and `description`; a later skill replaces an earlier one of the same name.
// Then the verbose <available_skills> prompt is rendered. Prints one JSON line.
//
// Usage: BENCH_NODE_DIR=<dir with node_modules> node opencode_peer.mjs CORPUS_JSON

import { createRequire } from "node:module";
import fs from "node:fs/promises";
import { existsSync, statSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(path.resolve(process.env.BENCH_NODE_DIR ?? process.cwd(), "x.js"));
const { glob } = require("glob");
const matter = require("gray-matter");

const corpus = JSON.parse(readFileSync(process.argv[2], "utf8"));
const home = corpus.home;
const directory = corpus.project;
const worktree = corpus.repo;

function isDir(p) {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

// Filesystem.up: for each directory from start up to stop, each existing target.
function* up(targets, start, stop) {
  let current = start;
  for (;;) {
    for (const t of targets) {
      const p = path.join(current, t);
      if (existsSync(p)) yield p;
    }
    if (current === stop) break;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
}

function scan(pattern, cwd, dot) {
  return glob(pattern, { cwd, absolute: true, dot, follow: true, nodir: true }).then((r) =>
    r.map((x) => String(x).replace(/\\/g, "/")),
  );
}

function fallbackSanitization(content) {
  const match = content.match(/^---\r?\n([\s\S]*?)\r?\n---/);
  if (!match) return content;
  const frontmatter = match[1];
  const result = [];
  for (const line of frontmatter.split(/\r?\n/)) {
    if (line.trim().startsWith("#") || line.trim() === "" || /^\s+/.test(line)) {
      result.push(line);
      continue;
    }
    const kv = line.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/);
    if (!kv) {
      result.push(line);
      continue;
    }
    const value = kv[2].trim();
    if (value === "" || value === ">" || value === "|" || value.startsWith('"') || value.startsWith("'")) {
      result.push(line);
      continue;
    }
    if (value.includes(":")) {
      result.push(`${kv[1]}: |-`);
      result.push(`  ${value}`);
      continue;
    }
    result.push(line);
  }
  const processed = result.join("\n");
  return content.replace(frontmatter, () => processed);
}

async function parseMarkdown(file) {
  const template = await fs.readFile(file, "utf8");
  try {
    return matter(template);
  } catch {
    return matter(fallbackSanitization(template));
  }
}

const skills = {};
let matches = 0;
let failed = 0;
let duplicates = 0;

async function addSkill(match) {
  matches++;
  let md;
  try {
    md = await parseMarkdown(match);
  } catch {
    failed++;
    return;
  }
  const { name, description } = md.data ?? {};
  if (typeof name !== "string" || typeof description !== "string") {
    failed++;
    return;
  }
  if (skills[name]) duplicates++;
  skills[name] = { name, description, location: match, content: md.content };
}

const start = performance.now();
for (const dir of [".claude", ".agents"]) {
  const root = path.join(home, dir);
  if (!isDir(root)) continue;
  await scan("skills/**/SKILL.md", root, true).then((m) => Promise.all(m.map(addSkill)));
}
for (const root of up([".claude", ".agents"], directory, worktree)) {
  await scan("skills/**/SKILL.md", root, true).then((m) => Promise.all(m.map(addSkill)));
}
const configDirs = [path.join(home, ".config/opencode"), ...up([".opencode"], directory, worktree), ...up([".opencode"], home, home)];
for (const dir of configDirs) {
  for (const match of await scan("{skill,skills}/**/SKILL.md", dir, undefined)) await addSkill(match);
}
const extraPaths = [];
for (const dir of up([".codex/skills", ".kode/skills"], directory, worktree)) extraPaths.push(dir);
for (const d of [".codex/skills", ".kode/skills"]) extraPaths.push(path.join(home, d));
extraPaths.push(corpus.custom);
for (const dir of extraPaths) {
  if (!isDir(dir)) continue;
  for (const match of await scan("**/SKILL.md", dir, undefined)) await addSkill(match);
}
const list = Object.values(skills);
const prompt = [
  "<available_skills>",
  ...list.flatMap((s) => [
    "  <skill>",
    `    <name>${s.name}</name>`,
    `    <description>${s.description}</description>`,
    `    <location>${pathToFileURL(s.location).href}</location>`,
    "  </skill>",
  ]),
  "</available_skills>",
].join("\n");
const elapsed = performance.now() - start;
console.log(JSON.stringify({ skills: list.length, matches, failed, duplicates, prompt_chars: prompt.length, elapsed_ms: elapsed }));
