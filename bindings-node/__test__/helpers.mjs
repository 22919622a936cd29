// Shared helpers of the Node test suite: temporary trees and the canonical JSON form.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** A fresh temporary directory with its real path (no symlinks in it). */
export function tempTree(prefix = 'skilldeck-node-') {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
}

/** Write `text` at `rel` under `root`, creating parents. */
export function write(root, rel, text) {
  const file = path.join(root, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
  return file
}

/** A minimal spec-conformant SKILL.md. */
export function skillMd(name, description, extra = '') {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n\nUse $ARGUMENTS.\n`
}

/** The canonical JSON of an API result (what `toJSON()` gives, nested). */
export function canonical(value) {
  return JSON.parse(JSON.stringify(value))
}

/** `snake_case` to `camelCase`, as the binding names options. */
export function camel(key) {
  return key.replace(/[_-]([a-z])/g, (_, c) => c.toUpperCase())
}
