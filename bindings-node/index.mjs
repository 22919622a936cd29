// ESM entry point: the native addon is loaded once through the CommonJS entry (main.cjs,
// around the loader `napi build` generates), then re-exported by name.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const native = require('./main.cjs')

export const {
  Activation,
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
  VERSION,
  parse,
  runCli,
  searchToolDefinition,
  validate,
  validateSync,
  version,
  __napiBindingTarget,
} = native

export default native
