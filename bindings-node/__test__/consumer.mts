// A small consumer of the published types, compiled with `tsc --noEmit` (never run): it
// breaks when index.d.ts drifts from what an agent host writes against it.
import {
  CancelToken,
  Deck,
  PermissionRules,
  TOOL_FORMATS,
  add,
  addSync,
  audit,
  auditSync,
  verifySync,
  agentTools,
  callTool,
  installFrozen,
  marketplaceAdd,
  marketplaceList,
  marketplaceRemove,
  marketplaceUpdate,
  marketplaceUpdateSync,
  pluginDisable,
  pluginEnable,
  pluginInstall,
  pluginInstallSync,
  pluginList,
  pluginListSync,
  pluginUninstall,
  pluginUpdate,
  installed,
  remove,
  runCommand,
  runScript,
  toolDefinitions,
  toolResult,
  update,
  verify,
  parse,
  searchToolDefinition,
  validate,
  VERSION,
  type AbortSignalLike,
  type Activation,
  type AddReport,
  type AuditFinding,
  type AuditOptions,
  type AuditReport,
  type AuditSeverity,
  type SkillAudit,
  type MarketplaceInfo,
  type MarketplaceRemoveReport,
  type MarketplaceUpdate,
  type PluginContextOptions,
  type PluginInfo,
  type PluginInstallReport,
  type PluginScope,
  type PluginSkill,
  type PluginUninstallReport,
  type PluginUpdateChange,
  type PluginUpdateReport,
  type ExecEvent,
  type InstallError,
  type InvalidInputError,
  type RunOutcome,
  type ToolFormat,
  type VerifyReport,
  type Catalog,
  type Decision,
  type ErrorCode,
  type SearchHit,
  type SearchOptions,
  type SearchResults,
  type SearchToolDefinition,
  type SkillError,
  type SkillEvent,
} from 'skilldeck'

export interface SkillTool {
  name: 'skill'
  description: string
  parameters: { type: 'object'; properties: Record<string, { type: 'string'; description: string }>; required: string[] }
}

export async function systemPrompt(projectDir: string): Promise<{ prompt: string; tool: SkillTool }> {
  const deck = new Deck({
    profile: 'claude-code',
    projectDir,
    roots: ['extra-skills', { path: 'vendor', scope: 'extra', pattern: '**/SKILL.md' }],
    rules: { semantics: 'deny-first', rules: [{ pattern: 'internal-*', decision: 'deny' }] },
    hideUnavailable: true,
  })
  const catalog: Catalog = await deck.load()
  const names: string[] = catalog.modelVisible().map((s) => s.name)
  for (const skill of catalog) names.push(skill.id)
  const rendered = await deck.render({ format: 'xml', budgetChars: 8000 })
  const cut: number = rendered.report.truncated.reduce((n, t) => n + t.charsRemoved, 0)
  const tool: SkillTool = {
    name: 'skill',
    description: `Load a skill's instructions. Available: ${names.join(', ')} (${cut} chars trimmed)`,
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'skill name' }, args: { type: 'string', description: 'arguments' } },
      required: ['name'],
    },
  }
  return { prompt: `You are helpful.\n\n${rendered.text}`, tool }
}

export async function onToolCall(deck: Deck, name: string, args: string): Promise<string> {
  try {
    const activation: Activation = await deck.activate(name, { args, format: 'opencode', vars: { USER: 'me' } })
    return activation.text
  } catch (e) {
    const err = e as SkillError
    const code: ErrorCode = err.code
    const where: string | null = err.path
    return `skill failed: ${code}${where ? ` (${where})` : ''}`
  }
}

