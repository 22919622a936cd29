'use strict'
// CommonJS entry point: the loader that `napi build` generates (index.js) plus the one
// thing napi-rs cannot declare from Rust, `for (const skill of catalog)`.
const native = loadNative()

/** The napi-rs platform suffix of this process (`linux-x64-gnu`, `darwin-arm64`,
 * `win32-x64-msvc`, ...): the `skilldeck-<suffix>` package holds its addon. */
function platformSuffix() {
  const { platform, arch } = process
  if (platform === 'linux') {
    // glibcVersionRuntime is absent from the report exactly when Node runs on musl.
    const report = process.report && typeof process.report.getReport === 'function' ? process.report.getReport() : null
    const libc = report && report.header && report.header.glibcVersionRuntime ? 'gnu' : 'musl'
    return `linux-${arch}-${libc}`
  }
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

// The generated loader (index.js) tries the addon next to it (a development build), then the
// per-platform package `skilldeck-<platform>`, which npm installs as an optional dependency
// only on the platform it is built for. When neither is there its error blames an npm bug;
// this one names the package that is missing, or says that no prebuilt addon exists.
function loadNative() {
  try {
    return require('./index.js')
  } catch (cause) {
    const pkg = require('../package.json')
    const name = `${pkg.name}-${platformSuffix()}`
    const published = Object.keys(pkg.optionalDependencies || {})
    const fix = published.includes(name)
      ? `its optional dependency \`${name}\` (the native addon for this platform) is not installed. ` +
        'npm skips optional dependencies under --omit=optional / --no-optional, and a lockfile written ' +
        `on another platform can leave it out: install it with \`npm install ${name}@${pkg.version}\`, ` +
        'or remove node_modules and the lockfile and run `npm install` again.'
      : `no prebuilt native addon is published for this platform (\`${name}\` does not exist; ` +
        `prebuilt: ${published.join(', ') || 'none in this checkout'}). ` +
        'Build it from source with Rust and `npm run build` in a clone of the repository.'
    const error = new Error(`skilldeck ${pkg.version} cannot load on ${process.platform}-${process.arch}: ${fix}`)
    error.code = 'ERR_SKILLDECK_NATIVE_MISSING'
    error.packageName = name
    error.cause = cause
    throw error
  }
}

native.Catalog.prototype[Symbol.iterator] = function skills() {
  return this.skills[Symbol.iterator]()
}

// One error model: napi-rs reports an argument of the wrong type (`deck.get(42)`) with its
// own status name as `code` (`StringExpected`, `NumberExpected`, ...). Those become the
// library's `INVALID_OPTIONS`, so every error a caller sees has a code of the `ErrorCode`
// union; the message (napi's, saying what was expected) is kept.
const NAPI_ARGUMENT_CODES = new Set([
  'InvalidArg',
  'ObjectExpected',
  'StringExpected',
  'NameExpected',
  'FunctionExpected',
  'NumberExpected',
  'BooleanExpected',
  'ArrayExpected',
  'BigintExpected',
  'DateExpected',
  'ArrayBufferExpected',
  'DetachableArraybufferExpected',
])

function asSkillError(err) {
  if (err instanceof Error && NAPI_ARGUMENT_CODES.has(err.code)) {
    err.message = `invalid option: ${err.message}`
    err.code = 'INVALID_OPTIONS'
    if (!('path' in err)) err.path = null
  }
  return err
}

function guarded(fn) {
  const wrapper = function (...args) {
    try {
      return fn.apply(this, args)
    } catch (err) {
      throw asSkillError(err)
    }
  }
  Object.defineProperty(wrapper, 'name', { value: fn.name })
  return wrapper
}

for (const [name, value] of Object.entries(native)) {
  if (typeof value !== 'function') continue
  const methods = value.prototype ? Object.getOwnPropertyNames(value.prototype) : []
  if (methods.length > 1) {
    // A class: its methods (getters convert nothing the caller gives).
    for (const key of methods) {
      const descriptor = Object.getOwnPropertyDescriptor(value.prototype, key)
      if (key === 'constructor' || typeof descriptor.value !== 'function') continue
      Object.defineProperty(value.prototype, key, { ...descriptor, value: guarded(descriptor.value) })
    }
  } else {
    native[name] = guarded(value)
  }
}

// ---- install and run ----
//
// Each raw native half (`_add`, `_runCommand`, ...) works on its own thread and sends every
// message (progress or exec events, then the result or the error) through one FIFO queue to
// `dispatch`: the Promise settles on the last message, so every event has been delivered
// before the `await` returns. The callbacks and the AbortSignal are taken out of the options
// here; the rest (plain data) is read by the engine, which refuses unknown keys.

// The raw halves are the package's internals: taken off the exports (the ESM entry and
// index.d.ts list only the functions below).
const raw = {}
for (const name of Object.keys(native)) {
  if (name.startsWith('_') && !name.startsWith('__')) {
    raw[name] = native[name]
    delete native[name]
  }
}

function invalidOptions(message) {
  const err = new Error(message)
  err.code = 'INVALID_OPTIONS'
  err.path = null
  return err
}

function describe(value) {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

/** `options` without the non-data keys `keys`, and those keys' values. */
function split(what, options, keys) {
  if (options == null) return [undefined, {}]
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw invalidOptions(`${what} takes an options object, got ${describe(options)}`)
  }
  const rest = { ...options }
  const taken = {}
  for (const key of keys) {
    taken[key] = rest[key] ?? undefined
    delete rest[key]
  }
  return [rest, taken]
}

function callbackOption(name, value) {
  if (value != null && typeof value !== 'function') {
    throw invalidOptions(`${name} must be a function taking one object, got ${describe(value)}`)
  }
  return value ?? undefined
}

/** Call a progress/event callback; its exception is reported, not raised: a failing
 * progress display or event log must not abort the install or the run. */
function deliver(callback, value) {
  try {
    callback(value)
  } catch (err) {
    process.emitWarning(err instanceof Error ? err : new Error(String(err)))
  }
}

function settle(start, callback) {
  return new Promise((resolve, reject) => {
    start((message) => {
      if (message.kind === 'event') {
        if (callback) deliver(callback, message.value)
      } else if (message.kind === 'done') {
        resolve(message.value)
      } else {
        reject(message.value)
      }
    })
  })
}

function installing(what, options, start) {
  const [rest, { onProgress }] = split(`${what}()`, options, ['onProgress'])
  const progress = callbackOption('onProgress', onProgress)
  return settle((dispatch) => start(rest, progress !== undefined, dispatch), progress)
}

function names(what, value, optional) {
  if (optional && value == null) return undefined
  if (!Array.isArray(value)) {
    throw invalidOptions(`${what}() takes an array of skill names, got ${describe(value)}`)
  }
  return value
}

native.add = async function add(source, options) {
  return installing('add', options, (rest, progress, dispatch) =>
    raw._add(source, rest, progress, dispatch),
  )
}

native.remove = async function remove(skills, options) {
  const list = names('remove', skills, false)
  return plain('remove', options, (rest, dispatch) => raw._remove(list, rest, dispatch))
}

native.update = async function update(skills, options) {
  // `update(options)`: every skill.
  if (options === undefined && skills != null && typeof skills === 'object' && !Array.isArray(skills)) {
    ;[skills, options] = [undefined, skills]
  }
  const list = names('update', skills, true)
  return installing('update', options, (rest, progress, dispatch) =>
    raw._update(list, rest, progress, dispatch),
  )
}

native.installed = async function installed(options) {
  return plain('installed', options, (rest, dispatch) => raw._installed(rest, dispatch))
}

native.verify = async function verify(options) {
  return plain('verify', options, (rest, dispatch) => raw._verify(rest, dispatch))
}

native.installFrozen = async function installFrozen(options) {
  return installing('installFrozen', options, (rest, progress, dispatch) =>
    raw._installFrozen(rest, progress, dispatch),
  )
}

// ---- marketplaces and plugins (Claude Code's layout) ----

function text(what, label, value, optional) {
  if (optional && value == null) return undefined
  if (typeof value !== 'string') {
    throw invalidOptions(`${what}() takes ${label} (a string), got ${describe(value)}`)
  }
  return value
}

/** An install or plugin operation that reports no progress: `onProgress` is refused like any
 * key it does not take (the engine refuses the others). */
function plain(what, options, start) {
  if (options != null && typeof options === 'object' && 'onProgress' in options) {
    throw invalidOptions(`${what}() takes no onProgress: it reports no progress`)
  }
  return installing(what, options, (rest, _progress, dispatch) => start(rest, dispatch))
}

/** `fn(options)` for the functions whose first argument may be left out. */
function optionalFirst(first, options) {
  if (options === undefined && first != null && typeof first === 'object' && !Array.isArray(first)) {
    return [undefined, first]
  }
  return [first, options]
}

native.marketplaceAdd = async function marketplaceAdd(source, options) {
  const spec = text('marketplaceAdd', 'a marketplace source', source, false)
  return installing('marketplaceAdd', options, (rest, progress, dispatch) =>
    raw._marketplaceAdd(spec, rest, progress, dispatch),
  )
}

native.marketplaceList = async function marketplaceList(options) {
  return plain('marketplaceList', options, (rest, dispatch) => raw._marketplaceList(rest, dispatch))
}

native.marketplaceUpdate = async function marketplaceUpdate(name, options) {
  ;[name, options] = optionalFirst(name, options)
  const market = text('marketplaceUpdate', 'a marketplace name', name, true)
  return installing('marketplaceUpdate', options, (rest, progress, dispatch) =>
    raw._marketplaceUpdate(market, rest, progress, dispatch),
  )
}

native.marketplaceRemove = async function marketplaceRemove(name, options) {
  const market = text('marketplaceRemove', 'a marketplace name', name, false)
  return plain('marketplaceRemove', options, (rest, dispatch) =>
    raw._marketplaceRemove(market, rest, dispatch),
  )
}

native.pluginInstall = async function pluginInstall(plugin, options) {
  const spec = text('pluginInstall', 'a plugin', plugin, false)
  return installing('pluginInstall', options, (rest, progress, dispatch) =>
    raw._pluginInstall(spec, rest, progress, dispatch),
  )
}

native.pluginList = async function pluginList(options) {
  return plain('pluginList', options, (rest, dispatch) => raw._pluginList(rest, dispatch))
}

native.pluginEnable = async function pluginEnable(plugin, options) {
  const spec = text('pluginEnable', 'a plugin', plugin, false)
  return plain('pluginEnable', options, (rest, dispatch) => raw._pluginEnable(spec, rest, dispatch))
}

native.pluginDisable = async function pluginDisable(plugin, options) {
  const spec = text('pluginDisable', 'a plugin', plugin, false)
  return plain('pluginDisable', options, (rest, dispatch) => raw._pluginDisable(spec, rest, dispatch))
}

native.pluginUpdate = async function pluginUpdate(plugin, options) {
  ;[plugin, options] = optionalFirst(plugin, options)
  const spec = text('pluginUpdate', 'a plugin', plugin, true)
  return installing('pluginUpdate', options, (rest, progress, dispatch) =>
    raw._pluginUpdate(spec, rest, progress, dispatch),
  )
}

native.pluginUninstall = async function pluginUninstall(plugin, options) {
  const spec = text('pluginUninstall', 'a plugin', plugin, false)
  return plain('pluginUninstall', options, (rest, dispatch) =>
    raw._pluginUninstall(spec, rest, dispatch),
  )
}

function isAbortSignal(value) {
  return (
    value != null &&
    typeof value === 'object' &&
    typeof value.aborted === 'boolean' &&
    typeof value.addEventListener === 'function' &&
    typeof value.removeEventListener === 'function'
  )
}

/** A run with `options.signal` (an AbortSignal: abort cancels the run, then the Promise
 * rejects with `signal.reason` once the process group is gone), `options.cancel` (a
 * CancelToken: the outcome says `cancelled: true`) and `options.onEvent`. */
async function running(what, options, start) {
  const [rest, { signal, cancel, onEvent }] = split(`${what}()`, options, ['signal', 'cancel', 'onEvent'])
  const events = callbackOption('onEvent', onEvent)
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidOptions(`signal must be an AbortSignal, got ${describe(signal)}`)
  }
  if (cancel !== undefined && !(cancel instanceof native.CancelToken)) {
    throw invalidOptions(`cancel must be a CancelToken, got ${describe(cancel)}`)
  }
  if (signal?.aborted) throw signal.reason
  const token = cancel ?? (signal ? new native.CancelToken() : undefined)
  const onAbort = () => token.cancel()
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const outcome = await settle(
      (dispatch) => start(rest, token, events !== undefined, dispatch),
      events,
    )
    if (signal?.aborted && outcome.cancelled) throw signal.reason
    return outcome
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

native.runCommand = async function runCommand(deck, skill, input, options) {
  return running('runCommand', options, (rest, token, events, dispatch) =>
    raw._runCommand(deck, skill, input ?? undefined, rest, token, events, dispatch),
  )
}

native.runScript = async function runScript(deck, skill, script, args, options) {
  return running('runScript', options, (rest, token, events, dispatch) =>
    raw._runScript(deck, skill, script, args ?? undefined, rest, token, events, dispatch),
  )
}

native.callTool = async function callTool(deck, name, args, options) {
  return running('callTool', options, (rest, token, events, dispatch) =>
    raw._callTool(deck, name, args ?? undefined, rest, token, events, dispatch),
  )
}

native.TOOL_FORMATS = Object.freeze(raw._toolFormats())

module.exports = native
