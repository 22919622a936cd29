// The JS surface beyond the vectors: async/concurrency, events, error codes, camelCase
// getters against the canonical JSON, entry points (CJS, ESM, bin) and the type check.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import * as esm from '../index.mjs'
import {
  Deck,
  PermissionRules,
  SearchHit,
  SearchResults,
  VERSION,
  parse,
  runCli,
  searchToolDefinition,
  validate,
  validateSync,
  version,
} from '../index.mjs'
import { camel, canonical, skillMd, tempTree, write } from './helpers.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(import.meta.url)

/** A tree with `count` skills under an extra root, and an empty project/home. */
function skillTree(count) {
  const tree = tempTree()
  fs.mkdirSync(path.join(tree, 'project'))
  fs.mkdirSync(path.join(tree, 'home'))
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`
    write(tree, `extra/${name}/SKILL.md`, skillMd(name, `Skill number ${i}.`, 'allowed-tools: Read Grep\n'))
  }
  return tree
}

/** Options that see only `tree` (never the real home or environment). */
function isolated(tree, extra = {}) {
  return {
    projectDir: path.join(tree, 'project'),
    homeDir: path.join(tree, 'home'),
    systemRoot: tree,
    env: {},
    roots: [{ path: path.join(tree, 'extra'), scope: 'extra' }],
    ...extra,
  }
}

/** Resolves with the first event of `type` delivered to `deck`'s subscribers. */
function nextEvent(deck, type) {
  return new Promise((resolve) => {
    const id = deck.subscribe((event) => {
      if (event.type === type) {
        deck.unsubscribe(id)
        resolve(event)
      }
    })
  })
}

describe('entry points', () => {
  test('the ESM entry re-exports every export of the CommonJS entry', () => {
    const cjs = require('../main.cjs')
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(require('../index.js')).sort())
    assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), Object.keys(cjs).sort())
    assert.equal(esm.default, cjs)
  })

  test("the package resolves by name through package.json exports (require and import)", async () => {
    const byRequire = require('skilldeck')
    const byImport = await import('skilldeck')
    assert.equal(byRequire, require('../main.cjs'))
    assert.equal(byImport.Deck, byRequire.Deck)
    assert.equal(byImport.default, byRequire)
  })

  test('the version is the engine version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
    assert.equal(version(), VERSION)
    assert.equal(VERSION, pkg.version)
  })

  test('runCli runs the Rust command and returns its exit code', () => {
    assert.equal(runCli(['--version']), 0)
    assert.equal(runCli(['no-such-subcommand']), 2)
  })

  test('bin/skilldeck.js is the same command', () => {
    const tree = skillTree(1)
    const bin = path.join(ROOT, 'bindings-node/bin/skilldeck.js')
    const ok = spawnSync(process.execPath, [bin, 'validate', path.join(tree, 'extra/skill-000'), '--json'], {
      encoding: 'utf8',
    })
    assert.equal(ok.status, 0, ok.stderr)
    const [report] = JSON.parse(ok.stdout)
    assert.equal(report.valid, true)
    assert.equal(report.name, 'skill-000')
    const usage = spawnSync(process.execPath, [bin, 'bogus'], { encoding: 'utf8' })
    assert.equal(usage.status, 2)
    assert.match(usage.stderr, /bogus/)
  })

  const tsc = (project) =>
    spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], {
      encoding: 'utf8',
    })

  test('index.d.ts type-checks a consumer (tsc --noEmit)', () => {
    const run = tsc(path.join(ROOT, 'bindings-node/__test__/tsconfig.json'))
    assert.equal(run.status, 0, run.stdout + run.stderr)
  })

  test('the README example compiles against index.d.ts', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
    assert.equal(blocks.length, 1, 'one TypeScript example in README.md')
    const file = path.join(ROOT, 'bindings-node/__test__/readme-example.generated.mts')
    fs.writeFileSync(file, `${blocks[0]}\nexport {}\n`)
    try {
      const run = tsc(path.join(ROOT, 'bindings-node/__test__/tsconfig.readme.json'))
      assert.equal(run.status, 0, run.stdout + run.stderr)
    } finally {
      fs.rmSync(file, { force: true })
    }
  })
})

describe('async API', () => {
  test('load() returns a Promise and resolves to the same catalog as loadSync()', async () => {
    const tree = skillTree(3)
    const deck = new Deck(isolated(tree))
    const pending = deck.load()
    assert.ok(pending instanceof Promise)
    const catalog = await pending
    assert.deepEqual(
      catalog.skills.map((s) => s.id),
      ['skill-000', 'skill-001', 'skill-002'],
    )
    assert.deepEqual(canonical(deck.loadSync()), canonical(catalog))
  })

  test('many concurrent load() calls on one deck and on many decks agree', async () => {
    const tree = skillTree(20)
    const shared = new Deck(isolated(tree))
    const calls = []
    for (let i = 0; i < 32; i++) calls.push(shared.load())
    for (let i = 0; i < 16; i++) calls.push(new Deck(isolated(tree)).load())
    const results = (await Promise.all(calls)).map((c) => JSON.stringify(c))
    assert.equal(new Set(results).size, 1)
    assert.equal(JSON.parse(results[0]).skills.length, 20)
  })

  test('loadOnce() equals load() and keeps nothing for the next load', async () => {
    const tree = skillTree(2)
    const once = await new Deck(isolated(tree)).loadOnce()
    assert.deepEqual(canonical(once), canonical(await new Deck(isolated(tree)).load()))
    const deck = new Deck(isolated(tree))
    assert.deepEqual(canonical(deck.loadOnceSync()), canonical(once))
    write(tree, 'extra/fresh/SKILL.md', skillMd('fresh', 'Added after the one-shot load.'))
    const later = await deck.load()
    assert.ok(later.skills.some((s) => s.id === 'fresh'))
  })

  test('loadSummary() lists like loadOnce() and drops what a listing does not show', async () => {
    const tree = skillTree(3)
    write(tree, 'extra/rich/SKILL.md', skillMd('rich', 'Fields a listing does not show.', 'license: MIT\nmetadata:\n  author: someone\nenabled: false\n'))
    const deck = new Deck(isolated(tree))
    const full = await deck.loadOnce()
    const summary = await deck.loadSummary()
    const listing = (catalog) => {
      const data = canonical(catalog)
      for (const skill of data.skills) {
        delete skill.manifest
        delete skill.diagnostics
      }
      return data
    }
    assert.deepEqual(listing(summary), listing(full))
    assert.deepEqual(listing(deck.loadSummarySync()), listing(full))
    const kept = summary.skills.find((s) => s.id === 'rich')
    assert.equal(kept.description, 'Fields a listing does not show.')
    assert.equal(kept.manifest.license, null)
    assert.equal(kept.manifest.allowedTools.length, 0)
    assert.equal(kept.status.enabled, false)
    assert.equal(full.skills.find((s) => s.id === 'rich').manifest.license, 'MIT')
    // Not the deck's snapshot: a lookup afterwards sees the whole skill.
    assert.equal((await deck.get('rich')).manifest.license, 'MIT')
  })

  test('reload() reports an added skill', async () => {
    const tree = skillTree(1)
    const deck = new Deck(isolated(tree))
    await deck.load()
    write(tree, 'extra/fresh/SKILL.md', skillMd('fresh', 'Added after the first load.'))
    const diff = await deck.reload()
    assert.deepEqual(diff.added, ['fresh'])
    assert.deepEqual(canonical(diff), { added: ['fresh'], removed: [], changed: [] })
  })

  test('validate() resolves to reports and matches validateSync()', async () => {
    const tree = skillTree(1)
    write(tree, 'extra/Bad Name/SKILL.md', '---\nname: Bad Name\n---\nbody\n')
    const reports = await validate(path.join(tree, 'extra'), { strict: true })
    assert.deepEqual(canonical(reports), canonical(validateSync(path.join(tree, 'extra'), { strict: true })))
    const byName = Object.fromEntries(reports.map((r) => [path.basename(path.dirname(r.path)), r]))
    assert.equal(byName['skill-000'].valid, true)
    assert.equal(byName['Bad Name'].valid, false)
    assert.ok(byName['Bad Name'].diagnostics.some((d) => d.severity === 'error'))
  })
})

/** An `assert.throws`/`rejects` validator: an engine error with this `code` and a `path`. */
const isSkillError = (code) => (err) => {
  assert.ok(err instanceof Error, 'an Error instance')
  assert.equal(err.code, code)
  assert.ok('path' in err, 'has a path property')
  return true
}

describe('search', () => {
  test('search() resolves to ranked hits with camelCase getters matching toJSON()', async () => {
    const tree = skillTree(12)
    write(tree, 'extra/pdf/SKILL.md', skillMd('pdf', 'Extract text and tables from PDF files.', 'tags: [documents]\n'))
    const deck = new Deck(isolated(tree))
    const results = await deck.search({ query: 'extract pdf tables', limit: 5 })
    assert.ok(results instanceof SearchResults)
    assert.equal(results.query, 'extract pdf tables')
    assert.deepEqual(results.hits.map((h) => h.id), ['pdf'])
    assert.equal(results.matched, 1)
    assert.equal(results.searched, 13)
    const hit = results.hits[0]
    assert.ok(hit instanceof SearchHit)
    assert.deepEqual(hit.matched, ['name', 'description'])
    assert.equal(hit.location, path.join(tree, 'extra', 'pdf', 'SKILL.md'))
    assert.ok(hit.score > 0 && hit.bm25 === hit.score && hit.similarity === null)
    const json = canonical(results)
    assert.deepEqual(Object.keys(json), ['query', 'hits', 'matched', 'searched'])
    for (const key of ['id', 'name', 'description', 'location', 'score', 'bm25', 'matched']) {
      assert.deepEqual(canonical(hit[camel(key)]), json.hits[0][key], `hit.${key}`)
    }
    assert.deepEqual(canonical(deck.searchSync({ query: 'extract pdf tables', limit: 5 })), json)
  })

  test('hybrid search takes embeddings and reports the similarity', async () => {
    const deck = new Deck(isolated(skillTree(3)))
    // No text match: the vector ranking alone orders the skills that have an embedding.
    const results = deck.searchSync({
      query: 'zebra',
      queryEmbedding: [1, 0],
      embeddings: { 'skill-002': [1, 0], 'skill-000': [0, 1] },
    })
    assert.deepEqual(results.hits.map((h) => [h.id, h.similarity, h.bm25]), [
      ['skill-002', 1, 0],
      ['skill-000', 0, 0],
    ])
    assert.equal(results.matched, 2)
  })

  test('search options fail closed like every options object', async () => {
    const deck = new Deck(isolated(skillTree(1)))
    await assert.rejects(deck.search({ query: 'x', query_embedding: [1] }), (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS')
      assert.match(err.message, /unknown key `query_embedding` \(did you mean `queryEmbedding`\?\)/)
      return true
    })
    assert.throws(() => deck.searchSync({ query: 'x', limt: 3 }), isSkillError('INVALID_OPTIONS'))
    for (const bad of [
      { query: 5 },
      {},
      { query: 'x', limit: '3' },
      { query: 'x', limit: -1 },
      { query: 'x', limit: 1.5 },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 1001 },
      { query: 'x', all: 'yes' },
      { query: 'x', embeddings: { a: 'not a vector' } },
      { query: 'x', queryEmbedding: [1], embeddings: { 'skill-000': [1, 2] } },
      { query: '  ' },
    ]) {
      await assert.rejects(deck.search(bad), isSkillError('INVALID_OPTIONS'), JSON.stringify(bad))
      assert.throws(() => deck.searchSync(bad), isSkillError('INVALID_OPTIONS'), JSON.stringify(bad))
    }
    await assert.rejects(deck.search(), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.searchSync(null), isSkillError('INVALID_OPTIONS'))
  })

  test('searchToolDefinition() is the search_skills tool', () => {
    const tool = searchToolDefinition()
    assert.equal(tool.name, 'search_skills')
    assert.deepEqual(tool.parameters.required, ['query'])
    assert.equal(tool.parameters.properties.limit.maximum, 1000)
  })

  test('render({ query, pinned }) keeps the relevant and pinned skills and says why', async () => {
    const tree = skillTree(2)
    write(tree, 'extra/pdf/SKILL.md', skillMd('pdf', 'Extract text and tables from PDF files.'))
    const deck = new Deck(isolated(tree))
    const rendered = await deck.render({ format: 'markdown', query: 'pdf tables', pinned: ['skill-001', 'nope'] })
    assert.deepEqual(rendered.report.included, ['pdf', 'skill-001'])
    assert.deepEqual(rendered.report.omitted, ['skill-000'])
    assert.deepEqual(rendered.report.reasons, {
      'skill-000': 'does not match the query',
      nope: 'pinned, but not visible to the model',
    })
    assert.deepEqual(canonical(rendered.report).reasons, rendered.report.reasons)
    assert.deepEqual((await deck.render()).report.reasons, {})
    await assert.rejects(deck.render({ pinned: 'skill-000' }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.renderSync({ query: 5 }), isSkillError('INVALID_OPTIONS'))
  })
})

describe('events', () => {
  test('subscribers receive the registered event of a load', async () => {
    const tree = skillTree(2)
    const deck = new Deck(isolated(tree))
    const registered = nextEvent(deck, 'registered')
    await deck.load()
    const event = await registered
    assert.deepEqual(event.skills.sort(), ['skill-000', 'skill-001'])
  })

  test('subscribers receive the changed event of a reload, from a libuv thread', async () => {
    const tree = skillTree(1)
    const deck = new Deck(isolated(tree))
    await deck.load()
    const changed = nextEvent(deck, 'changed')
    fs.rmSync(path.join(tree, 'extra/skill-000'), { recursive: true })
    await deck.reload()
    const event = await changed
    assert.deepEqual(event.diff, { added: [], removed: ['skill-000'], changed: [] })
  })

  test('activation emits an activated event naming the skill and agent', async () => {
    const deck = new Deck(isolated(skillTree(1), { agent: 'build' }))
    const activated = nextEvent(deck, 'activated')
    const activation = await deck.activate('skill-000', { args: 'report.pdf' })
    assert.deepEqual(await activated, { type: 'activated', id: 'skill-000', agent: 'build' })
    assert.equal(activation.id, 'skill-000')
    assert.match(activation.body, /report\.pdf/)
    const json = canonical(activation)
    assert.equal(activation.baseDir, json.base_dir)
    assert.deepEqual(activation.allowedTools, json.allowed_tools)
    assert.equal(activation.permission, 'allow')
    assert.equal(json.permission, 'allow')
    assert.deepEqual(canonical(deck.activateSync('skill-000', { args: 'report.pdf' })), json)
  })

  test('unsubscribe() stops delivery and reports unknown ids', async () => {
    const tree = skillTree(1)
    const deck = new Deck(isolated(tree))
    const seen = []
    const id = deck.subscribe((event) => seen.push(event.type))
    assert.equal(typeof id, 'number')
    assert.equal(deck.unsubscribe(id), true)
    assert.equal(deck.unsubscribe(id), false)
    // A subscriber registered after the first one proves delivery happened at all.
    const registered = nextEvent(deck, 'registered')
    await deck.load()
    await registered
    assert.deepEqual(seen, [])
  })
})

describe('type declarations', () => {
  const dts = fs.readFileSync(path.join(ROOT, 'bindings-node/index.d.ts'), 'utf8')

  /** The string literals of the union starting at `start` in index.d.ts (to the line's end, or the blank line after a multi-line type). */
  function union(start) {
    const at = dts.indexOf(start)
    assert.ok(at >= 0, start)
    const rest = dts.slice(at)
    const end = start.endsWith('=\n') ? rest.indexOf('\n\n') : rest.indexOf('\n')
    return [...rest.slice(0, end).matchAll(/'([^']+)'/g)].map((m) => m[1])
  }

  /** The names an INVALID_OPTIONS message lists after `expected one of:`. */
  function engineNames(fn) {
    try {
      fn()
    } catch (err) {
      assert.equal(err.code, 'INVALID_OPTIONS')
      const listed = err.message.split('expected one of: ')[1].split(', or ')[0]
      return listed.split(/[,)]/).map((n) => n.trim()).filter(Boolean)
    }
    assert.fail('no error thrown')
  }

  test('the Profile union lists every built-in profile', () => {
    const tree = skillTree(0)
    const names = engineNames(() => new Deck(isolated(tree, { profile: 'no-such-profile' })))
    assert.deepEqual(union('export type Profile =\n'), names)
  })

  test('the format unions list every engine format', () => {
    const deck = new Deck(isolated(skillTree(1)))
    assert.deepEqual(
      union("  format?: 'xml'"),
      engineNames(() => deck.renderSync({ format: 'no-such-format' })),
    )
    assert.deepEqual(
      union("  format?: 'raw'"),
      engineNames(() => deck.activateSync('skill-000', { format: 'no-such-format' })),
    )
  })
})

describe('errors', () => {

  test('get() of an unknown id throws NOT_FOUND', () => {
    const deck = new Deck(isolated(skillTree(1)))
    assert.throws(() => deck.get('missing'), isSkillError('NOT_FOUND'))
    assert.equal(deck.get('skill-000').name, 'skill-000')
  })

  test('activate() of an unknown id rejects with NOT_FOUND', async () => {
    const deck = new Deck(isolated(skillTree(1)))
    await assert.rejects(deck.activate('missing'), isSkillError('NOT_FOUND'))
  })

  test('activating a denied skill rejects with PERMISSION_DENIED', async () => {
    const rules = { semantics: 'deny-first', rules: [{ pattern: 'skill-*', decision: 'deny' }] }
    const deck = new Deck(isolated(skillTree(1), { rules }))
    await assert.rejects(deck.activate('skill-000'), isSkillError('PERMISSION_DENIED'))
    assert.throws(() => deck.activateSync('skill-000'), isSkillError('PERMISSION_DENIED'))
  })

  test('bad options throw or reject with INVALID_OPTIONS', async () => {
    const tree = skillTree(1)
    assert.throws(
      () => new Deck(isolated(tree, { roots: [{ path: tree, scope: 'galaxy' }] })),
      isSkillError('INVALID_OPTIONS'),
    )
    assert.throws(() => new Deck(isolated(tree, { rules: { semantics: 'coin-flip' } })), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => new PermissionRules({ rules: [{ pattern: '*', decision: 'maybe' }] }), isSkillError('INVALID_OPTIONS'))
    const deck = new Deck(isolated(tree))
    await assert.rejects(deck.render({ format: 'haiku' }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.renderSync({ format: 'haiku' }), isSkillError('INVALID_OPTIONS'))
    await assert.rejects(deck.render({ budgetChars: -1 }), isSkillError('INVALID_OPTIONS'))
    await assert.rejects(deck.render({ usage: { 'skill-000': 1.5 } }), isSkillError('INVALID_OPTIONS'))
    assert.equal((await deck.render({ budgetChars: 10_000, usage: { 'skill-000': 3 } })).report.included.length, 1)
    await assert.rejects(deck.activate('skill-000', { format: 'haiku' }), isSkillError('INVALID_OPTIONS'))
  })

  test('options fail closed: unknown keys and wrong types are INVALID_OPTIONS', async () => {
    const tree = skillTree(1)
    // napi would skip an unknown key; a misspelt option must not silently keep its default.
    assert.throws(() => new Deck(isolated(tree, { projectdir: tree })), (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS')
      assert.match(err.message, /unknown key `projectdir` \(did you mean `projectDir`\?\)/)
      return true
    })
    assert.throws(() => new Deck(isolated(tree, { profile: 5 })), isSkillError('INVALID_OPTIONS'))
    assert.throws(
      () => new Deck(isolated(tree, { roots: [{ path: tree, scop: 'user' }] })),
      isSkillError('INVALID_OPTIONS'),
    )
    const deck = new Deck(isolated(tree))
    await assert.rejects(deck.render({ budget: 5 }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.renderSync({ formats: 'xml' }), isSkillError('INVALID_OPTIONS'))
    await assert.rejects(deck.activate('skill-000', { arg: 'x' }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.activateSync('skill-000', { session: 'x' }), isSkillError('INVALID_OPTIONS'))
    await assert.rejects(validate(tree, { strictt: true }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => validateSync(tree, { strict: 'yes' }), isSkillError('INVALID_OPTIONS'))
  })

  test('rules read the hosts\' shapes and refuse unknown keys', () => {
    for (const bad of [{ rulez: 5 }, { skill: { 'internal-*': 'deny' } }, { rules: [], permission: {} }]) {
      assert.throws(() => new PermissionRules(bad), isSkillError('INVALID_OPTIONS'))
    }
    const opencode = new PermissionRules({ permission: { skill: { '*': 'allow', 'internal-*': 'deny' } } })
    assert.deepEqual([opencode.semantics, opencode.evaluate('pdf'), opencode.evaluate('internal-db')], ['last-match', 'allow', 'deny'])
    const claude = new PermissionRules({ permissions: { allow: ['Skill', 'Bash(ls)'], deny: ['Skill(internal:*)'] } })
    assert.deepEqual([claude.semantics, claude.evaluate('pdf'), claude.evaluate('internal:db')], ['deny-first', 'allow', 'deny'])
  })

  test('file errors carry the path: IO_ERROR and INVALID_OPTIONS', () => {
    const tree = skillTree(0)
    const missing = path.join(tree, 'nope.json')
    assert.throws(
      () => new Deck(isolated(tree, { profileFile: missing })),
      (err) => isSkillError('IO_ERROR')(err) && err.path === missing,
    )
    // A profile file is skilldeck's own configuration: broken or unknown is bad options.
    const broken = write(tree, 'profile.json', '{ "name": ')
    assert.throws(
      () => new Deck(isolated(tree, { profileFile: broken })),
      (err) => isSkillError('INVALID_OPTIONS')(err) && err.path === broken,
    )
  })
})

describe('objects', () => {
  const text = [
    '---',
    'name: pdf',
    'description: Extract text from PDF files.',
    'license: MIT',
    'allowed-tools: Read, Bash(pdftotext:*)',
    'argument-hint: "[file]"',
    'disable-model-invocation: false',
    'max-thinking-tokens: 2048',
    'timeout: 30',
    'tags: [docs, pdf]',
    'metadata:',
    '  short-description: PDFs',
    '  owner: docs-team',
    'source: community',
    '---',
    '# PDF',
    '',
  ].join('\n')

  test('parse() exposes every canonical manifest key as a camelCase getter', () => {
    const parsed = parse(text)
    const json = canonical(parsed)
    assert.equal(parsed.bodyLine, json.body_line)
    assert.ok(Object.keys(json.manifest).length >= 10, JSON.stringify(json.manifest))
    for (const [key, value] of Object.entries(json.manifest)) {
      assert.deepEqual(canonical(parsed.manifest[camel(key)]), value, `manifest.${camel(key)}`)
    }
    assert.deepEqual(parsed.manifest.extra, { source: 'community' })
    assert.deepEqual(parsed.manifest.allowedTools, json.manifest['allowed-tools'])
  })

  test('Skill has its own fields, the manifest fields and a canonical toJSON()', async () => {
    const tree = skillTree(0)
    write(tree, 'extra/pdf/SKILL.md', text)
    const deck = new Deck(isolated(tree))
    const catalog = await deck.load()
    const skill = catalog.get('pdf')
    assert.ok(skill)
    const json = canonical(skill)
    assert.equal(skill.baseDir, json.base_dir)
    assert.equal(skill.location, path.join(tree, 'extra/pdf/SKILL.md'))
    assert.equal(skill.scope, 'extra')
    assert.equal(skill.kind, json.kind)
    assert.equal(skill.status.modelInvocable, json.status.model_invocable)
    assert.deepEqual(canonical(skill.status), json.status)
    assert.deepEqual(canonical(skill.manifest), json.manifest)
    for (const [key, value] of Object.entries(json.manifest)) {
      if (key === 'name' || key === 'description') continue
      assert.deepEqual(canonical(skill[camel(key)]), value, `skill.${camel(key)}`)
    }
    assert.equal(catalog.get('absent'), null)
    assert.deepEqual(
      [...catalog].map((s) => s.id),
      catalog.skills.map((s) => s.id),
    )
    assert.equal(catalog.length, catalog.skills.length)
    assert.deepEqual(canonical(catalog).skills[0], json)
  })

  test('PermissionRules evaluates both semantics and serialises canonically', () => {
    const spec = {
      semantics: 'last-match',
      rules: [
        { pattern: '*', decision: 'deny' },
        { pattern: 'pdf', decision: 'allow' },
      ],
      agents: { build: [{ pattern: 'pdf', decision: 'ask' }] },
    }
    const lastMatch = new PermissionRules(spec)
    assert.equal(lastMatch.evaluate('pdf'), 'allow')
    assert.equal(lastMatch.evaluate('pdf', 'build'), 'ask')
    assert.equal(lastMatch.evaluate('other'), 'deny')
    assert.equal(lastMatch.toolDisabled(), false)
    assert.deepEqual(canonical(lastMatch), spec)
    const denyFirst = new PermissionRules({ ...spec, semantics: 'deny-first' })
    assert.equal(denyFirst.semantics, 'deny-first')
    assert.equal(denyFirst.evaluate('pdf'), 'deny')
    assert.equal(denyFirst.toolDisabled(), true)
    // No rule at all: allow, as a deck without rules lists and activates every skill.
    assert.equal(new PermissionRules().evaluate('x'), 'allow')
  })

  test('a PermissionRules object and its JSON shape configure a Deck the same way', async () => {
    const tree = skillTree(2)
    const spec = { semantics: 'last-match', rules: [{ pattern: 'skill-001', decision: 'deny' }] }
    const fromJson = await new Deck(isolated(tree, { rules: spec })).load()
    const fromObject = await new Deck(isolated(tree, { rules: new PermissionRules(spec) })).load()
    assert.deepEqual(canonical(fromObject), canonical(fromJson))
    assert.equal(fromJson.get('skill-001').status.permission, 'deny')
    assert.deepEqual(
      fromJson.listed().map((s) => s.id),
      ['skill-000'],
    )
  })
})

// Issue 23: no silent empties, one error model.
describe('no silent empties, one error model', () => {
  test('a missing or non-directory project dir is a catalog warning', () => {
    const tree = skillTree(1)
    const missing = path.join(tree, 'nowhere')
    let catalog = new Deck(isolated(tree, { projectDir: missing })).loadSync()
    assert.deepEqual(
      catalog.diagnostics.map((d) => [d.code, d.severity, d.path]),
      [['project-dir-missing', 'warning', missing]],
    )
    assert.ok(catalog.diagnostics[0].hint)
    assert.deepEqual(catalog.listed().map((s) => s.id), ['skill-000'])
    const file = write(tree, 'notes.txt', 'x')
    catalog = new Deck(isolated(tree, { projectDir: file })).loadSync()
    assert.deepEqual(catalog.diagnostics.map((d) => d.code), ['project-dir-not-a-directory'])
  })

  test('enable/disable selectors that match nothing are warned, naming them', () => {
    const tree = skillTree(2)
    const catalog = new Deck(isolated(tree, { enable: ['skill-999'], disable: ['skill-001', 'nope-*'] })).loadSync()
    const warned = catalog.diagnostics.filter((d) => d.code.endsWith('-matches-nothing'))
    assert.deepEqual(warned.map((d) => d.code), ['enable-matches-nothing', 'disable-matches-nothing'])
    assert.match(warned[0].message, /`skill-999`/)
    assert.match(warned[1].message, /`nope-\*`/)
    assert.equal(catalog.get('skill-001').status.enabled, false)
  })

  test('a string where an options object is expected is INVALID_OPTIONS saying what to write', async () => {
    assert.throws(() => new Deck('claude-code'), (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS')
      assert.match(err.message, /got a string; write new Deck\(\{ profile: 'claude-code' \}\)/)
      return true
    })
    assert.throws(() => new Deck(42), isSkillError('INVALID_OPTIONS'))
    // Unknown keys were already refused; they stay refused.
    assert.throws(() => new Deck({ projectdir: '.' }), (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS')
      assert.match(err.message, /did you mean `projectDir`/)
      return true
    })
    const deck = new Deck(isolated(skillTree(1)))
    await assert.rejects(deck.render('xml'), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.renderSync('xml'), /render\(\{ format: 'xml' \}\)/)
    assert.throws(() => deck.searchSync('pdf'), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.activateSync('skill-000', 'args'), isSkillError('INVALID_OPTIONS'))
  })

  test('negative and out-of-range numbers are INVALID_OPTIONS', async () => {
    const deck = new Deck(isolated(skillTree(1)))
    for (const bad of [
      { budgetChars: -1 },
      { budgetTokens: -1 },
      { budgetChars: 10_000_001 },
      { budgetTokens: 2 ** 40 },
      { budgetChars: 1.5 },
      { usage: { 'skill-000': -1 } },
    ]) {
      await assert.rejects(deck.render(bad), isSkillError('INVALID_OPTIONS'), JSON.stringify(bad))
      assert.throws(() => deck.renderSync(bad), isSkillError('INVALID_OPTIONS'), JSON.stringify(bad))
    }
    assert.ok(deck.renderSync({ budgetChars: 10_000_000 }).text)
    assert.throws(() => deck.searchSync({ query: 'x', limit: -1 }), isSkillError('INVALID_OPTIONS'))
  })

  test('activation arguments are capped at 1 MiB', async () => {
    const deck = new Deck(isolated(skillTree(1)))
    const big = 'x'.repeat(1024 * 1024 + 1)
    await assert.rejects(deck.activate('skill-000', { args: big }), isSkillError('INVALID_OPTIONS'))
    assert.throws(() => deck.activateSync('skill-000', { vars: { BIG: big } }), /1 MiB/)
    assert.match(deck.activateSync('skill-000', { args: 'x'.repeat(1000) }).text, /x{1000}/)
  })

  test('arguments of the wrong type are INVALID_OPTIONS, a code of the ErrorCode union', () => {
    const deck = new Deck(isolated(skillTree(1)))
    const calls = [() => deck.get(42), () => deck.unsubscribe('x'), () => parse(5), () => validateSync(5), () => deck.loadSync().get(5)]
    for (const call of calls) {
      assert.throws(call, (err) => {
        assert.equal(err.code, 'INVALID_OPTIONS')
        assert.equal(err.path, null)
        assert.match(err.message, /^invalid option: /)
        return true
      })
    }
  })

  test('a non-callable subscriber is refused at subscribe', () => {
    const deck = new Deck(isolated(skillTree(1)))
    for (const bad of [undefined, null, 42, 'console.log', {}]) {
      assert.throws(() => deck.subscribe(bad), (err) => {
        assert.equal(err.code, 'INVALID_OPTIONS')
        assert.match(err.message, /subscribe\(\) needs a function/)
        return true
      })
    }
  })
})