export function inspect(deck: Deck): number {
  const id: number = deck.subscribe((event: SkillEvent) => {
    if (event.type === 'changed') {
      const added: string[] = event.diff.added
      void added
    }
  })
  const skill = deck.get('pdf')
  const tools: string[] = skill.allowedTools
  const permission: Decision = skill.status.permission
  const extra: Record<string, unknown> = skill.extra
  const timeout: number | null = skill.timeout
  const json = skill.toJSON()
  void [tools, permission, extra, timeout, json, VERSION]
  deck.unsubscribe(id)
  const decision: Decision = new PermissionRules({ rules: [{ pattern: '*', decision: 'ask' }] }).evaluate('pdf', 'build')
  void decision
  return parse('---\nname: a\n---\n').bodyLine ?? 0
}

export async function check(path: string): Promise<boolean> {
  const reports = await validate(path, { strict: true })
  return reports.every((r) => r.valid && r.diagnostics.every((d) => d.severity !== 'error'))
}

export async function searchSkills(deck: Deck, query: string, queryEmbedding?: number[]): Promise<string[]> {
  const options: SearchOptions = { query, limit: 5, body: true, all: false }
  if (queryEmbedding) {
    options.queryEmbedding = queryEmbedding
    options.embeddings = { pdf: [0.1, 0.2] }
  }
  const results: SearchResults = await deck.search(options)
  const sync: SearchResults = deck.searchSync({ query })
  const best: SearchHit | undefined = results.hits[0]
  const fields: string[] = best ? best.matched : []
  const similarity: number | null = best ? best.similarity : null
  const counts: number = results.matched + results.searched + sync.hits.length
  const tool: SearchToolDefinition = searchToolDefinition()
  const rendered = await deck.render({ format: 'codex', query, pinned: ['pdf'], budgetChars: 4000 })
  const reasons: Record<string, string> = rendered.report.reasons
  void [fields, similarity, counts, tool.parameters.required, reasons, results.toJSON()]
  return results.hits.map((h) => `${h.name} (${h.score.toFixed(2)}, bm25 ${h.bm25}): ${h.description} @ ${h.location}`)
}

export async function installAndVerify(projectDir: string): Promise<string[]> {
  const phases: string[] = []
  const report: AddReport = await add('github:owner/repo/skills@v1', {
    projectDir,
    skills: ['pdf'],
    scope: 'project',
    limits: { maxFiles: 100, timeout: 30 },
    onProgress: (p) => phases.push(`${p.phase}: ${p.message}`),
  })
  const digests: string[] = report.installed.map((s) => s.entry.digest)
  const checked: VerifyReport = await verify({ projectDir })
  const changed: string[] = checked.skills.flatMap((s) => s.diff.changed)
  const planned = await update({ projectDir, dryRun: true })
  const applied = await update(['pdf'], { projectDir })
  const frozen = await installFrozen({ projectDir, scope: 'user', userLock: '/tmp/lock.json' })
  const names = (await installed({ projectDir })).map((s) => s.name)
  const removed: string[] = (await remove(['pdf'], { projectDir })).removed
  try {
    await add('./missing', { projectDir, force: true })
  } catch (e) {
    const err = e as InstallError
    const code: ErrorCode = err.code
    phases.push(`${err.name} ${code}`)
  }
  const sync: AddReport = addSync('./skills', { projectDir, force: true })
  const level: AuditSeverity = 'high'
  const audited = await add('./vendor', { projectDir, maxSeverity: level })
  const reviewed: SkillAudit[] = audited.audit
  const limits: AuditOptions = { maxFileBytes: 1 << 20, maxFiles: 100, maxDepth: 8 }
  const found: AuditReport = await audit('./skills/pdf', limits)
  const worst: AuditFinding | undefined = auditSync('./skills/pdf/SKILL.md').findings[0]
  const where: string = worst ? `${worst.path}:${worst.line ?? 0}:${worst.column ?? 0}` : found.root
  const kind: 'skill' | 'plugin' | 'directory' = found.kind
  try {
    await add('./untrusted', { projectDir })
  } catch (e) {
    const refused: ErrorCode = 'AUDIT_REFUSED'
    if ((e as InstallError).code === refused) phases.push(where)
  }
  void [reviewed, kind, found.files, found.skills]
  void [planned.changes, applied.upToDate, frozen.restored, checked.clean, sync, verifySync().clean]
  return [...digests, ...changed, ...names, ...removed, ...phases]
}

