// Install operations: add (local directory, local git repository), installed, verify and
// tamper detection, remove, installFrozen, update, the user scope, progress, errors.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'

import {
  add,
  addSync,
  installFrozen,
  installFrozenSync,
  installed,
  installedSync,
  remove,
  removeSync,
  update,
  updateSync,
  verify,
  verifySync,
} from '../index.mjs'
import { tempTree, write } from './helpers.mjs'

const SHA256 = /^sha256:[0-9a-f]{64}$/

const HELLO = `---
name: hello
description: Say hello to someone.
---
# Hello

Greet the user by name.
`

/** `<root>/hello/` with SKILL.md and a helper file. */
function makeSource(root) {
  write(root, 'hello/SKILL.md', HELLO)
  write(root, 'hello/scripts/greet.sh', '#!/bin/sh\necho hello\n')
  return path.join(root, 'hello')
}

function git(cwd, ...args) {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim()
}

function dirs() {
  const root = tempTree()
  const project = path.join(root, 'project')
  const home = path.join(root, 'home')
  fs.mkdirSync(project)
  fs.mkdirSync(home)
  return { root, project, home, source: makeSource(path.join(root, 'src')) }
}

const ctx = (d) => ({ projectDir: d.project, homeDir: d.home })

/** An InstallError with `code`. */
const installError = (code) => (err) => {
  assert.equal(err.name, 'InstallError', err.message)
  assert.equal(err.code, code, err.message)
  assert.ok(err instanceof Error)
  return true
}

