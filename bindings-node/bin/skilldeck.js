#!/usr/bin/env node
// `npx skilldeck ...`: the very same command as the Rust binary, run inside the addon.
'use strict'

const { runCli } = require('../main.cjs')

process.exitCode = runCli(process.argv.slice(2))
