// Runs every conformance vector in tests/vectors through the Kotlin API (format:
// tests/README.md), then the API checks of ApiChecks.kt, EngineChecks.kt, AuditChecks.kt
// PluginChecks.kt and McpChecks.kt, and exits non-zero on any mismatch. Usage: Conformance <vectors-dir>
package dev.skilldeck.conformance

import dev.skilldeck.Deck
import dev.skilldeck.PermissionRules
import dev.skilldeck.RootSpec
import dev.skilldeck.Scope
import dev.skilldeck.SkillException
import dev.skilldeck.code
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.nio.file.attribute.FileTime
import kotlin.system.exitProcess

/** A vector that cannot run (bad case.json, setup failure): reported as a failure. */
class RunnerError(why: String) : Exception(why)

fun findCases(dir: File, out: MutableList<File>) {
    val children = dir.listFiles()?.sortedBy { it.name } ?: return
    for (child in children) {
        if (File(child, "case.json").isFile) out.add(child)
        else if (child.isDirectory) findCases(child, out)
    }
}

fun copyTree(from: Path, to: Path) {
    Files.walk(from).use { paths ->
        for (source in paths) {
            val target = to.resolve(from.relativize(source).toString())
            if (Files.isDirectory(source)) Files.createDirectories(target)
            else Files.copy(source, target)
        }
    }
}

fun applySetup(tree: Path, setup: Json) {
    for (dir in setup["mkdir"].list) {
        Files.createDirectories(tree.resolve(dir.str ?: throw RunnerError("setup.mkdir entries are strings")))
    }
    for (link in setup["symlinks"].list) {
        val at = tree.resolve(link["link"].str ?: throw RunnerError("symlink.link"))
        val target = link["target"].str ?: throw RunnerError("symlink.target")
        at.parent?.let { Files.createDirectories(it) }
        Files.createSymbolicLink(at, Paths.get(target))
    }
}

fun resolved(tree: Path, value: Json, default: String): String =
    tree.resolve(value.str ?: default).toString()

fun stringList(value: Json): List<String> = value.list.map { it.str ?: throw RunnerError("expected strings in $value") }

fun floats(value: Json): List<Float> =
    value.list.map { (it as? Json.Num)?.value?.toFloat() ?: throw RunnerError("expected numbers in $value") }

fun stringMap(value: Json, tree: String): Map<String, String> =
    value.obj.mapValues { (_, v) -> (v.str ?: throw RunnerError("expected strings in $value")).replace("<tree>", tree) }

val deckKeys = setOf(
    "profile", "profile_file", "project_dir", "home_dir", "env", "system_root", "roots", "rules",
    "agent", "enable", "disable", "hide_unavailable", "read_host_settings", "nested",
)

/** A key the Kotlin API cannot pass on would silently change the vector: refuse it. */
fun onlyKeys(what: String, value: Json, known: Set<String>) {
    val unknown = value.obj.keys - known
    if (unknown.isNotEmpty()) throw RunnerError("unknown $what keys $unknown")
}

/** Build a Deck from `input.deck` with the vector defaults of tests/README.md. */
fun deck(tree: Path, options: Json): Deck {
    onlyKeys("input.deck", options, deckKeys)
    val roots = options["roots"].list.map { root ->
        RootSpec(
            path = resolved(tree, root["path"], "."),
            scope = Scope.valueOf((root["scope"].str ?: "extra").uppercase()),
            pattern = root["pattern"].str,
        )
    }
    val rules = options["rules"].takeIf { it != Json.Null }?.let { PermissionRules(it.toString()) }
    return Deck(
        profile = options["profile"].str ?: "universal",
        projectDir = resolved(tree, options["project_dir"], "project"),
        homeDir = resolved(tree, options["home_dir"], "home"),
        env = stringMap(options["env"], tree.toString()),
        systemRoot = resolved(tree, options["system_root"], "."),
        roots = roots,
        rules = rules,
        agent = options["agent"].str,
        enable = stringList(options["enable"]),
        disable = stringList(options["disable"]),
        hideUnavailable = options["hide_unavailable"].bool ?: false,
        readHostSettings = options["read_host_settings"].bool ?: true,
        nested = options["nested"].bool ?: false,
        profileFile = options["profile_file"].str?.let { tree.resolve(it).toString() },
    )
}

