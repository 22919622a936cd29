// MCP in the Node binding (the port of bindings-python/tests/test_mcp.py): a deck served over
// streamable HTTP (`serveMcpHttp`) and over stdio (`serveMcp`, in a child Node process), each
// consumed by another deck through `attachMcp` (skills listed with their origin, fetched and
// verified on activation); the independent raw JSON-RPC server of the Rust tests
// (mcp/tests/fake_server.py) serving tampered and oversize skills, refused with their codes;
// and the typed errors of a server that cannot be reached or options that are wrong.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  Deck,
  McpHttpServer,
  attachMcp,
  attachMcpSync,
  serveMcpHttp,
  serveMcpHttpSync,
} from '../index.mjs'
import { tempTree, write } from './helpers.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const fakeServer = path.resolve(here, '../../mcp/tests/fake_server.py')

function skill(root, name, body) {
  write(root, `${name}/SKILL.md`, `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`)
}

function deckOver(tmp, skills) {
  const empty = path.join(tmp, 'empty')
  fs.mkdirSync(empty, { recursive: true })
  fs.mkdirSync(skills, { recursive: true })
  return new Deck({ projectDir: empty, homeDir: empty, roots: [skills], readHostSettings: false, env: {} })
}

/** A tree with a remote skill `alpha` (and a script) and a local one `beta`. */
function fixture() {
  const tmp = tempTree('skilldeck-mcp-')
  const remote = path.join(tmp, 'remote skills')
  skill(remote, 'alpha', 'alpha body')
  write(remote, 'alpha/scripts/run.sh', 'echo hi\n')
  const local = path.join(tmp, 'local')
  skill(local, 'beta', 'beta body')
  return { tmp, remote, local }
}

/** `promise` must reject with an error whose `code` is `code`; returns the error. */
async function rejectsWith(promise, code) {
  let error
  await assert.rejects(promise, (err) => {
    error = err
    return true
  })
  assert.equal(error.code, code, `${error.code}: ${error.message}`)
  return error
}

