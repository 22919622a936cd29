#!/usr/bin/env node
// Completes package-lock.json with the per-platform optional packages of napi-rs tools
// (`@napi-rs/lzma-darwin-x64`, ...) when the registry used to write the lock could not
// serve them (a mirror holding only this platform's binaries). npm writes such entries
// itself against the public registry; without them `npm ci` refuses the lock as out of
// sync. Each entry gets the exact version its parent pins plus os/cpu/libc read from the
// package-name triple, so npm skips it on other platforms without fetching anything.
// Usage, after `npm install`: node bindings-node/tools/complete-lock.mjs && npm install
// (the second install only rewrites the entries in npm's own key order).
import fs from 'node:fs'

const LOCK = new URL('../../package-lock.json', import.meta.url)
const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'))
const packages = lock.packages

// The platform suffixes napi-rs publishes, as npm's os / cpu / libc fields.
const TRIPLES = {
  'android-arm-eabi': { os: ['android'], cpu: ['arm'] },
  'android-arm64': { os: ['android'], cpu: ['arm64'] },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'darwin-universal': { os: ['darwin'] },
  'freebsd-x64': { os: ['freebsd'], cpu: ['x64'] },
  'freebsd-arm64': { os: ['freebsd'], cpu: ['arm64'] },
  'linux-arm-gnueabihf': { os: ['linux'], cpu: ['arm'], libc: ['glibc'] },
  'linux-arm-musleabihf': { os: ['linux'], cpu: ['arm'], libc: ['musl'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-ppc64-gnu': { os: ['linux'], cpu: ['ppc64'], libc: ['glibc'] },
  'linux-riscv64-gnu': { os: ['linux'], cpu: ['riscv64'], libc: ['glibc'] },
  'linux-s390x-gnu': { os: ['linux'], cpu: ['s390x'], libc: ['glibc'] },
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'wasm32-wasi': { cpu: ['wasm32'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
  'win32-ia32-msvc': { os: ['win32'], cpu: ['ia32'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
}

let added = 0
for (const [where, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`
    if (packages[key]) continue
    const triple = Object.keys(TRIPLES).find((t) => name.endsWith(`-${t}`))
    if (!triple) {
      console.error(`${where}: optional dependency ${name} is missing and is no platform package`)
      process.exitCode = 1
      continue
    }
    packages[key] = {
      version,
      ...TRIPLES[triple],
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
    }
    added++
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))))
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`)