describe('install', () => {
  test('add from a local directory writes the skill and a lock with sha256 digests', async () => {
    const d = dirs()
    const phases = []
    const report = await add(d.source, { ...ctx(d), onProgress: (p) => phases.push(p.phase) })
    assert.deepEqual(report.installed.map((s) => s.name), ['hello'])
    const entry = report.installed[0].entry
    assert.equal(entry.sourceType, 'local')
    assert.equal(entry.path, '.agents/skills/hello')
    assert.match(entry.digest, SHA256)
    assert.deepEqual(Object.keys(entry.files).sort(), ['SKILL.md', 'scripts/greet.sh'])
    assert.ok(Object.values(entry.files).every((digest) => SHA256.test(digest)))
    const dir = path.join(d.project, '.agents/skills/hello')
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), HELLO)
    const lock = JSON.parse(fs.readFileSync(path.join(d.project, 'skills-lock.json'), 'utf8'))
    assert.equal(lock.skills.hello.digest, entry.digest)
    assert.deepEqual(lock.skills.hello.files, entry.files)
    // Every progress call was delivered before the Promise settled.
    assert.ok(phases.length > 0)
    assert.ok(phases.every((p) => ['fetch', 'stage', 'install', 'verify', 'lock'].includes(p)), phases.join())
    assert.ok(phases.includes('install') || phases.includes('stage'))
  })

  test('installed, verify, tamper detection and remove', async () => {
    const d = dirs()
    await add(d.source, ctx(d))
    const listed = await installed(ctx(d))
    assert.deepEqual(listed.map((s) => s.name), ['hello'])
    assert.match(listed[0].entry.digest, SHA256)

    const clean = await verify(ctx(d))
    assert.equal(clean.clean, true)
    assert.deepEqual(clean.skills[0].diff, { changed: [], added: [], missing: [] })

    const dir = path.join(d.project, '.agents/skills/hello')
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `${HELLO}tampered\n`)
    fs.writeFileSync(path.join(dir, 'extra.txt'), 'new')
    fs.rmSync(path.join(dir, 'scripts/greet.sh'))
    const report = await verify(ctx(d))
    assert.equal(report.clean, false)
    assert.deepEqual(report.skills[0].diff, { changed: ['SKILL.md'], added: ['extra.txt'], missing: ['scripts/greet.sh'] })

    assert.deepEqual(await remove(['hello'], ctx(d)), { removed: ['hello'] })
    assert.ok(!fs.existsSync(dir))
    assert.deepEqual(await installed(ctx(d)), [])
  })

  test('add from a local git repository records the commit; installFrozen restores it; update sees the next', async () => {
    const d = dirs()
    const repo = path.join(d.root, 'repo')
    fs.mkdirSync(repo)
    git(repo, 'init', '-q')
    makeSource(path.join(repo, 'skills'))
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'skills')
    const head = git(repo, 'rev-parse', 'HEAD')

    const report = await add(`file://${repo}`, ctx(d))
    assert.equal(report.installed[0].name, 'hello')
    const entry = report.installed[0].entry
    assert.equal(entry.sourceType, 'git')
    assert.equal(entry.commit, head)
    assert.equal(entry.subpath, 'skills/hello')

    // A later commit does not leak into a frozen install: it restores the locked commit.
    fs.writeFileSync(path.join(repo, 'skills/hello/SKILL.md'), `${HELLO}v2\n`)
    git(repo, 'commit', '-q', '-am', 'v2')
    const dir = path.join(d.project, '.agents/skills/hello')
    fs.rmSync(dir, { recursive: true })
    assert.deepEqual(await installFrozen(ctx(d)), { restored: ['hello'], unchanged: [] })
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), HELLO)
    assert.equal((await verify(ctx(d))).clean, true)
    assert.deepEqual(await installFrozen(ctx(d)), { restored: [], unchanged: ['hello'] })

    // update sees the new commit; dryRun applies nothing.
    const planned = await update({ dryRun: true, ...ctx(d) })
    assert.deepEqual(planned.changes.map((c) => c.name), ['hello'])
    const change = planned.changes[0]
    assert.equal(change.fromCommit, head)
    assert.notEqual(change.toCommit, head)
    assert.equal(change.applied, false)
    assert.deepEqual(change.files.changed, ['SKILL.md'])
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), HELLO)
    const applied = await update(['hello'], ctx(d))
    assert.equal(applied.changes[0].applied, true)
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), `${HELLO}v2\n`)
  })

  test('the user scope installs under the home directory with its own lock', async () => {
    const d = dirs()
    const userLock = path.join(d.root, 'config/skills-lock.json')
    await add(d.source, { scope: 'user', userLock, ...ctx(d) })
    assert.ok(fs.statSync(path.join(d.home, '.agents/skills/hello/SKILL.md')).isFile())
    assert.ok(fs.existsSync(userLock))
    assert.ok(!fs.existsSync(path.join(d.project, 'skills-lock.json')))
    const names = (await installed({ scope: 'user', userLock, ...ctx(d) })).map((s) => s.name)
    assert.deepEqual(names, ['hello'])
    assert.deepEqual(await installed(ctx(d)), [])
  })

  test('errors are InstallErrors with the engine code', async () => {
    const d = dirs()
    await assert.rejects(add(path.join(d.root, 'missing'), ctx(d)), installError('BAD_SOURCE'))
    assert.ok(!fs.existsSync(path.join(d.project, 'skills-lock.json')))
    await assert.rejects(remove(['nope'], ctx(d)), (err) => installError('NOT_FOUND')(err) && /nope/.test(err.message))
    await assert.rejects(installFrozen(ctx(d)), installError('NOT_FOUND'))
    await assert.rejects(add(d.source, { skills: ['other'], ...ctx(d) }), installError('NOT_FOUND'))

    // A modified installed copy is not replaced without force.
    await add(d.source, ctx(d))
    const skillMd = path.join(d.project, '.agents/skills/hello/SKILL.md')
    fs.writeFileSync(skillMd, 'mine')
    await assert.rejects(add(d.source, ctx(d)), (err) => installError('MODIFIED')(err) && err.path !== null)
    await add(d.source, { force: true, ...ctx(d) })
    assert.equal(fs.readFileSync(skillMd, 'utf8'), HELLO)
  })

  test('a corrupt lock is an InstallError naming the file', async () => {
    const d = dirs()
    const lock = path.join(d.project, 'skills-lock.json')
    fs.writeFileSync(lock, '{not json')
    await assert.rejects(installed(ctx(d)), (err) => installError('PARSE_ERROR')(err) && err.path === lock)
  })

  test('bad options reject with INVALID_OPTIONS', async () => {
    const d = dirs()
    const invalid = (pattern) => (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS', err.message)
      if (pattern) assert.match(err.message, pattern)
      return true
    }
    await assert.rejects(installed({ scope: 'global', ...ctx(d) }), invalid(/project.*user/))
    await assert.rejects(add(d.source, { limits: { maxFile: 3 }, ...ctx(d) }), invalid(/maxFiles/))
    await assert.rejects(add(d.source, { onProgress: 42, ...ctx(d) }), invalid(/onProgress/))
    await assert.rejects(add(d.source, { bogus: true, ...ctx(d) }), invalid(/unknown key `bogus`/))
    await assert.rejects(add(d.source, { projectdir: d.project }), invalid(/did you mean `projectDir`/))
    await assert.rejects(remove('hello', ctx(d)), invalid(/array/))
    await assert.rejects(add(d.source, 'project'), invalid(/options object/))
    await assert.rejects(add(42, ctx(d)), invalid())
    assert.ok(!fs.existsSync(path.join(d.project, 'skills-lock.json')))
  })

  test('limits apply', async () => {
    const d = dirs()
    await assert.rejects(add(d.source, { limits: { maxFiles: 1 }, ...ctx(d) }), installError('TOO_LARGE'))
    const report = await add(d.source, { limits: { maxFiles: 2 }, ...ctx(d) })
    assert.equal(report.installed[0].name, 'hello')
  })

  test('a failing progress callback is reported as a warning, not raised', async () => {
    const d = dirs()
    const warnings = []
    const listener = (warning) => warnings.push(warning)
    process.on('warning', listener)
    try {
      const report = await add(d.source, {
        ...ctx(d),
        onProgress: () => {
          throw new RangeError('progress display failed')
        },
      })
      assert.equal(report.installed[0].name, 'hello')
      // `warning` is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', listener)
    }
    assert.ok(warnings.length > 0)
    assert.ok(warnings.every((w) => w instanceof RangeError && w.message === 'progress display failed'))
  })

  test('the Sync twins block and return the same reports; they refuse onProgress', () => {
    const d = dirs()
    const report = addSync(d.source, ctx(d))
    assert.deepEqual(report.installed.map((s) => s.name), ['hello'])
    assert.deepEqual(installedSync(ctx(d)), report.installed)
    assert.equal(verifySync(ctx(d)).clean, true)
    assert.deepEqual(updateSync(null, { dryRun: true, ...ctx(d) }).changes, [])
    fs.rmSync(path.join(d.project, '.agents/skills/hello'), { recursive: true })
    assert.deepEqual(installFrozenSync(ctx(d)), { restored: ['hello'], unchanged: [] })
    assert.deepEqual(removeSync(['hello'], ctx(d)), { removed: ['hello'] })
    assert.throws(() => removeSync(['hello'], ctx(d)), installError('NOT_FOUND'))
    assert.throws(
      () => addSync(d.source, { ...ctx(d), onProgress: () => {} }),
      (err) => err.code === 'INVALID_OPTIONS' && /onProgress/.test(err.message),
    )
    assert.throws(() => installedSync({ scope: 'global', ...ctx(d) }), (err) => err.code === 'INVALID_OPTIONS')
    assert.deepEqual(installedSync(ctx(d)), [])
  })

  test('operations that report no progress refuse onProgress instead of ignoring it', async () => {
    const d = dirs()
    const withProgress = { ...ctx(d), onProgress: () => {} }
    const refused = (err) => err.code === 'INVALID_OPTIONS' && /onProgress/.test(err.message)
    await assert.rejects(installed(withProgress), refused)
    await assert.rejects(verify(withProgress), refused)
    await assert.rejects(remove(['hello'], withProgress), refused)
    assert.deepEqual(await installed(ctx(d)), [])
  })
})