describe('MCP', () => {
  test('a deck served over HTTP is another deck’s skill source', async () => {
    const { tmp, remote, local } = fixture()
    const server = await serveMcpHttp(deckOver(tmp, remote))
    assert.ok(server instanceof McpHttpServer)
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      assert.equal(server.open, true)
      const deck = deckOver(tmp, local)
      const labels = await attachMcp(deck, { urls: [`web=${server.url}`], cache: path.join(tmp, 'cache') })
      assert.deepEqual(labels, ['web'])
      const catalog = await deck.load()
      assert.deepEqual(
        catalog.listed().map((s) => s.id),
        ['beta', 'web:alpha'],
      )
      const alpha = catalog.get('web:alpha')
      assert.equal(alpha.scope, 'extra')
      assert.equal(alpha.source, 'mcp://web')
      const activation = await deck.activate('web:alpha')
      assert.ok(activation.text.startsWith('Origin: MCP server `web` (skill `web:alpha`).'), activation.text)
      assert.ok(activation.text.includes('alpha body'), activation.text)
      assert.deepEqual(activation.resources, ['skill://alpha/scripts/run.sh'])
      // The verified SKILL.md is in the cache, outside every root; the script was not read.
      assert.ok(alpha.location.startsWith(path.join(tmp, 'cache', 'web')), alpha.location)
      assert.ok(fs.readFileSync(alpha.location, 'utf8').includes('alpha body'))
      assert.equal(fs.existsSync(path.join(path.dirname(alpha.location), 'scripts', 'run.sh')), false)
    } finally {
      server.close()
    }
    assert.equal(server.open, false)
    server.close() // idempotent
    // Closed: the URL no longer answers.
    const err = await rejectsWith(
      attachMcp(deckOver(tmp, local), { urls: [`web=${server.url}`], cache: path.join(tmp, 'cache') }),
      'REMOTE_UNAVAILABLE',
    )
    assert.ok(err.message.includes('web: cannot start or reach the MCP server'), err.message)
  })

  test('the Sync twins serve and attach on the calling thread', () => {
    const { tmp, remote, local } = fixture()
    const server = serveMcpHttpSync(deckOver(tmp, remote), { addr: '127.0.0.1:0', pageSize: 1, ttlMs: 0 })
    try {
      const deck = deckOver(tmp, local)
      assert.deepEqual(attachMcpSync(deck, { urls: [server.url], cache: path.join(tmp, 'cache') }), ['127.0.0.1'])
      assert.deepEqual(
        deck.loadSync().listed().map((s) => s.id),
        ['beta', '127.0.0.1:alpha'],
      )
      assert.ok(deck.activateSync('127.0.0.1:alpha').text.includes('alpha body'))
    } finally {
      server.close()
    }
  })

  test('a deck served over stdio by a child Node process', async () => {
    const { tmp, remote, local } = fixture()
    const empty = path.join(tmp, 'empty')
    fs.mkdirSync(empty, { recursive: true })
    const entry = path.resolve(here, '../index.mjs')
    const script = write(
      tmp,
      'serve.mjs',
      `import { Deck, serveMcp } from ${JSON.stringify(entry)}\n` +
        `const deck = new Deck({ projectDir: ${JSON.stringify(empty)}, homeDir: ${JSON.stringify(empty)}, ` +
        `roots: [${JSON.stringify(remote)}], readHostSettings: false, env: {} })\n` +
        'await serveMcp(deck, { pageSize: 1 })\n',
    )
    // The command line is split like a shell line: the quoted path (it has a space) stays one argument.
    const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`
    const deck = deckOver(tmp, local)
    const labels = await attachMcp(deck, {
      servers: [`js=${quote(process.execPath)} ${quote(script)}`],
      cache: path.join(tmp, 'cache'),
    })
    assert.deepEqual(labels, ['js'])
    const catalog = await deck.load()
    assert.deepEqual(
      catalog.listed().map((s) => s.id),
      ['beta', 'js:alpha'],
    )
    assert.ok((await deck.activate('js:alpha')).text.includes('alpha body'))
  })

  test('tampered and oversize skills of an independent server are refused with their codes', async () => {
    const { tmp, local } = fixture()
    const deck = deckOver(tmp, local)
    assert.deepEqual(
      await attachMcp(deck, { servers: [`fake=python3 ${fakeServer}`], cache: path.join(tmp, 'cache') }),
      ['fake'],
    )
    const catalog = await deck.load()
    const listed = catalog.listed().map((s) => s.id)
    assert.ok(listed.includes('fake:good') && listed.includes('fake:bad-digest'), listed.join(' '))
    // Over the extension's 512 files / 16 MiB: never listed, a refused entry each.
    assert.ok(!listed.includes('fake:too-many') && !listed.includes('fake:too-big'), listed.join(' '))
    const refused = catalog.diagnostics.filter((d) => d.code === 'REMOTE_ENTRY_REFUSED').map((d) => d.message)
    assert.ok(
      refused.some((m) => m.includes('skill://too-big/SKILL.md') && m.includes('16 MiB')),
      refused.join('\n'),
    )
    assert.ok(
      refused.some((m) => m.includes('skill://too-many/SKILL.md') && m.includes('over the extension\'s limit of 512')),
      refused.join('\n'),
    )
    for (const [id, code] of [
      ['fake:bad-digest', 'REMOTE_DIGEST_MISMATCH'],
      ['fake:wrong-size', 'REMOTE_SIZE_MISMATCH'],
      ['fake:fm-mismatch', 'REMOTE_FRONTMATTER_MISMATCH'],
    ]) {
      const err = await rejectsWith(deck.activate(id), code)
      assert.ok(err.message.includes('verification failed'), err.message)
      // Nothing unverified reached the cache.
      assert.equal(fs.existsSync(catalog.get(id).location), false, id)
    }
    assert.throws(() => deck.activateSync('fake:bad-digest'), { code: 'REMOTE_DIGEST_MISMATCH' })
    assert.ok((await deck.activate('fake:good')).text.includes('# good'))
  })

  test('errors are typed', async () => {
    const { tmp, local } = fixture()
    const deck = deckOver(tmp, local)
    const cache = path.join(tmp, 'c')
    const gone = await rejectsWith(attachMcp(deck, { servers: ['gone=/nonexistent/server'], cache }), 'REMOTE_UNAVAILABLE')
    assert.ok(gone.message.includes('gone: cannot start or reach the MCP server'), gone.message)
    const quote = await rejectsWith(attachMcp(deck, { servers: ["srv 'a"], cache }), 'INVALID_OPTIONS')
    assert.match(quote.message, /unbalanced quote/)
    const overlap = await rejectsWith(
      attachMcp(deck, { servers: ['x=y'], cache: path.join(local, 'cache') }),
      'INVALID_OPTIONS',
    )
    assert.match(overlap.message, /overlaps the skill discovery path/)
    const unknown = await rejectsWith(attachMcp(deck, { server: ['x'] }), 'INVALID_OPTIONS')
    assert.match(unknown.message, /unknown key `server`; expected one of: servers, urls, headers, cache/)
    assert.throws(() => attachMcpSync(deck, { urls: 'http://x' }), { code: 'INVALID_OPTIONS' })
    await rejectsWith(serveMcpHttp(deck, { addr: 'not an address' }), 'INVALID_OPTIONS')
    assert.throws(() => serveMcpHttpSync(deck, { port: 1 }), { code: 'INVALID_OPTIONS' })
    // A port already bound: the bind fails with the address as the path.
    const first = serveMcpHttpSync(deck)
    try {
      const addr = new URL(first.url).host
      const busy = await rejectsWith(serveMcpHttp(deck, { addr }), 'IO_ERROR')
      assert.equal(busy.path, addr)
    } finally {
      first.close()
    }
  })
})
