// A deck served over MCP on stdio by a JVM (`serveMcp`), started by McpChecks.kt as a child
// process. Usage: McpServeKt <skills-dir> <empty-dir>. Prints nothing: stdout carries the
// protocol.
package dev.skilldeck.conformance

import dev.skilldeck.Deck
import dev.skilldeck.RootSpec
import dev.skilldeck.Scope
import dev.skilldeck.serveMcp

fun main(args: Array<String>) {
    val (skills, empty) = args
    Deck(
        projectDir = empty,
        homeDir = empty,
        env = mapOf(),
        roots = listOf(RootSpec(path = skills, scope = Scope.EXTRA, pattern = null)),
        readHostSettings = false,
    ).use { deck -> serveMcp(deck, pageSize = 1u) }
}
