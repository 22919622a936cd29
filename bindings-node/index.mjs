// ESM entry point: the native addon is loaded once through the CommonJS entry (main.cjs,
// around the loader `napi build` generates), then re-exported by name.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const native = require('./main.cjs')

export const {
  Activation,
  CancelToken,
  Catalog,
  Deck,
  Diagnostic,
  Diff,
  Manifest,
  Parsed,
  PermissionRules,
  RenderReport,
  Rendered,
  SearchHit,
  SearchResults,
  Shadowed,
  Skill,
  Status,
  ValidationReport,
  TOOL_FORMATS,
  VERSION,
  add,
  agentTools,
  callTool,
  installFrozen,
  installed,
  parse,
  remove,
  runCli,
  runCommand,
  runScript,
  runSkillScriptTool,
  searchSkillsTool,
  searchToolDefinition,
  skillTool,
  toolDefinitions,
  toolResult,
  update,
  validate,
  validateSync,
  verify,
  version,
  __napiBindingTarget,
} = native

export default native
