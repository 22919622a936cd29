// MCP through the Kotlin API (the port of bindings-python/tests/test_mcp.py): a deck served
// over streamable HTTP (`serveMcpHttp`) and over stdio by a child JVM (`serveMcp`, McpServe.kt),
// each consumed by another deck through `attachMcp`; the independent raw JSON-RPC server of the
// Rust tests (mcp/tests/fake_server.py) serving tampered and oversize skills, refused with their
// codes; and the typed errors of a server that cannot be reached or a value that is wrong.
package dev.skilldeck.conformance

import dev.skilldeck.Deck
import dev.skilldeck.RootSpec
import dev.skilldeck.Scope
import dev.skilldeck.SkillException
import dev.skilldeck.attachMcp
import dev.skilldeck.code
import dev.skilldeck.detail
import dev.skilldeck.path
import dev.skilldeck.serveMcpHttp
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/** The repository (set by `main` from the vectors directory it was given). */
var repoRoot: File = File(".")

private fun skillAt(root: Path, name: String, body: String) =
    write(root.resolve("$name/SKILL.md"), "---\nname: $name\ndescription: The $name skill.\n---\n$body\n")

private fun deckOver(temp: Path, skills: Path): Deck {
    val empty = temp.resolve("empty")
    Files.createDirectories(empty)
    Files.createDirectories(skills)
    return Deck(
        projectDir = empty.toString(),
        homeDir = empty.toString(),
        env = mapOf(),
        roots = listOf(RootSpec(path = skills.toString(), scope = Scope.EXTRA, pattern = null)),
        readHostSettings = false,
    )
}

/** A remote skill `alpha` (with a script) under `remote skills/`, a local `beta` under `local/`. */
private fun withMcpFixture(body: (temp: Path, remote: Path, local: Path) -> Unit) = withTemp { temp ->
    val remote = temp.resolve("remote skills")
    skillAt(remote, "alpha", "alpha body")
    write(remote.resolve("alpha/scripts/run.sh"), "echo hi\n")
    val local = temp.resolve("local")
    skillAt(local, "beta", "beta body")
    body(temp, remote, local)
}

/** A POSIX-shell single-quoted word (attachMcp splits `servers` like a shell line). */
private fun quote(word: String) = "'" + word.replace("'", "'\\''") + "'"

