// Running skills: command skills with JSON input, scripts with artifacts, invalid input,
// timeout, cancellation (AbortSignal, CancelToken), streamed events, permission rules,
// callTool, option checks and the sandbox.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { before, describe, test } from 'node:test'

import { CancelToken, Deck, callTool, runCommand, runScript, toolDefinitions } from '../index.mjs'
import { tempTree, write } from './helpers.mjs'

const ECHO = `---
name: echo
description: Echo the input object back, with a greeting.
command: run.sh
parameters:
  - name: text
    type: string
    required: true
    description: What to echo.
  - name: times
    type: integer
    default: 1
    description: How often.
---
# Echo
`

const ECHO_SH = `#!/bin/sh
input=$(cat)
echo "starting" >&2
printf '{"got": %s}\\n' "$input"
`

const FAIL = `---
name: fail
description: Always fails with exit code 3.
command: run.sh
---
`

const FAIL_SH = `#!/bin/sh
echo "failing" >&2
exit 3
`

const SLOW = `---
name: slow
description: Print its process id, then sleep for a long time.
command: run.sh
---
`

const SLOW_SH = `#!/bin/sh
echo "$$"
exec sleep 30
`

const MAKER = `---
name: maker
description: Write report files from its arguments and standard input.
---
# Maker
`

const MAKE_SH = `#!/bin/sh
mkdir -p reports
printf '%s|' "$@" > reports/args.txt
cat > reports/stdin.txt
echo "made"
`

const ESCAPE_SH = `#!/bin/sh
echo escaped > "$1/escaped.txt" && echo wrote || echo refused
`

function script(root, rel, text) {
  const file = write(root, rel, text)
  fs.chmodSync(file, 0o755)
}

function makeProject() {
  const root = path.join(tempTree(), 'project')
  fs.mkdirSync(path.join(root, '.git'), { recursive: true })
  const skills = '.agents/skills'
  write(root, `${skills}/echo/SKILL.md`, ECHO)
  script(root, `${skills}/echo/run.sh`, ECHO_SH)
  write(root, `${skills}/fail/SKILL.md`, FAIL)
  script(root, `${skills}/fail/run.sh`, FAIL_SH)
  write(root, `${skills}/slow/SKILL.md`, SLOW)
  script(root, `${skills}/slow/run.sh`, SLOW_SH)
  write(root, `${skills}/maker/SKILL.md`, MAKER)
  script(root, `${skills}/maker/scripts/make.sh`, MAKE_SH)
  script(root, `${skills}/maker/scripts/escape.sh`, ESCAPE_SH)
  return root
}

function makeDeck(project, extra = {}) {
  const deck = new Deck({ projectDir: project, homeDir: path.dirname(project), readHostSettings: false, ...extra })
  deck.loadSync()
  return deck
}

/** Whether the process with `pid` is gone. */
function gone(pid) {
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    return err.code === 'ESRCH'
  }
}

const runError = (code) => (err) => {
  assert.equal(err.code, code, err.message)
  assert.ok(err.name === 'RunError' || err.name === 'InvalidInputError', err.name)
  return true
}

let sandboxAvailable = true
/** Run options for tests that are not about the sandbox: the default (enforce) where the
 * sandbox works, else no sandbox, so the rest of the behaviour is still checked. */
let mode = {}

before(async () => {
  const deck = makeDeck(makeProject())
  try {
    await runCommand(deck, 'fail')
  } catch (err) {
    if (err.code !== 'SANDBOX_UNAVAILABLE') throw err
    sandboxAvailable = false
    mode = { sandbox: 'none' }
  }
})

