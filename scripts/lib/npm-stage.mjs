// Stages the publishable main npm package into a directory: what `napi pre-publish` does to
// package.json, without editing the checkout. The checkout's package.json keeps the
// development layout (the addon built next to the loader, packed along by the Node suite);
// the published main package carries no addon, only the loader, and lists every
// per-platform package (npm/<platform>/package.json) as an optional dependency, pinned to
// the release version, so npm installs the one whose os/cpu/libc match.
// Usage: node scripts/lib/npm-stage.mjs <out-dir>
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const out = process.argv[2]
if (!out) {
  console.error('usage: node scripts/lib/npm-stage.mjs <out-dir>')
  process.exit(2)
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const platforms = fs
  .readdirSync(path.join(root, 'npm'))
  .filter((dir) => fs.existsSync(path.join(root, 'npm', dir, 'package.json')))
  .sort()
const optionalDependencies = {}
for (const dir of platforms) {
  const sub = JSON.parse(fs.readFileSync(path.join(root, 'npm', dir, 'package.json'), 'utf8'))
  if (sub.version !== pkg.version) {
    console.error(`npm/${dir}/package.json is ${sub.version}, package.json ${pkg.version}: run scripts/version set ${pkg.version}`)
    process.exit(1)
  }
  optionalDependencies[sub.name] = pkg.version
}

const files = pkg.files.filter((f) => !f.endsWith('.node'))
const staged = { ...pkg, files, optionalDependencies }
// Build tooling and scripts concern the repository, not the package's users.
delete staged.devDependencies
delete staged.scripts

fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })
for (const f of [...files, 'README.md']) {
  const from = path.join(root, f)
  if (!fs.existsSync(from)) {
    console.error(`package.json lists ${f}, which does not exist`)
    process.exit(1)
  }
  fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true })
  fs.copyFileSync(from, path.join(out, f))
}
fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify(staged, null, 2) + '\n')
console.log(`staged ${pkg.name}@${pkg.version} in ${out} (optional: ${Object.keys(optionalDependencies).join(', ')})`)