val mcpChecks: List<Pair<String, () -> Unit>> = listOf(
    "mcp/a-deck-served-over-http-is-another-decks-source" to {
        withMcpFixture { temp, remote, local ->
            val cache = temp.resolve("cache").toString()
            deckOver(temp, remote).use { served ->
                val server = serveMcpHttp(served)
                val url = server.url()
                try {
                    check(Regex("^http://127\\.0\\.0\\.1:\\d+/mcp$").matches(url)) { "url $url" }
                    check(server.isOpen()) { "not open" }
                    deckOver(temp, local).use { deck ->
                        val labels = attachMcp(deck, urls = listOf("web=$url"), cache = cache)
                        check(labels == listOf("web")) { "labels $labels" }
                        deck.load().use { catalog ->
                            val ids = catalog.listed().map { it.id }
                            check(ids == listOf("beta", "web:alpha")) { "ids $ids" }
                        }
                        val activation = deck.activate("web:alpha")
                        check(activation.text.startsWith("Origin: MCP server `web` (skill `web:alpha`).")) { activation.text }
                        check("alpha body" in activation.text) { activation.text }
                        check(activation.resources == listOf("skill://alpha/scripts/run.sh")) { "resources ${activation.resources}" }
                    }
                } finally {
                    server.stop()
                }
                check(!server.isOpen()) { "still open" }
                server.stop() // idempotent
                server.close()
                // Stopped: the URL no longer answers.
                deckOver(temp, local).use { deck ->
                    val err = expectThrows<SkillException.RemoteException>("attach to a stopped server") {
                        attachMcp(deck, urls = listOf("web=$url"), cache = cache)
                    }
                    check(err.code == "REMOTE_UNAVAILABLE") { "code ${err.code}" }
                }
            }
        }
    },
    "mcp/closing-the-server-object-stops-it" to {
        withMcpFixture { temp, remote, local ->
            val url = deckOver(temp, remote).use { served -> serveMcpHttp(served).use { it.url() } }
            deckOver(temp, local).use { deck ->
                val err = expectThrows<SkillException.RemoteException>("attach to a closed server") {
                    attachMcp(deck, urls = listOf(url), cache = temp.resolve("cache").toString())
                }
                check(err.code == "REMOTE_UNAVAILABLE") { "code ${err.code}" }
            }
        }
    },
    "mcp/a-deck-served-over-stdio-by-a-child-jvm" to {
        withMcpFixture { temp, remote, local ->
            val java = File(System.getProperty("java.home"), "bin/java").path
            val command = listOf(
                java,
                "-Djna.library.path=" + (System.getProperty("jna.library.path") ?: ""),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.skilldeck.conformance.McpServeKt",
                remote.toString(),
                temp.resolve("empty").toString(),
            ).joinToString(" ") { quote(it) }
            deckOver(temp, local).use { deck ->
                val labels = attachMcp(deck, servers = listOf("kt=$command"), cache = temp.resolve("cache").toString())
                check(labels == listOf("kt")) { "labels $labels" }
                deck.load().use { catalog ->
                    val ids = catalog.listed().map { it.id }
                    check(ids == listOf("beta", "kt:alpha")) { "ids $ids" }
                }
                check("alpha body" in deck.activate("kt:alpha").text) { "activation" }
            }
        }
    },
    "mcp/tampered-and-oversize-skills-are-refused" to {
        withMcpFixture { temp, _, local ->
            val fake = File(repoRoot, "mcp/tests/fake_server.py").path
            deckOver(temp, local).use { deck ->
                val labels = attachMcp(deck, servers = listOf("fake=python3 ${quote(fake)}"), cache = temp.resolve("cache").toString())
                check(labels == listOf("fake")) { "labels $labels" }
                deck.load().use { catalog ->
                    val ids = catalog.listed().map { it.id }
                    check("fake:good" in ids && "fake:bad-digest" in ids) { "ids $ids" }
                    check("fake:too-big" !in ids && "fake:too-many" !in ids) { "ids $ids" }
                    val refused = catalog.diagnostics().filter { it.code == "REMOTE_ENTRY_REFUSED" }.map { it.message }
                    check(refused.any { "skill://too-big/SKILL.md" in it && "16 MiB" in it }) { "refused $refused" }
                    check(refused.any { "skill://too-many/SKILL.md" in it && "limit of 512" in it }) { "refused $refused" }
                }
                for ((id, code) in listOf(
                    "fake:bad-digest" to "REMOTE_DIGEST_MISMATCH",
                    "fake:wrong-size" to "REMOTE_SIZE_MISMATCH",
                    "fake:fm-mismatch" to "REMOTE_FRONTMATTER_MISMATCH",
                )) {
                    val err = expectThrows<SkillException.RemoteException>(id) { deck.activate(id) }
                    check(err.code == code) { "$id: ${err.code} ${err.detail}" }
                    check("verification failed" in err.detail) { "$id: ${err.detail}" }
                }
                check("# good" in deck.activate("fake:good").text) { "good" }
            }
        }
    },
    "mcp/errors-are-typed" to {
        withMcpFixture { temp, _, local ->
            deckOver(temp, local).use { deck ->
                val cache = temp.resolve("c").toString()
                val gone = expectThrows<SkillException.RemoteException>("missing server") {
                    attachMcp(deck, servers = listOf("gone=/nonexistent/server"), cache = cache)
                }
                check(gone.code == "REMOTE_UNAVAILABLE" && "gone: cannot start or reach the MCP server" in gone.detail) { gone.detail }
                val quoted = expectThrows<SkillException.InvalidOptionsException>("unbalanced quote") {
                    attachMcp(deck, servers = listOf("srv 'a"), cache = cache)
                }
                check("unbalanced quote" in quoted.detail) { quoted.detail }
                val overlap = expectThrows<SkillException.InvalidOptionsException>("cache in a root") {
                    attachMcp(deck, servers = listOf("x=y"), cache = local.resolve("cache").toString())
                }
                check("overlaps the skill discovery path" in overlap.detail) { overlap.detail }
                expectThrows<SkillException.InvalidOptionsException>("bad address") { serveMcpHttp(deck, addr = "not an address") }
                serveMcpHttp(deck).use { first ->
                    val addr = java.net.URI(first.url()).authority
                    val busy = expectThrows<SkillException.IoException>("address in use") { serveMcpHttp(deck, addr = addr) }
                    check(busy.path == addr) { "path ${busy.path}" }
                }
            }
        }
    },
)
