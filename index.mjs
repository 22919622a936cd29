// ESM entry point: the native addon is loaded once through the CommonJS loader that
// `napi build` generates (index.js), then re-exported by name.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const native = require('./index.js')

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
  Shadowed,
  Skill,
  Status,
  ValidationReport,
  VERSION,
  parse,
  runCli,
  validate,
  validateSync,
  version,
} = native

export default native