fun applyChanges(tree: Path, changes: Json) {
    for (change in changes.list) {
        val write = change["write"].str
        val remove = change["remove"].str
        if (write != null) {
            val path = tree.resolve(write)
            val previous = if (Files.exists(path)) Files.getLastModifiedTime(path).toMillis() else System.currentTimeMillis()
            path.parent?.let { Files.createDirectories(it) }
            Files.writeString(path, change["text"].str ?: "")
            // A stat-based cache must see the change: move the mtime 2 s past its old value.
            Files.setLastModifiedTime(path, FileTime.fromMillis(previous + 2000))
        } else if (remove != null) {
            val path = tree.resolve(remove).toFile()
            val removed = if (path.isDirectory) path.deleteRecursively() else path.delete()
            if (!removed) throw RunnerError("could not remove $path")
        } else {
            throw RunnerError("a change is {write, text} or {remove}: $change")
        }
    }
}

fun errorJson(e: SkillException): Json =
    Json.Obj(linkedMapOf("error" to Json.Obj(linkedMapOf("code" to Json.Str(e.code)))))

fun runOperation(tree: Path, case: Json): Json {
    val input = case["input"]
    return try {
        when (val op = case["operation"].str) {
            "parse" -> Json.parse(dev.skilldeck.parse(input["text"].str ?: "").toJson())
            "validate" -> {
                val reports = dev.skilldeck.validate(
                    tree.resolve(input["path"].str ?: ".").toString(),
                    input["strict"].bool ?: false,
                )
                Json.Arr(reports.map { Json.parse(it.toJson()) })
            }
            "discover" -> Json.parse(deck(tree, input["deck"]).use { it.load().use { c -> c.toJson() } })
            "reload" -> deck(tree, input["deck"]).use { d ->
                d.load().close()
                applyChanges(tree, input["changes"])
                Json.parse(d.reload().toJson())
            }
            "permissions" -> PermissionRules(input["rules"].toString()).use { rules ->
                val agent = input["agent"].str
                val decisions = LinkedHashMap<String, Json>()
                for (id in stringList(input["ids"])) {
                    decisions[id] = Json.Str(rules.evaluate(id, agent).name.lowercase())
                }
                Json.Obj(linkedMapOf("decisions" to Json.Obj(decisions), "tool_disabled" to Json.Bool(rules.toolDisabled(agent))))
            }
            "render" -> deck(tree, input["deck"]).use { d ->
                val r = input["render"]
                onlyKeys("input.render", r, setOf("format", "budget_chars", "budget_tokens", "agent", "usage", "query", "pinned"))
                val usage = r["usage"].obj.mapValues { (_, v) -> (v.long ?: throw RunnerError("usage counts are integers")).toULong() }
                Json.parse(
                    d.render(
                        format = r["format"].str ?: "xml",
                        budgetChars = r["budget_chars"].long?.toULong(),
                        budgetTokens = r["budget_tokens"].long?.toULong(),
                        agent = r["agent"].str,
                        usage = usage,
                        query = r["query"].str,
                        pinned = stringList(r["pinned"]),
                    ).toJson(),
                )
            }
            "search" -> deck(tree, input["deck"]).use { d ->
                val s = input["search"]
                onlyKeys("input.search", s, setOf("query", "limit", "all", "body", "embeddings", "query_embedding"))
                Json.parse(
                    d.search(
                        query = s["query"].str ?: "",
                        limit = s["limit"].long?.toULong() ?: 10uL,
                        all = s["all"].bool ?: false,
                        body = s["body"].bool ?: false,
                        embeddings = s["embeddings"].takeIf { it != Json.Null }?.obj?.mapValues { (_, v) -> floats(v) },
                        queryEmbedding = s["query_embedding"].takeIf { it != Json.Null }?.let { floats(it) },
                    ).toJson(),
                )
            }
            "activate" -> deck(tree, input["deck"]).use { d ->
                val a = input["activate"]
                onlyKeys(
                    "input.activate",
                    a,
                    setOf("args", "vars", "format", "agent", "session_id", "read_files", "allow_commands"),
                )
                Json.parse(
                    d.activate(
                        id = input["id"].str ?: "",
                        args = a["args"].str ?: "",
                        vars = stringMap(a["vars"], tree.toString()),
                        format = a["format"].str ?: "raw",
                        agent = a["agent"].str,
                        sessionId = a["session_id"].str,
                        readFiles = a["read_files"].bool ?: false,
                        allowCommands = a["allow_commands"].takeIf { it != Json.Null }?.let { stringList(it) },
                    ).toJson(),
                )
            }
            "audit" -> Json.parse(dev.skilldeck.audit(tree.resolve(input["path"].str ?: ".").toString()).toJson())
            else -> throw RunnerError("unknown operation `$op`")
        }
    } catch (e: SkillException) {
        errorJson(e)
    }
}

