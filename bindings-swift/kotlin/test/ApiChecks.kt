// Checks of the Kotlin surface the vectors do not reach: exception classes and codes,
// default arguments, event delivery, record <-> core JSON round trips.
package dev.skilldeck.conformance

import dev.skilldeck.Deck
import dev.skilldeck.Decision
import dev.skilldeck.Event
import dev.skilldeck.EventListener
import dev.skilldeck.PermissionRules
import dev.skilldeck.Skill
import dev.skilldeck.SkillException
import dev.skilldeck.code
import dev.skilldeck.detail
import dev.skilldeck.path
import dev.skilldeck.toJson
import java.nio.file.Files
import java.nio.file.Path

class CheckFailed(why: String) : Exception(why)

fun check(condition: Boolean, why: () -> String) {
    if (!condition) throw CheckFailed(why())
}

inline fun <reified E : SkillException> expectThrows(block: () -> Unit): E {
    try {
        block()
    } catch (e: SkillException) {
        if (e is E) return e
        throw CheckFailed("expected ${E::class.simpleName}, got ${e::class.simpleName}: ${e.message}")
    }
    throw CheckFailed("expected ${E::class.simpleName}, nothing was thrown")
}

const val DEMO_SKILL = """---
name: demo
description: "Shows the bindings at work."
license: MIT
allowed-tools: Read Grep
metadata:
  owner: tests
  nested: {depth: 2, list: [1, "two"]}
---
Say hello to ${'$'}ARGUMENTS.
"""

/** A project holding one skill, isolated from the machine (own home, empty env). */
fun withProject(body: (Path) -> Unit) {
    val temp = Files.createTempDirectory("skilldeck-api").toRealPath()
    try {
        Files.createDirectories(temp.resolve("project/.git"))
        Files.createDirectories(temp.resolve("home"))
        val skill = temp.resolve("project/.agents/skills/demo")
        Files.createDirectories(skill)
        Files.writeString(skill.resolve("SKILL.md"), DEMO_SKILL)
        body(temp)
    } finally {
        temp.toFile().deleteRecursively()
    }
}

fun isolatedDeck(tree: Path): Deck = Deck(
    projectDir = tree.resolve("project").toString(),
    homeDir = tree.resolve("home").toString(),
    env = emptyMap(),
    systemRoot = tree.toString(),
)

class Recorder : EventListener {
    val events = mutableListOf<Event>()
    override fun onEvent(event: Event) {
        events.add(event)
    }
}

class Thrower : EventListener {
    override fun onEvent(event: Event) {
        throw IllegalStateException("a listener that always fails")
    }
}

