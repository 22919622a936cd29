// The example agent loop (examples/agent-loop/agent.mjs) runs to its answer on its project.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const EXAMPLE = path.join(ROOT, 'examples/agent-loop')

test('the example agent loop reaches the answer, calling every tool on the way', () => {
  const run = spawnSync(process.execPath, [path.join(EXAMPLE, 'agent.mjs'), path.join(EXAMPLE, 'project')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  assert.equal(run.status, 0, run.stderr)
  const lines = run.stdout.trimEnd().split('\n')
  assert.equal(lines.at(-1), 'The tool says: {"words": 9, "lines": 2, "chars": 43}')
  assert.ok(lines.some((l) => l.startsWith('tool search_skills -> ')), run.stdout)
  assert.ok(lines.some((l) => l.startsWith('tool skill -> # Word count')), run.stdout)
  assert.ok(lines.some((l) => l.startsWith('tool word-count -> {"words": 9')), run.stdout)
})
