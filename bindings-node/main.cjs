'use strict'
// CommonJS entry point: the loader that `napi build` generates (index.js) plus the one
// thing napi-rs cannot declare from Rust, `for (const skill of catalog)`.
const native = require('./index.js')

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

module.exports = native
