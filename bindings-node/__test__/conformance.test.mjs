// Runs every conformance vector in tests/vectors through the public JS API, following
// tests/README.md step by step. One `node:test` case per vector.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { Deck, PermissionRules, audit, auditSync, parse, validate } from '../index.mjs'
import { camel, canonical, tempTree } from './helpers.mjs'

const VECTORS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/vectors')
const ERROR_CODES = new Set([
  'PARSE_ERROR',
  'VALIDATION_ERROR',
  'NOT_FOUND',
  'PERMISSION_DENIED',
  'IO_ERROR',
  'INVALID_OPTIONS',
  'INTERNAL',
])

function findCases(dir) {
  if (!fs.existsSync(dir)) return []
  const out = []
  for (const name of fs.readdirSync(dir).sort()) {
    const sub = path.join(dir, name)
    if (fs.existsSync(path.join(sub, 'case.json'))) out.push(sub)
    else if (fs.statSync(sub).isDirectory()) out.push(...findCases(sub))
  }
  return out
}

// Step 2: `mkdir` (with parents) then `symlinks`, written exactly as given.
function applySetup(tree, setup = {}) {
  for (const dir of setup.mkdir ?? []) fs.mkdirSync(path.join(tree, dir), { recursive: true })
  for (const { link, target } of setup.symlinks ?? []) {
    const at = path.join(tree, link)
    fs.mkdirSync(path.dirname(at), { recursive: true })
    fs.symlinkSync(target, at)
  }
}

// `input.deck` (DeckOptions field names) to the JS options, with the vector defaults of
// tests/README.md so that no vector sees the real machine.
function deckOptions(tree, deck = {}) {
  const options = {}
  for (const [key, value] of Object.entries(deck)) options[camel(key)] = value
  options.projectDir = path.resolve(tree, deck.project_dir ?? 'project')
  options.homeDir = path.resolve(tree, deck.home_dir ?? 'home')
  options.systemRoot = path.resolve(tree, deck.system_root ?? '.')
  options.env = Object.fromEntries(
    Object.entries(deck.env ?? {}).map(([k, v]) => [k, String(v).split('<tree>').join(tree)]),
  )
  if (deck.roots) {
    options.roots = deck.roots.map((root) => ({ ...root, path: path.resolve(tree, root.path ?? '.') }))
  }
  return options
}

function camelKeys(object = {}) {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [camel(k), v]))
}

// `reload` changes; a write moves the mtime at least 2 s past its previous value so a
// stat-based cache sees it.
function applyChanges(tree, changes = []) {
  for (const change of changes) {
    if (change.write !== undefined) {
      const file = path.join(tree, change.write)
      const previous = fs.existsSync(file) ? fs.statSync(file).mtimeMs : Date.now()
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, change.text ?? '')
      const bumped = new Date(previous + 2000)
      fs.utimesSync(file, bumped, bumped)
    } else if (change.remove !== undefined) {
      fs.rmSync(path.join(tree, change.remove), { recursive: true, force: false })
    }
  }
}

async function runOperation(tree, { operation, input = {} }) {
  switch (operation) {
    case 'parse':
      return parse(input.text ?? '')
    case 'validate':
      return validate(path.join(tree, input.path ?? '.'), { strict: input.strict ?? false })
    case 'discover':
      return new Deck(deckOptions(tree, input.deck)).load()
    case 'reload': {
      const deck = new Deck(deckOptions(tree, input.deck))
      await deck.load()
      applyChanges(tree, input.changes)
      return deck.reload()
    }
    case 'permissions': {
      const rules = new PermissionRules(input.rules)
      const agent = input.agent ?? undefined
      const decisions = {}
      for (const id of input.ids ?? []) decisions[id] = rules.evaluate(id, agent)
      return { decisions, tool_disabled: rules.toolDisabled(agent) }
    }
    case 'render':
      return new Deck(deckOptions(tree, input.deck)).render(camelKeys(input.render))
    case 'activate':
      return new Deck(deckOptions(tree, input.deck)).activate(input.id, camelKeys(input.activate))
    case 'audit': {
      // Both flavours must agree; the Promise's result is the vector's.
      const target = path.join(tree, input.path ?? '.')
      let sync
      try {
        sync = auditSync(target)
      } catch (err) {
        sync = { error: err?.code }
      }
      try {
        const report = await audit(target)
        assert.deepEqual(report, sync, 'auditSync() differs from audit()')
        return report
      } catch (err) {
        assert.deepEqual({ error: err?.code }, sync, 'auditSync() differs from audit()')
        throw err
      }
    }
    case 'search': {
      // Both flavours must agree; the Promise's result is the vector's.
      const deck = new Deck(deckOptions(tree, input.deck))
      const options = camelKeys(input.search)
      let sync
      try {
        sync = canonical(deck.searchSync(options))
      } catch (err) {
        sync = { error: err?.code }
      }
      try {
        const found = await deck.search(options)
        assert.deepEqual(canonical(found), sync, 'searchSync() differs from search()')
        return found
      } catch (err) {
        assert.deepEqual({ error: err?.code }, sync, 'searchSync() differs from search()')
        throw err
      }
    }
    default:
      throw new Error(`unknown operation \`${operation}\``)
  }
}

// Step 5: every occurrence of the tree path in every string becomes `<tree>`.
function normalise(value, tree) {
  if (typeof value === 'string') return value.split(tree).join('<tree>')
  if (Array.isArray(value)) return value.map((v) => normalise(v, tree))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, tree)]))
  }
  return value
}

// Step 6: subset match; returns the path of the first mismatch, or null.
function mismatch(expected, actual, at = '$') {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${at}: expected an object, got ${JSON.stringify(actual)}`
    }
    for (const [key, value] of Object.entries(expected)) {
      const here = `${at}.${key}`
      if (!(key in actual)) {
        if (value === null) continue
        return `${here}: missing`
      }
      const why = mismatch(value, actual[key], here)
      if (why) return why
    }
    return null
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`
    if (expected.length !== actual.length) {
      return `${at}: expected ${expected.length} items, got ${actual.length}`
    }
    for (let i = 0; i < expected.length; i++) {
      const why = mismatch(expected[i], actual[i], `${at}[${i}]`)
      if (why) return why
    }
    return null
  }
  return expected === actual
    ? null
    : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`
}

const cases = findCases(VECTORS)

test('the vector directory holds cases', () => {
  assert.ok(cases.length > 0, `no case.json under ${VECTORS}`)
})

for (const dir of cases) {
  const name = path.relative(VECTORS, dir).split(path.sep).join('/')
  test(`vector ${name}`, async () => {
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8'))
    const tree = tempTree('skilldeck-vector-')
    try {
      if (fs.existsSync(path.join(dir, 'tree'))) {
        fs.cpSync(path.join(dir, 'tree'), tree, { recursive: true })
      }
      applySetup(tree, spec.setup)
      let result
      try {
        result = canonical(await runOperation(tree, spec))
      } catch (err) {
        // Step 4: only the engine's own errors become results; anything else is a bug.
        if (!ERROR_CODES.has(err?.code)) throw err
        result = { error: { code: err.code } }
      }
      const actual = normalise(result, tree)
      const why = mismatch(spec.expected, actual)
      assert.equal(why, null, `${why}\nactual: ${JSON.stringify(actual, null, 2)}`)
    } finally {
      fs.rmSync(tree, { recursive: true, force: true })
    }
  })
}