val apiChecks: List<Pair<String, () -> Unit>> = listOf(
    "api/version" to {
        check(Regex("""\d+\.\d+\.\d+.*""").matches(dev.skilldeck.version())) { "version() = ${dev.skilldeck.version()}" }
    },
    "api/not-found-is-a-typed-exception" to {
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                val e = expectThrows<SkillException.NotFoundException> { deck.get("no-such-skill") }
                check(e.code == "NOT_FOUND") { "code ${e.code}" }
                check(e.path == null) { "path ${e.path}" }
                check(e.detail.contains("no-such-skill")) { "detail ${e.detail}" }
                // The sealed base class exposes the same fields (SkillExceptionFields.kt).
                val base: SkillException = e
                check(base.code == "NOT_FOUND" && base.path == null && base.detail == e.detail) { "base ${base.code}" }
            }
        }
    },
    "api/load-once-keeps-nothing" to {
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                val ids = deck.loadOnce().use { it.ids() }
                check(ids == listOf("demo")) { "loadOnce ids $ids" }
                val other = tree.resolve("project/.agents/skills/other")
                Files.createDirectories(other)
                Files.writeString(other.resolve("SKILL.md"), "---\nname: other\ndescription: Another one.\n---\nBody\n")
                // Nothing was kept to compare with: the next load discovers again.
                val later = deck.load().use { it.ids() }
                check(later.contains("other")) { "load after loadOnce: $later" }
            }
        }
    },
    "api/load-summary-lists-like-load-once" to {
        withProject { tree ->
            val rich = tree.resolve("project/.agents/skills/rich")
            Files.createDirectories(rich)
            Files.writeString(
                rich.resolve("SKILL.md"),
                "---\nname: rich\ndescription: Fields a listing does not show.\nlicense: MIT\nmetadata:\n  author: someone\nenabled: false\n---\nBody\n",
            )
            isolatedDeck(tree).use { deck ->
                val full = deck.loadOnce().use { it.skills() }
                val summary = deck.loadSummary().use { it.skills() }
                // Everything a listing shows is the same; the manifests and warnings are not.
                val shown = { s: Skill -> listOf(s.id, s.name, s.description, s.location, s.baseDir, s.scope, s.source, s.plugin, s.kind, s.status) }
                check(summary.map(shown) == full.map(shown)) { "summary ${summary.map { it.id }} vs ${full.map { it.id }}" }
                val kept = summary.first { it.id == "rich" }
                check(kept.manifest.license == null && !kept.manifest.metadata.contains("someone")) { "summary kept ${kept.manifest}" }
                check(!kept.status.enabled && kept.diagnostics.isEmpty()) { "summary status ${kept.status}" }
                check(full.first { it.id == "rich" }.manifest.license == "MIT") { "full load lost the license" }
                // Not the deck's snapshot: a lookup afterwards sees the whole skill.
                check(deck.get("rich").manifest.license == "MIT") { "get() after loadSummary()" }
            }
        }
    },
    // scripts/test.d/50-kotlin.sh runs this program in a directory whose name is not UTF-8,
    // with a variable that is not UTF-8 either (Java can create neither). `Deck()` reads the
    // process environment (once a panic in the engine) and finds the skill in ".".
    "api/non-utf8-environment-and-working-directory" to {
        val probe = System.getenv("SKILLDECK_TEST_CWD_SKILL")
        check(probe != null) { "SKILLDECK_TEST_CWD_SKILL is unset: run through scripts/test.d/50-kotlin.sh" }
        Deck().use { deck ->
            val ids = deck.load().use { it.ids() }
            check(ids.contains(probe)) { "skills found from the working directory: $ids" }
        }
    },
    "api/invalid-options" to {
        val e = expectThrows<SkillException.InvalidOptionsException> { PermissionRules("{not json") }
        check(e.code == "INVALID_OPTIONS") { "code ${e.code}" }
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                expectThrows<SkillException.InvalidOptionsException> { deck.render(format = "no-such-format") }
                expectThrows<SkillException.InvalidOptionsException> { deck.activate("demo", format = "no-such-format") }
            }
        }
    },
    "api/no-silent-empties-and-capped-sizes" to {
        withProject { tree ->
            // A missing project directory, an unmatched selector: warnings, never silence.
            Deck(
                projectDir = tree.resolve("nowhere").toString(),
                homeDir = tree.resolve("home").toString(),
                env = emptyMap(),
                systemRoot = tree.toString(),
                enable = listOf("ghost"),
                disable = listOf("nope-*"),
            ).use { deck ->
                val codes = deck.load().use { catalog -> catalog.diagnostics().map { it.code } }
                check(codes == listOf("enable-matches-nothing", "disable-matches-nothing", "project-dir-missing")) {
                    "diagnostics $codes"
                }
            }
            isolatedDeck(tree).use { deck ->
                expectThrows<SkillException.InvalidOptionsException> { deck.render(budgetChars = 10_000_001uL) }
                expectThrows<SkillException.InvalidOptionsException> { deck.render(budgetTokens = ULong.MAX_VALUE) }
                check(deck.render(budgetChars = 10_000_000uL).text.isNotEmpty()) { "render at the maximum budget" }
                val big = "x".repeat(1024 * 1024 + 1)
                val e = expectThrows<SkillException.InvalidOptionsException> { deck.activate("demo", args = big) }
                check(e.detail.contains("1 MiB")) { "detail ${e.detail}" }
                expectThrows<SkillException.InvalidOptionsException> { deck.activate("demo", vars = mapOf("BIG" to big)) }
            }
        }
    },
    "api/search-defaults-records-and-tool-definition" to {
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                // Only the query is required; every other parameter has its default.
                val results = deck.search("bindings at work")
                check(results.hits.map { it.id } == listOf("demo")) { "hits ${results.hits}" }
                check(results.matched == 1uL && results.searched == 1uL) { "counts ${results.matched}/${results.searched}" }
                val hit = results.hits[0]
                check(hit.matched == listOf("description")) { "matched ${hit.matched}" }
                check(hit.score > 0.0 && hit.bm25 == hit.score && hit.similarity == null) { "scores $hit" }
                check(hit.location.endsWith("project/.agents/skills/demo/SKILL.md")) { "location ${hit.location}" }
                check(Json.parse(results.toJson())["hits"].list[0]["id"].str == "demo") { results.toJson() }
                check(Json.parse(hit.toJson())["matched"].list.size == 1) { hit.toJson() }
                val hybrid = deck.search("nothing like it", queryEmbedding = listOf(1f, 0f), embeddings = mapOf("demo" to listOf(1f, 0f)))
                check(hybrid.hits.single().similarity == 1.0) { "hybrid ${hybrid.hits}" }
                expectThrows<SkillException.InvalidOptionsException> { deck.search("demo", limit = 0uL) }
                expectThrows<SkillException.InvalidOptionsException> { deck.search("demo", limit = ULong.MAX_VALUE) }
                expectThrows<SkillException.InvalidOptionsException> { deck.search(" ") }
                val rendered = deck.render(query = "unrelated words", pinned = listOf("ghost"))
                check(rendered.report.reasons == mapOf("demo" to "does not match the query", "ghost" to "pinned, but not visible to the model")) {
                    "reasons ${rendered.report.reasons}"
                }
            }
        }
        val tool = Json.parse(dev.skilldeck.searchToolDefinition())
        check(tool["name"].str == "search_skills") { "tool $tool" }
        check(tool["parameters"]["required"].list.map { it.str } == listOf("query")) { "tool $tool" }
    },
    "api/permission-rules" to {
        PermissionRules("""{"semantics": "deny-first", "rules": [{"pattern": "*", "decision": "allow"}, {"pattern": "secret-*", "decision": "deny"}]}""").use { rules ->
            check(rules.evaluate("demo") == Decision.ALLOW) { "demo: ${rules.evaluate("demo")}" }
            check(rules.evaluate("secret-x") == Decision.DENY) { "secret-x: ${rules.evaluate("secret-x")}" }
            check(Json.parse(rules.toJson())["semantics"].str == "deny-first") { rules.toJson() }
        }
    },
    "api/skill-record-round-trips-to-core-json" to {
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                deck.load().use { catalog ->
                    val skill = catalog.get("demo") ?: throw CheckFailed("demo not found: ${catalog.toJson()}")
                    check(skill.license == "MIT" && skill.manifest.license == "MIT") { "license ${skill.license}" }
                    check(skill.allowedTools == listOf("Read", "Grep")) { "allowedTools ${skill.allowedTools}" }
                    val metadata = Json.parse(skill.metadata)
                    check(metadata["nested"]["list"].list.size == 2) { "metadata ${skill.metadata}" }
                    val fromCore = Json.parse(catalog.toJson())["skills"].list.single()
                    val fromRecord = Json.parse(skill.toJson())
                    check(fromCore.toString() == fromRecord.toString()) { "record JSON $fromRecord != core JSON $fromCore" }
                    // Mirrored core records get toJson() from Extensions.kt.
                    check(Json.parse(skill.manifest.toJson()).toString() == fromCore["manifest"].toString()) { skill.manifest.toJson() }
                    check(Json.parse(skill.status.toJson()).toString() == fromCore["status"].toString()) { skill.status.toJson() }
                    check(catalog.len() == 1UL && catalog.ids() == listOf("demo")) { "ids ${catalog.ids()}" }
                }
            }
        }
    },
    "api/events-and-failing-listeners" to {
        withProject { tree ->
            isolatedDeck(tree).use { deck ->
                val recorder = Recorder()
                val failing = deck.subscribe(Thrower())
                val id = deck.subscribe(recorder)
                deck.load().close()
                val activation = deck.activate("demo", args = "world")
                check(activation.body.contains("world")) { "body ${activation.body}" }
                val registered = recorder.events.filterIsInstance<Event.Registered>()
                check(registered.size == 1 && registered[0].skills == listOf("demo")) { "events ${recorder.events}" }
                val activated = recorder.events.filterIsInstance<Event.Activated>()
                check(activated.size == 1 && activated[0].id == "demo") { "events ${recorder.events}" }
                val other = tree.resolve("project/.agents/skills/other")
                Files.createDirectories(other)
                Files.writeString(other.resolve("SKILL.md"), "---\nname: other\ndescription: Another one.\n---\nBody\n")
                val diff = deck.reload()
                check(diff.added == listOf("other") && diff.removed.isEmpty()) { "reload diff ${diff.toJson()}" }
                val changed = recorder.events.filterIsInstance<Event.Changed>()
                check(changed.size == 1 && changed[0].diff == diff) { "events ${recorder.events}" }
                check(deck.unsubscribe(id) && deck.unsubscribe(failing)) { "unsubscribe returned false" }
                check(!deck.unsubscribe(id)) { "second unsubscribe returned true" }
                val before = recorder.events.size
                deck.activate("demo")
                check(recorder.events.size == before) { "event after unsubscribe: ${recorder.events}" }
            }
        }
    },
    "api/run-cli-exit-codes" to {
        withProject { tree ->
            val skill = tree.resolve("project/.agents/skills/demo").toString()
            val ok = dev.skilldeck.runCli(listOf("skilldeck", "validate", "--json", skill))
            check(ok == 0) { "validate of a valid skill exited $ok" }
        }
        val usage = dev.skilldeck.runCli(listOf("skilldeck", "no-such-command"))
        check(usage == 2) { "an unknown subcommand exited $usage, expected the usage code 2" }
    },
    "api/parse-and-validate" to {
        val parsed = dev.skilldeck.parse(DEMO_SKILL)
        check(parsed.manifest.name == "demo") { "name ${parsed.manifest.name}" }
        check(Json.parse(parsed.toJson())["manifest"]["license"].str == "MIT") { parsed.toJson() }
        withProject { tree ->
            val reports = dev.skilldeck.validate(tree.resolve("project/.agents/skills/demo").toString())
            check(reports.size == 1 && reports[0].valid) { "reports ${reports.map { it.toJson() }}" }
            val fromReport = Json.parse(reports[0].toJson())["diagnostics"].list.map { it.toString() }
            val fromDiagnostics = reports[0].diagnostics.map { Json.parse(it.toJson()).toString() }
            check(fromReport == fromDiagnostics) { "diagnostic JSON $fromDiagnostics != $fromReport" }
        }
    },
)