fun normalise(value: Json, tree: String): Json = when (value) {
    is Json.Str -> Json.Str(value.value.replace(tree, "<tree>"))
    is Json.Arr -> Json.Arr(value.items.map { normalise(it, tree) })
    is Json.Obj -> Json.Obj(LinkedHashMap(value.fields.mapValues { (_, v) -> normalise(v, tree) }))
    else -> value
}

/** Subset match (tests/README.md): the JSON path of the first mismatch, or null. */
fun mismatch(expected: Json, actual: Json, at: String): String? = when {
    expected is Json.Obj && actual is Json.Obj -> expected.fields.entries.firstNotNullOfOrNull { (k, v) ->
        val a = actual.fields[k]
        when {
            a != null -> mismatch(v, a, "$at.$k")
            v == Json.Null -> null
            else -> "$at.$k: missing"
        }
    }
    expected is Json.Arr && actual is Json.Arr ->
        if (expected.items.size != actual.items.size) "$at: expected ${expected.items.size} items, got ${actual.items.size}"
        else expected.items.indices.firstNotNullOfOrNull { i -> mismatch(expected.items[i], actual.items[i], "$at[$i]") }
    expected is Json.Num && actual is Json.Num ->
        if (expected.value.compareTo(actual.value) == 0) null else "$at: expected $expected, got $actual"
    expected == actual -> null
    else -> "$at: expected $expected, got $actual"
}

fun runCase(dir: File): String? {
    val case = Json.parse(File(dir, "case.json").readText())
    val temp = Files.createTempDirectory("skilldeck-vector")
    try {
        val tree = temp.toRealPath()
        val treeDir = File(dir, "tree")
        if (treeDir.isDirectory) copyTree(treeDir.toPath(), tree)
        applySetup(tree, case["setup"])
        val actual = normalise(runOperation(tree, case), tree.toString())
        return mismatch(case["expected"], actual, "$")?.let { "$it\nactual: $actual" }
    } finally {
        temp.toFile().deleteRecursively()
    }
}

fun main(args: Array<String>) {
    val root = File(args.firstOrNull() ?: "tests/vectors")
    repoRoot = root.absoluteFile.parentFile.parentFile
    val cases = mutableListOf<File>()
    findCases(root, cases)
    if (cases.isEmpty()) {
        println("no vectors under $root")
        exitProcess(1)
    }
    var passed = 0
    var failed = 0
    for (dir in cases) {
        val name = dir.relativeTo(root).path
        val why = try {
            runCase(dir)
        } catch (e: Exception) {
            "runner error: ${e::class.simpleName}: ${e.message}"
        }
        if (why == null) {
            passed++
            println("ok     $name")
        } else {
            failed++
            println("FAILED $name: $why")
        }
    }
    for ((name, body) in apiChecks + engineChecks + auditChecks + pluginChecks + mcpChecks) {
        val why = try {
            body()
            null
        } catch (e: Exception) {
            "${e::class.simpleName}: ${e.message}"
        }
        if (why == null) {
            passed++
            println("ok     $name")
        } else {
            failed++
            println("FAILED $name: $why")
        }
    }
    println("$passed passed, $failed failed")
    exitProcess(if (failed == 0) 0 else 1)
}