describe('run', () => {
  test('runCommand passes the input as JSON and streams events, all before the await returns', async () => {
    const deck = makeDeck(makeProject())
    const events = []
    const outcome = await runCommand(deck, 'echo', { text: 'hi' }, { ...mode, onEvent: (e) => events.push(e) })
    assert.equal(outcome.exit_code, 0, outcome.stderr)
    assert.equal(outcome.skill, 'echo')
    // The default for `times` is filled in before the skill sees its input.
    assert.deepEqual(outcome.json, { got: { text: 'hi', times: 1 } })
    assert.equal(outcome.stdout.trim(), '{"got": {"text":"hi","times":1}}')
    assert.equal(outcome.stderr, 'starting\n')
    assert.equal(outcome.timed_out, false)
    assert.equal(outcome.cancelled, false)
    assert.equal(outcome.truncated, false)
    assert.equal(typeof outcome.duration_ms, 'number')
    const kinds = events.map((e) => e.type)
    assert.equal(kinds[0], 'started')
    assert.equal(kinds.at(-1), 'finished')
    assert.ok(kinds.slice(1, -1).every((k) => k === 'stdout' || k === 'stderr'), kinds.join())
    assert.deepEqual(events[0], { type: 'started', skill: 'echo', target: 'run.sh' })
    assert.equal(
      events
        .filter((e) => e.type === 'stdout')
        .map((e) => e.text)
        .join(''),
      outcome.stdout,
    )
    assert.equal(events.at(-1).exit_code, 0)
  })

  test('many output events all arrive, in order, before the await returns', async () => {
    const project = makeProject()
    script(project, '.agents/skills/maker/scripts/lines.sh', '#!/bin/sh\ni=0\nwhile [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done\n')
    const events = []
    const outcome = await runScript(makeDeck(project), 'maker', 'lines.sh', [], { ...mode, onEvent: (e) => events.push(e) })
    assert.equal(outcome.exit_code, 0, outcome.stderr)
    assert.equal(outcome.stdout.split('\n').length, 2001)
    assert.equal(events.at(-1).type, 'finished')
    const streamed = events
      .filter((e) => e.type === 'stdout')
      .map((e) => e.text)
      .join('')
    assert.equal(streamed, outcome.stdout)
  })

  test('a failing command is an outcome, not an error', async () => {
    const outcome = await runCommand(makeDeck(makeProject()), 'fail', undefined, mode)
    assert.equal(outcome.exit_code, 3)
    assert.equal(outcome.stderr, 'failing\n')
    assert.ok(!('json' in outcome))
  })

  test('invalid input rejects with InvalidInputError and runs nothing', async () => {
    const deck = makeDeck(makeProject())
    const events = []
    const deckEvents = []
    deck.subscribe((e) => deckEvents.push(e))
    await assert.rejects(runCommand(deck, 'echo', { text: 5 }, { ...mode, onEvent: (e) => events.push(e) }), (err) => {
      assert.equal(err.name, 'InvalidInputError')
      assert.equal(err.code, 'INVALID_INPUT')
      assert.deepEqual(err.problems, ['`text`: 5 is not of type "string"'])
      return true
    })
    assert.deepEqual(events, [])
    assert.ok(!deckEvents.some((e) => e.type === 'exec_started'))
    await assert.rejects(runCommand(deck, 'echo', {}, mode), (err) => err.code === 'INVALID_INPUT' && /text/.test(err.problems[0]))
  })

  test('runScript delivers artifacts to the destination', async () => {
    const project = makeProject()
    const deck = makeDeck(project)
    const outcome = await runScript(deck, 'maker', 'make.sh', ['a b', 'c'], { ...mode, stdin: 'from stdin', destination: 'out' })
    assert.equal(outcome.exit_code, 0, outcome.stderr)
    assert.equal(outcome.stdout, 'made\n')
    const out = path.join(project, 'out')
    assert.equal(fs.readFileSync(path.join(out, 'reports/args.txt'), 'utf8'), 'a b|c|')
    assert.equal(fs.readFileSync(path.join(out, 'reports/stdin.txt'), 'utf8'), 'from stdin')
    assert.deepEqual(
      [...outcome.artifacts].sort(),
      ['args.txt', 'stdin.txt'].map((n) => path.join(out, 'reports', n)),
    )
  })

  test('refusals are RunErrors with the engine code', async () => {
    const deck = makeDeck(makeProject())
    await assert.rejects(runScript(deck, 'maker', 'make.sh', [], { ...mode, destination: '/tmp/elsewhere' }), runError('DESTINATION_REFUSED'))
    await assert.rejects(runScript(deck, 'maker', '../SKILL.md', null, mode), runError('SCRIPT_REFUSED'))
    await assert.rejects(runCommand(deck, 'nope', null, mode), runError('NOT_FOUND'))
    await assert.rejects(runCommand(deck, 'maker', null, mode), runError('NOT_RUNNABLE'))
  })

  test('a timeout kills the process group', async () => {
    const outcome = await runCommand(makeDeck(makeProject()), 'slow', null, { ...mode, timeout: 0.5 })
    assert.equal(outcome.timed_out, true)
    assert.equal(outcome.exit_code, null)
    assert.ok(gone(Number(outcome.stdout.split(/\s+/)[0])))
  })

  test('aborting the signal kills the process group, then rejects with the reason', async () => {
    const deck = makeDeck(makeProject())
    const controller = new AbortController()
    const pids = []
    const run = runCommand(deck, 'slow', null, {
      ...mode,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'stdout' && pids.length === 0) {
          pids.push(Number(e.text.split(/\s+/)[0]))
          controller.abort()
        }
      },
    })
    await assert.rejects(run, (err) => err.name === 'AbortError')
    assert.equal(pids.length, 1)
    assert.ok(gone(pids[0]), 'the process group was killed before the rejection')
  })

  test('an already aborted signal runs nothing', async () => {
    const deck = makeDeck(makeProject())
    const events = []
    const reason = new Error('stop')
    await assert.rejects(
      runCommand(deck, 'echo', { text: 'x' }, { ...mode, signal: AbortSignal.abort(reason), onEvent: (e) => events.push(e) }),
      (err) => err === reason,
    )
    assert.deepEqual(events, [])
  })

  test('a CancelToken gives a cancelled outcome', async () => {
    const deck = makeDeck(makeProject())
    const token = new CancelToken()
    assert.equal(token.cancelled, false)
    const outcome = await runCommand(deck, 'slow', null, {
      ...mode,
      cancel: token,
      onEvent: (e) => {
        if (e.type === 'stdout') token.cancel()
      },
    })
    assert.equal(token.cancelled, true)
    assert.equal(outcome.cancelled, true)
    assert.equal(outcome.timed_out, false)
    assert.ok(gone(Number(outcome.stdout.split(/\s+/)[0])))
  })

  test('concurrent runs', async () => {
    const deck = makeDeck(makeProject())
    const outcomes = await Promise.all([0, 1, 2, 3].map((i) => runCommand(deck, 'echo', { text: `t${i}` }, mode)))
    assert.deepEqual(
      outcomes.map((o) => o.json.got.text),
      ['t0', 't1', 't2', 't3'],
    )
  })

  test('callTool runs a model tool call', async () => {
    const project = makeProject()
    const deck = makeDeck(project)
    const names = toolDefinitions(deck.loadSync()).map((t) => t.function.name)
    assert.ok(names.includes('echo') && names.includes('run_skill_script'))
    const outcome = await callTool(deck, 'echo', { text: 'model' }, mode)
    assert.deepEqual(outcome.json, { got: { text: 'model', times: 1 } })
    const made = await callTool(
      deck,
      'run_skill_script',
      { skill_name: 'maker', script_name: 'make.sh', args: ['t'], destination_path: 't' },
      mode,
    )
    assert.equal(made.exit_code, 0, made.stderr)
    assert.equal(fs.readFileSync(path.join(project, 't/reports/args.txt'), 'utf8'), 't|')
    await assert.rejects(callTool(deck, 'no_such_tool', {}, mode), runError('NOT_FOUND'))
    await assert.rejects(callTool(deck, 'run_skill_script', { skill_name: 'maker' }, mode), runError('INVALID_INPUT'))
    await assert.rejects(callTool(deck, 'echo', ['not', 'an', 'object'], mode), runError('INVALID_INPUT'))
  })

  test('permission rules apply; approved runs an ask skill; a denied skill is refused', async () => {
    const project = makeProject()
    const deckWith = (decision) =>
      makeDeck(project, { rules: { semantics: 'last-match', rules: [{ pattern: 'echo', decision }] } })
    const asked = deckWith('ask')
    await assert.rejects(runCommand(asked, 'echo', { text: 'a' }, mode), runError('APPROVAL_REQUIRED'))
    const outcome = await runCommand(asked, 'echo', { text: 'a' }, { ...mode, approved: true })
    assert.equal(outcome.exit_code, 0)
    await assert.rejects(
      runCommand(deckWith('deny'), 'echo', { text: 'a' }, { ...mode, approved: true }),
      runError('PERMISSION_DENIED'),
    )
  })

  test('options are checked before anything runs', async () => {
    const deck = makeDeck(makeProject())
    const invalid = (pattern) => (err) => {
      assert.equal(err.code, 'INVALID_OPTIONS', err.message)
      if (pattern) assert.match(err.message, pattern)
      return true
    }
    await assert.rejects(runCommand(deck, 'fail', null, { sandbox: 'off' }), invalid(/enforce.*none|none.*enforce/))
    await assert.rejects(runCommand(deck, 'fail', null, { timeOut: 3 }), invalid(/did you mean `timeout`/))
    await assert.rejects(runCommand(deck, 'fail', null, { timeout: -1 }), invalid(/timeout/))
    await assert.rejects(runCommand(deck, 'fail', null, { limits: { memory: 1 } }), invalid(/memoryBytes/))
    await assert.rejects(runCommand(deck, 'fail', null, { onEvent: 'print' }), invalid(/onEvent/))
    await assert.rejects(runCommand(deck, 'fail', null, { signal: 'stop' }), invalid(/AbortSignal/))
    await assert.rejects(runCommand(deck, 'fail', null, { cancel: {} }), invalid(/CancelToken/))
    await assert.rejects(runCommand(deck, 'fail', null, 'fast'), invalid(/options object/))
    await assert.rejects(runCommand({}, 'fail'), invalid())
  })

  test('options reach the runner', async () => {
    const deck = makeDeck(makeProject())
    const workRoot = path.join(tempTree(), 'work')
    fs.mkdirSync(workRoot)
    const outcome = await runCommand(deck, 'echo', { text: 'x'.repeat(100) }, {
      ...mode,
      outputLimit: 10,
      workRoot,
      keepWorkDir: true,
    })
    assert.equal(outcome.truncated, true)
    assert.ok(outcome.stdout.length <= 10)
    assert.equal(path.dirname(outcome.work_dir), workRoot)
  })

  test('a failing event callback is reported as a warning and the run completes', async () => {
    const deck = makeDeck(makeProject())
    const warnings = []
    const listener = (warning) => warnings.push(warning)
    process.on('warning', listener)
    try {
      const outcome = await runCommand(deck, 'echo', { text: 'y' }, {
        ...mode,
        onEvent: () => {
          throw new TypeError('event log failed')
        },
      })
      assert.equal(outcome.exit_code, 0)
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', listener)
    }
    assert.ok(warnings.length > 0)
    assert.ok(warnings.every((w) => w instanceof TypeError))
  })

  test('the sandbox is on by default', async (t) => {
    if (!sandboxAvailable) {
      t.skip('the engine reports the sandbox as unavailable here')
      return
    }
    const project = makeProject()
    const deck = makeDeck(project)
    const outcome = await runCommand(deck, 'fail')
    assert.equal(outcome.sandboxed, true)
    assert.equal(outcome.sandbox.filesystem, true)
    assert.equal(outcome.sandbox.network_denied, true)
    assert.ok(outcome.sandbox.landlock_abi >= 1)
    const confined = await runScript(deck, 'maker', 'escape.sh', [project])
    assert.equal(confined.stdout, 'refused\n')
    assert.ok(!fs.existsSync(path.join(project, 'escaped.txt')))
    const free = await runScript(deck, 'maker', 'escape.sh', [project], { sandbox: 'none' })
    assert.equal(free.stdout, 'wrote\n')
    assert.equal(free.sandboxed, false)
    assert.ok(!('sandbox' in free))
    assert.ok(fs.existsSync(path.join(project, 'escaped.txt')))
  })

  test('the embedded CLI runs skills and installs (the run and install features)', () => {
    const project = makeProject()
    const bin = fileURLToPath(new URL('../bin/skilldeck.js', import.meta.url))
    const args = ['run', 'echo', '--project', project, '--home', path.dirname(project), '--no-host-settings']
    args.push('--input', '{"text": "cli"}', '--json', ...(sandboxAvailable ? [] : ['--sandbox', 'none']))
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' })
    assert.equal(run.status, 0, run.stderr)
    assert.equal(JSON.parse(run.stdout).json.got.text, 'cli')
    const listed = spawnSync(process.execPath, [bin, 'installed', '--project', project, '--json'], { encoding: 'utf8' })
    assert.equal(listed.status, 0, listed.stderr)
    assert.deepEqual(JSON.parse(listed.stdout), [])
  })
})
