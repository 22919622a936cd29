'use strict'
// CommonJS entry point: the loader that `napi build` generates (index.js) plus the one
// thing napi-rs cannot declare from Rust, `for (const skill of catalog)`.
const native = require('./index.js')

native.Catalog.prototype[Symbol.iterator] = function skills() {
  return this.skills[Symbol.iterator]()
}

module.exports = native
