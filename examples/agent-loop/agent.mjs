// An agent loop on skilldeck's tools with a scripted model (see README.md here).
//
//     node examples/agent-loop/agent.mjs examples/agent-loop/project
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { Deck, agentTools, callTool, toolResult } from 'skilldeck'

const FORMAT = 'openai'

/** Stands in for a model: the reply to the conversation so far, in OpenAI's message shape.
 * It searches, loads the skill, calls its tool, then answers with what the tool returned. */
export function scriptedModel(messages, tools) {
  const offered = new Set(tools.map((t) => t.function.name))
  const calls = messages.filter((m) => m.role === 'tool').length
  const call = (id, name, args) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  })
  if (calls === 0 && offered.has('search_skills')) {
    return call('call-0', 'search_skills', { query: 'count words in a text' })
  }
  if (calls === 1 && offered.has('skill')) return call('call-1', 'skill', { name: 'word-count' })
  if (calls === 2 && offered.has('word-count')) {
    return call('call-2', 'word-count', { text: 'the quick brown fox\njumps over the lazy dog' })
  }
  return { role: 'assistant', content: `The tool says: ${messages.at(-1).content}` }
}

/** Run one tool call: the text for the model and whether it is an error. */
async function answer(deck, name, args) {
  try {
    if (name === 'skill') return [(await deck.activate(args.name)).text, false]
    if (name === 'search_skills') {
      const hits = await deck.search({ query: args.query, limit: args.limit ?? 10 })
      return [JSON.stringify(hits), false]
    }
    // `run_skill_script` and every command skill's tool: sandboxed, arguments checked
    // against the skill's parameters before anything runs.
    const outcome = await callTool(deck, name, args)
    return [outcome.stdout, outcome.exit_code !== 0]
  } catch (err) {
    if (typeof err?.code === 'string') return [err.message, true]
    throw err
  }
}

/** Run the loop on `project`'s skills; the model's final answer. */
export async function agentLoop(project) {
  const deck = new Deck({ projectDir: project })
  const tools = agentTools(await deck.load(), FORMAT)
  const messages = [{ role: 'user', content: 'How many words are in my text?' }]
  for (let turn = 0; turn < 8; turn++) {
    const reply = scriptedModel(messages, tools)
    messages.push(reply)
    if (!reply.tool_calls) return String(reply.content)
    for (const c of reply.tool_calls) {
      const name = c.function.name
      const [content, isError] = await answer(deck, name, JSON.parse(c.function.arguments))
      console.log(`tool ${name} -> ${content ? content.split('\n')[0] : ''}`)
      messages.push(toolResult(FORMAT, c.id, name, content, isError))
    }
  }
  throw new Error('the model did not finish within 8 turns')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await agentLoop(process.argv[2] ?? 'examples/agent-loop/project'))
}
