// The published layout: `npm pack` the checkout (with the addon the suite built), install the
// tarball into an empty project, and use it as a user would (require, import, the `skilldeck`
// bin, the types). Catches a `files`/`main`/`exports`/`bin` entry pointing where nothing is.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { tempTree, write } from './helpers.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' })
  assert.equal(result.status, 0, `${cmd} ${args.join(' ')}\n${result.stdout}${result.stderr}`)
  return result.stdout
}

describe('the packed package', () => {
  let project

  before(() => {
    project = tempTree('skilldeck-pack-')
    const packed = JSON.parse(run(NPM, ['pack', '--json', '--pack-destination', project], ROOT))
    const files = packed[0].files.map((f) => f.path).sort()
    for (const entry of ['main.cjs', 'index.js', 'index.mjs', 'index.d.ts', 'bin/skilldeck.js']) {
      assert.ok(files.includes(`bindings-node/${entry}`), `bindings-node/${entry} in ${files}`)
    }
    assert.ok(files.some((f) => /^bindings-node\/skilldeck\..+\.node$/.test(f)), `the addon in ${files}`)
    write(project, 'package.json', JSON.stringify({ name: 'consumer', private: true }))
    run(NPM, ['install', '--offline', '--no-audit', '--no-fund', '--no-save', path.join(project, packed[0].filename)], project)
  })

  after(() => fs.rmSync(project, { recursive: true, force: true }))

  test('require and import resolve to the same addon', () => {
    write(
      project,
      'check.mjs',
      `import { createRequire } from 'node:module'
import * as esm from 'skilldeck'
const cjs = createRequire(import.meta.url)('skilldeck')
if (typeof cjs.Deck !== 'function' || esm.Deck !== cjs.Deck || esm.default !== cjs) process.exit(1)
if (cjs.parse('---\\nname: a\\ndescription: b\\n---\\n').manifest.name !== 'a') process.exit(2)
console.log(cjs.version())
`,
    )
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version
    assert.equal(run(process.execPath, ['check.mjs'], project).trim(), version)
  })

  test('the skilldeck bin runs the command', () => {
    const bin = path.join(project, 'node_modules/.bin', process.platform === 'win32' ? 'skilldeck.cmd' : 'skilldeck')
    assert.match(run(bin, ['--version'], project), /skilldeck/)
  })

  test('the types resolve by package name', () => {
    write(project, 'consumer.mts', "import { Deck, type Skill } from 'skilldeck'\nexport const make = (): Deck => new Deck({})\nexport type S = Skill\n")
    write(
      project,
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] },
        files: ['consumer.mts'],
      }),
    )
    run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], project)
  })
})