export async function managePlugins(homeDir: string): Promise<string[]> {
  const where: PluginContextOptions = {
    projectDir: '.',
    homeDir,
    claudeDir: `${homeDir}/.claude`,
    managedSettings: '/etc/claude-code/managed-settings.json',
    limits: { maxFiles: 100 },
  }
  const lines: string[] = []
  const market: MarketplaceInfo = await marketplaceAdd('./market', {
    ...where,
    onProgress: (p) => lines.push(p.message),
  })
  const commit: string | null = market.commit
  const known: MarketplaceInfo[] = await marketplaceList(where)
  const scope: PluginScope = 'project'
  const report: PluginInstallReport = await pluginInstall('tools@acme', { ...where, scope, maxSeverity: 'high' })
  const dirs: PluginSkill[] = report.skillDirs
  const findings: AuditFinding[] = report.audit
  const sync: PluginInstallReport = pluginInstallSync('tools@acme', where)
  const plugins: PluginInfo[] = await pluginList({ ...where, scope })
  const skills: string[] = pluginListSync(where).flatMap((p) => p.skills)
  const off: boolean = (await pluginDisable('tools@acme', where)).enabled
  const on: PluginInfo = await pluginEnable('tools@acme', { ...where, scope: 'user' })
  const updates: MarketplaceUpdate[] = await marketplaceUpdate(where)
  const one: MarketplaceUpdate[] = marketplaceUpdateSync('acme', where)
  const updated: PluginUpdateReport = await pluginUpdate({ ...where, onProgress: (p) => lines.push(p.phase) })
  const changes: PluginUpdateChange[] = (await pluginUpdate('tools@acme', where)).changes
  const gone: PluginUninstallReport = await pluginUninstall('tools@acme', where)
  const removed: MarketplaceRemoveReport = await marketplaceRemove('acme', where)
  try {
    await marketplaceAdd('./blocked', where)
  } catch (e) {
    const code: ErrorCode = (e as InstallError).code
    if (code === 'POLICY_BLOCKED' || code === 'INVALID_MANIFEST') lines.push(code)
  }
  void [commit, known, dirs, findings, sync, plugins, off, on.installPath, updates, one, updated.upToDate, changes]
  return [...lines, ...skills, gone.removedPath ?? gone.id, ...removed.uninstalled]
}

export async function runTools(deck: Deck, signal: AbortSignalLike): Promise<string> {
  const format: ToolFormat = TOOL_FORMATS[0]
  const tools = agentTools(await deck.load(), format)
  const defined = toolDefinitions(deck.loadSync(), 'anthropic')
  const events: ExecEvent[] = []
  const outcome: RunOutcome = await runCommand(deck, 'word-count', { text: 'a b' }, {
    timeout: 5,
    sandbox: 'enforce',
    fsView: { only: ['/usr'] },
    limits: { memoryBytes: 1 << 30 },
    signal,
    onEvent: (e) => events.push(e),
  })
  const token = new CancelToken()
  const script = await runScript(deck, 'maker', 'make.sh', ['x'], { stdin: 'in', destination: 'out', cancel: token })
  const cancelled: boolean = token.cancelled || script.cancelled
  try {
    await callTool(deck, 'word-count', { text: 1 })
  } catch (e) {
    const err = e as InvalidInputError
    const problems: string[] = err.problems
    void problems
  }
  const exit: number | null = outcome.exit_code
  const message = toolResult(format, 'call-1', 'word-count', outcome.stdout, exit !== 0)
  const report = await deck.doctor('pdf')
  const table = deck.compareProfilesSync(['claude-code', 'codex'])
  void [tools, defined, cancelled, message, report, table, events]
  return outcome.stdout
}
