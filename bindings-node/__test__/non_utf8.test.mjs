// A Node process whose environment and working directory are not UTF-8. `new Deck()` once
// panicked reading such an environment, and a panic aborts Node (exit 134, uncatchable);
// a project path that is not UTF-8 lost its skills. JS strings cannot hold those bytes, so
// a shell builds the child's environment and working directory with printf.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { skillMd, tempTree } from './helpers.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** `dir/name + bytes` as a Buffer path (Node's fs takes bytes that are not UTF-8 so). */
function bytesPath(dir, name, bytes) {
  return Buffer.concat([Buffer.from(path.join(dir, name)), Buffer.from(bytes)])
}

function writeSkill(dir, name, description) {
  const skillDir = Buffer.concat([dir, Buffer.from(`/.agents/skills/${name}`)])
  fs.mkdirSync(skillDir, { recursive: true })
  fs.writeFileSync(Buffer.concat([skillDir, Buffer.from('/SKILL.md')]), skillMd(name, description))
}

const CHILD = `
const { Deck, runCli } = require(process.env.SKILLDECK_ROOT)
const out = {}
;(async () => {
  try {
    const deck = new Deck() // project ".", the process environment, HOME from it
    out.sync = deck.loadSync().skills.map((s) => s.id).sort()
    out.async = (await deck.load()).skills.map((s) => s.id).sort()
    out.location = deck.get('greet').location
    out.json = JSON.stringify(deck.loadSync()).length > 0
    out.activate = deck.activateSync('greet').text.includes('Use')
    out.cli = runCli(['list'])
  } catch (err) {
    out.error = String(err && err.code) + ': ' + String(err && err.message)
  }
  console.log('RESULT ' + JSON.stringify(out))
})()
`

test('a non-UTF-8 environment and working directory neither crash nor hide skills', { skip: process.platform === 'win32' }, () => {
  const tree = tempTree()
  const project = bytesPath(tree, 'project-', [0xff])
  const home = bytesPath(tree, 'home-', [0xfe])
  writeSkill(project, 'greet', 'Greet someone.')
  writeSkill(home, 'homey', 'From home.')
  const env = { ...process.env, SKILLDECK_ROOT: ROOT, TREE: tree, NODE: process.execPath, CHILD }
  for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_CONFIG_HOME', 'KODE_CONFIG_DIR']) delete env[name]
  const script = [
    'cd "$(printf "%s/project-\\377" "$TREE")" || exit 90',
    'export PWD="$(pwd)"',
    'export HOME="$(printf "%s/home-\\376" "$TREE")"',
    'exec env "SKILLDECK_ODD_$(printf "\\377")=$(printf "\\376")" "$NODE" -e "$CHILD"',
  ].join('\n')
  const child = spawnSync('/bin/sh', ['-c', script], { env, encoding: 'utf8', timeout: 120_000 })
  assert.equal(child.status, 0, `status ${child.status} (134 = aborted by a panic)\n${child.stdout}${child.stderr}`)
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '))
  assert.ok(line, child.stdout + child.stderr)
  const out = JSON.parse(line.slice('RESULT '.length))
  assert.equal(out.error, undefined, out.error)
  assert.deepEqual(out.sync, ['greet', 'homey'])
  assert.deepEqual(out.async, ['greet', 'homey'])
  // JS strings cannot hold the byte: U+FFFD stands in for it.
  assert.ok(out.location.includes('project-\ufffd'), out.location)
  assert.equal(out.json, true)
  assert.equal(out.activate, true)
  assert.equal(out.cli, 0)
})
