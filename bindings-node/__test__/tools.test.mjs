// Tool definitions for a model in every format, agentTools, the single tools and
// toolResult; format names are the engine's (an unknown one is INVALID_OPTIONS). Also the
// deck's doctor() and compareProfiles() reports.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'

import {
  Deck,
  TOOL_FORMATS,
  agentTools,
  runSkillScriptTool,
  searchSkillsTool,
  searchToolDefinition,
  skillTool,
  toolDefinitions,
  toolResult,
} from '../index.mjs'
import { tempTree, write } from './helpers.mjs'

const COMMAND = `---
name: word-count
description: Count the words of a text.
command: count.sh
parameters:
  - name: text
    type: string
    required: true
    description: The text to count.
---
`

const PLAIN = `---
name: notes
description: How to write notes.
---
# Notes
`

function catalog() {
  const tree = tempTree()
  const project = path.join(tree, 'project')
  write(project, '.agents/skills/word-count/SKILL.md', COMMAND)
  write(project, '.agents/skills/word-count/count.sh', '#!/bin/sh\nwc -w\n')
  write(project, '.agents/skills/notes/SKILL.md', PLAIN)
  write(project, '.agents/skills/notes/scripts/tidy.sh', '#!/bin/sh\n')
  return new Deck({ projectDir: project, homeDir: tree, readHostSettings: false }).loadSync()
}

const SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to count.' } },
  required: ['text'],
  additionalProperties: false,
}

function isInvalidOptions(err) {
  assert.equal(err.code, 'INVALID_OPTIONS')
  assert.match(err.message, /openai, anthropic, vercel/)
  return true
}

describe('tools', () => {
  test('TOOL_FORMATS are the engine formats', () => {
    assert.deepEqual([...TOOL_FORMATS], ['openai', 'anthropic', 'vercel'])
    assert.ok(Object.isFrozen(TOOL_FORMATS))
  })

  test('the ToolFormat union of index.d.ts lists TOOL_FORMATS', () => {
    const dts = fs.readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')
    const line = dts.split('\n').find((l) => l.startsWith('export type ToolFormat ='))
    assert.deepEqual([...line.matchAll(/'([^']+)'/g)].map((m) => m[1]), [...TOOL_FORMATS])
  })

  test('toolDefinitions in every format', () => {
    const cat = catalog()
    const openai = toolDefinitions(cat)
    assert.deepEqual(openai, toolDefinitions(cat, 'openai'))
    assert.deepEqual(
      openai.map((t) => t.function.name),
      ['run_skill_script', 'word-count'],
    )
    assert.deepEqual(openai[1], {
      type: 'function',
      function: { name: 'word-count', description: 'Count the words of a text.', parameters: SCHEMA },
    })
    assert.deepEqual(toolDefinitions(cat, 'anthropic')[1], {
      name: 'word-count',
      description: 'Count the words of a text.',
      input_schema: SCHEMA,
    })
    const vercel = toolDefinitions(cat, 'vercel')
    assert.deepEqual(vercel[1], { name: 'word-count', description: 'Count the words of a text.', inputSchema: SCHEMA })
    assert.deepEqual(vercel[0].inputSchema.required, ['skill_name', 'script_name'])
  })

  test('agentTools and the single tools', () => {
    const tools = agentTools(catalog(), 'anthropic')
    assert.deepEqual(
      tools.map((t) => t.name),
      ['skill', 'search_skills', 'run_skill_script', 'word-count'],
    )
    assert.deepEqual(tools[0], skillTool('anthropic'))
    assert.deepEqual(tools[1], searchSkillsTool('anthropic'))
    assert.deepEqual(tools[2], runSkillScriptTool('anthropic'))
    assert.deepEqual(skillTool().function.parameters.required, ['name'])
    assert.equal(searchSkillsTool('vercel').name, 'search_skills')
    assert.deepEqual(searchSkillsTool('openai').function.parameters, searchToolDefinition().parameters)
  })

  test('toolResult in every format', () => {
    assert.deepEqual(toolResult('openai', 'call_1', 'word-count', '3'), {
      role: 'tool',
      tool_call_id: 'call_1',
      content: '3',
    })
    assert.deepEqual(toolResult('anthropic', 'toolu_1', 'word-count', 'boom', true), {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'boom',
      is_error: true,
    })
    assert.deepEqual(toolResult('vercel', 'c1', 'word-count', '3', false), {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'word-count',
      output: { type: 'text', value: '3' },
    })
    assert.deepEqual(toolResult('vercel', 'c1', 'word-count', 'no', true).output, { type: 'error-text', value: 'no' })
  })

  test('an unknown format is INVALID_OPTIONS', () => {
    const cat = catalog()
    assert.throws(() => toolDefinitions(cat, 'gemini'), isInvalidOptions)
    assert.throws(() => agentTools(cat, 'gemini'), isInvalidOptions)
    assert.throws(() => skillTool('OpenAI'), isInvalidOptions)
    assert.throws(() => toolResult('gemini', 'c', 't', 'x'), isInvalidOptions)
  })
})

describe('doctor', () => {
  test('doctor() explains a skill skipped for its depth, and finds it by name', async () => {
    const tree = tempTree()
    const skill = write(tree, '.agents/skills/group/deep/SKILL.md', '---\nname: deep\ndescription: too deep for qwen\n---\nBody.\n')
    const home = path.join(tree, 'h')
    const deck = new Deck({ projectDir: tree, profile: 'qwen-code', homeDir: home })
    const report = await deck.doctor(skill)
    assert.equal(report.profile, 'qwen-code')
    assert.equal(report.skills, 0)
    assert.equal(report.target.found, false)
    const codes = report.target.files[0].findings.map((f) => f.code)
    assert.ok(codes.includes('too-deep'), JSON.stringify(codes))
    assert.deepEqual(deck.doctorSync(skill), report)
    const found = await new Deck({ projectDir: tree, homeDir: home }).doctor('deep')
    assert.equal(found.target.found, true)
    assert.equal(found.target.files[0].found.name, 'deep')
    // Without a target: the roots searched, no target section.
    const plain = await deck.doctor()
    assert.ok(!('target' in plain))
    assert.ok(plain.roots.some((r) => r.path === path.join(tree, '.agents/skills')), JSON.stringify(plain.roots))
  })

  test('compareProfiles() has one cell per profile; an unknown profile is INVALID_OPTIONS', async () => {
    const tree = tempTree()
    write(tree, '.claude/skills/only-claude/SKILL.md', '---\nname: only-claude\ndescription: d\n---\nBody.\n')
    const deck = new Deck({ projectDir: tree, homeDir: path.join(tree, 'h') })
    const table = await deck.compareProfiles(['claude-code', 'codex'])
    assert.deepEqual(table.profiles, ['claude-code', 'codex'])
    assert.equal(table.rows.length, 1)
    const cells = Object.fromEntries(table.rows[0].cells.map((c) => [c.profile, c.ok]))
    assert.deepEqual(cells, { 'claude-code': true, codex: false })
    assert.deepEqual(deck.compareProfilesSync(['claude-code', 'codex']), table)
    // Every built-in profile by default.
    assert.ok((await deck.compareProfiles()).profiles.includes('cline'))
    await assert.rejects(deck.compareProfiles(['no-such-profile']), (err) => err.code === 'INVALID_OPTIONS')
    assert.ok(fs.existsSync(tree))
  })
})
