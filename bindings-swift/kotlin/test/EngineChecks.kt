// Checks of install, run, tools and doctor through the Kotlin API (the ports of
// bindings-python/tests/test_{install,run,tools,api}.py).
package dev.skilldeck.conformance

import dev.skilldeck.AddOptions
import dev.skilldeck.CancelToken
import dev.skilldeck.Deck
import dev.skilldeck.Event
import dev.skilldeck.EventListener
import dev.skilldeck.InstallOptions
import dev.skilldeck.InstallProgress
import dev.skilldeck.ProgressListener
import dev.skilldeck.RunOptions
import dev.skilldeck.SkillException
import dev.skilldeck.TreeDiff
import dev.skilldeck.code
import dev.skilldeck.detail
import dev.skilldeck.path
import java.nio.file.Files
import java.nio.file.Path
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

val SHA256 = Regex("^sha256:[0-9a-f]{64}$")

const val HELLO = "---\nname: hello\ndescription: Say hello to someone.\n---\n# Hello\n\nGreet the user by name.\n"

fun write(path: Path, text: String, executable: Boolean = false) {
    Files.createDirectories(path.parent)
    Files.writeString(path, text)
    if (executable) path.toFile().setExecutable(true)
}

fun withTemp(body: (Path) -> Unit) {
    val temp = Files.createTempDirectory("skilldeck-engine").toRealPath()
    try {
        body(temp)
    } finally {
        temp.toFile().deleteRecursively()
    }
}

/** `<root>/hello/` with SKILL.md and a helper file. */
fun makeSource(root: Path): Path {
    val skill = root.resolve("hello")
    write(skill.resolve("SKILL.md"), HELLO)
    write(skill.resolve("scripts/greet.sh"), "#!/bin/sh\necho hello\n")
    return skill
}

fun git(cwd: Path, vararg args: String): String {
    val process = ProcessBuilder(listOf("git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid") + args)
        .directory(cwd.toFile())
        .redirectErrorStream(true)
        .start()
    val out = process.inputStream.bufferedReader().readText().trim()
    check(process.waitFor() == 0) { "git ${args.toList()} failed: $out" }
    return out
}

class Phases : ProgressListener {
    val phases: MutableList<String> = Collections.synchronizedList(mutableListOf())
    override fun onProgress(progress: InstallProgress) {
        phases.add(progress.phase)
    }
}

class InstallTree(val root: Path) {
    val project: Path = root.resolve("project").also { Files.createDirectories(it) }
    val home: Path = root.resolve("home").also { Files.createDirectories(it) }
    val source: Path = makeSource(root.resolve("src"))
    val options = InstallOptions(projectDir = project.toString(), homeDir = home.toString())
    val installedDir: Path = project.resolve(".agents/skills/hello")
}

const val ECHO = """---
name: echo
description: Echo the input object back, with a greeting.
command: run.sh
parameters:
  - name: text
    type: string
    required: true
    description: What to echo.
  - name: times
    type: integer
    default: 1
    description: How often.
---
# Echo
"""

const val ECHO_SH = "#!/bin/sh\ninput=\$(cat)\necho \"starting\" >&2\nprintf '{\"got\": %s}\\n' \"\$input\"\n"
const val FAIL = "---\nname: fail\ndescription: Always fails with exit code 3.\ncommand: run.sh\n---\n"
const val FAIL_SH = "#!/bin/sh\necho \"failing\" >&2\nexit 3\n"
const val SLOW = "---\nname: slow\ndescription: Print its process id, then sleep for a long time.\ncommand: run.sh\n---\n"
const val SLOW_SH = "#!/bin/sh\necho \"\$\$\"\nexec sleep 30\n"
const val MAKER = "---\nname: maker\ndescription: Write report files from its arguments and standard input.\n---\n# Maker\n"
const val MAKE_SH = "#!/bin/sh\nmkdir -p reports\nprintf '%s|' \"\$@\" > reports/args.txt\ncat > reports/stdin.txt\necho \"made\"\n"

/** A project with the echo, fail, slow and maker skills, and a loaded deck on it. */
fun withRunProject(body: (Path, Deck, RunOptions) -> Unit) {
    withTemp { temp ->
        val root = temp.resolve("project")
        Files.createDirectories(root.resolve(".git"))
        val skills = root.resolve(".agents/skills")
        write(skills.resolve("echo/SKILL.md"), ECHO)
        write(skills.resolve("echo/run.sh"), ECHO_SH, executable = true)
        write(skills.resolve("fail/SKILL.md"), FAIL)
        write(skills.resolve("fail/run.sh"), FAIL_SH, executable = true)
        write(skills.resolve("slow/SKILL.md"), SLOW)
        write(skills.resolve("slow/run.sh"), SLOW_SH, executable = true)
        write(skills.resolve("maker/SKILL.md"), MAKER)
        write(skills.resolve("maker/scripts/make.sh"), MAKE_SH, executable = true)
        Deck(projectDir = root.toString(), homeDir = temp.toString(), readHostSettings = false).use { deck ->
            deck.load().close()
            body(root, deck, runMode(deck))
        }
    }
}

/** The default options (sandbox enforced) where the sandbox works here, else no sandbox,
 *  so the rest of the behaviour is still checked. */
fun runMode(deck: Deck): RunOptions = try {
    dev.skilldeck.runCommand(deck, "fail")
    RunOptions()
} catch (e: SkillException.RunException) {
    if (e.code != "SANDBOX_UNAVAILABLE") throw e
    println("note: the sandbox is not available here; run checks use sandbox = \"none\"")
    RunOptions(sandbox = "none")
}

class Events : EventListener {
    val events: MutableList<Event> = Collections.synchronizedList(mutableListOf())
    override fun onEvent(event: Event) {
        events.add(event)
    }
}

fun alive(pid: Long): Boolean = ProcessHandle.of(pid).map { it.isAlive }.orElse(false)

val engineChecks: List<Pair<String, () -> Unit>> = listOf(
    "install/add-from-a-local-directory-verify-tamper-remove" to {
        withTemp { temp ->
            val t = InstallTree(temp)
            val progress = Phases()
            val report = dev.skilldeck.add(t.source.toString(), options = t.options, progress = progress)
            check(report.installed.map { it.name } == listOf("hello")) { "installed ${report.installed}" }
            val entry = report.installed[0].entry
            check(entry.sourceType == "local" && entry.path == ".agents/skills/hello") { "entry $entry" }
            check(SHA256.matches(entry.digest)) { "digest ${entry.digest}" }
            check(entry.files.keys == setOf("SKILL.md", "scripts/greet.sh")) { "files ${entry.files}" }
            check(entry.files.values.all { SHA256.matches(it) }) { "file digests ${entry.files}" }
            check(Files.readString(t.installedDir.resolve("SKILL.md")) == HELLO) { "installed SKILL.md" }
            val lock = Json.parse(Files.readString(t.project.resolve("skills-lock.json")))
            check(lock["skills"]["hello"]["digest"].str == entry.digest) { "lock $lock" }
            check(progress.phases.isNotEmpty() && progress.phases.all { it in setOf("fetch", "stage", "install", "verify", "lock") }) {
                "phases ${progress.phases}"
            }

            val listed = dev.skilldeck.installed(t.options)
            check(listed.map { it.name } == listOf("hello") && listed[0].entry == entry) { "installed() $listed" }
            val clean = dev.skilldeck.verify(t.options)
            check(clean.clean && clean.skills.single().diff == TreeDiff(listOf(), listOf(), listOf())) { "verify $clean" }

            Files.writeString(t.installedDir.resolve("SKILL.md"), HELLO + "tampered\n")
            Files.writeString(t.installedDir.resolve("extra.txt"), "new")
            Files.delete(t.installedDir.resolve("scripts/greet.sh"))
            val tampered = dev.skilldeck.verify(t.options)
            check(!tampered.clean) { "verify after tampering: $tampered" }
            check(tampered.skills.single().diff == TreeDiff(changed = listOf("SKILL.md"), added = listOf("extra.txt"), missing = listOf("scripts/greet.sh"))) {
                "diff ${tampered.skills}"
            }

            check(dev.skilldeck.remove(listOf("hello"), t.options).removed == listOf("hello")) { "remove" }
            check(!Files.exists(t.installedDir)) { "still installed" }
            check(dev.skilldeck.installed(t.options).isEmpty()) { "installed after remove" }
        }
    },
    "install/local-git-repository-commit-frozen-and-update" to {
        withTemp { temp ->
            val t = InstallTree(temp)
            val repo = temp.resolve("repo")
            Files.createDirectories(repo)
            git(repo, "init", "-q")
            makeSource(repo.resolve("skills"))
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", "skills")
            val head = git(repo, "rev-parse", "HEAD")

            val report = dev.skilldeck.add("file://$repo", options = t.options)
            val entry = report.installed.single().entry
            check(report.installed[0].name == "hello" && entry.sourceType == "git") { "entry $entry" }
            check(entry.commit == head && entry.subpath == "skills/hello") { "entry $entry" }

            // A later commit does not leak into a frozen install: it restores the locked commit.
            Files.writeString(repo.resolve("skills/hello/SKILL.md"), HELLO + "v2\n")
            git(repo, "commit", "-q", "-am", "v2")
            t.installedDir.toFile().deleteRecursively()
            val frozen = dev.skilldeck.installFrozen(t.options)
            check(frozen.restored == listOf("hello") && frozen.unchanged.isEmpty()) { "frozen $frozen" }
            check(Files.readString(t.installedDir.resolve("SKILL.md")) == HELLO) { "restored SKILL.md" }
            check(dev.skilldeck.verify(t.options).clean) { "verify after frozen" }
            val again = dev.skilldeck.installFrozen(t.options)
            check(again.restored.isEmpty() && again.unchanged == listOf("hello")) { "frozen again $again" }

            val planned = dev.skilldeck.update(dryRun = true, options = t.options)
            val change = planned.changes.single()
            check(change.name == "hello" && change.fromCommit == head && change.toCommit != head) { "planned $planned" }
            check(!change.applied && change.files.changed == listOf("SKILL.md")) { "planned $change" }
            check(Files.readString(t.installedDir.resolve("SKILL.md")) == HELLO) { "dry run changed the skill" }
            val applied = dev.skilldeck.update(listOf("hello"), options = t.options)
            check(applied.changes.single().applied) { "applied $applied" }
            check(Files.readString(t.installedDir.resolve("SKILL.md")) == HELLO + "v2\n") { "updated SKILL.md" }
        }
    },
    "install/user-scope-and-errors" to {
        withTemp { temp ->
            val t = InstallTree(temp)
            val userLock = temp.resolve("config/skills-lock.json")
            val user = t.options.copy(scope = "user", userLock = userLock.toString())
            // A progress display that fails does not fail the install.
            val failing = object : ProgressListener {
                override fun onProgress(progress: InstallProgress) {
                    throw IllegalStateException("a display that always fails")
                }
            }
            dev.skilldeck.add(t.source.toString(), options = user, progress = failing)
            check(Files.isRegularFile(t.home.resolve(".agents/skills/hello/SKILL.md")) && Files.isRegularFile(userLock)) { "user install" }
            check(dev.skilldeck.installed(user).map { it.name } == listOf("hello")) { "user installed" }
            check(dev.skilldeck.installed(t.options).isEmpty()) { "project installed" }

            val bad = expectThrows<SkillException.InstallException> { dev.skilldeck.add(temp.resolve("missing").toString(), options = t.options) }
            check(bad.code == "BAD_SOURCE") { "code ${bad.code}" }
            val unknown = expectThrows<SkillException.InstallException> { dev.skilldeck.remove(listOf("nope"), t.options) }
            check(unknown.code == "NOT_FOUND" && unknown.detail.contains("nope")) { "remove nope: ${unknown.detail}" }
            val wrong = expectThrows<SkillException.InstallException> {
                dev.skilldeck.add(t.source.toString(), AddOptions(skills = listOf("other")), t.options)
            }
            check(wrong.code == "NOT_FOUND") { "code ${wrong.code}" }
            expectThrows<SkillException.InvalidOptionsException> { dev.skilldeck.installed(t.options.copy(scope = "global")) }

            // A modified installed copy is not replaced without force.
            dev.skilldeck.add(t.source.toString(), options = t.options)
            Files.writeString(t.installedDir.resolve("SKILL.md"), "mine")
            val modified = expectThrows<SkillException.InstallException> { dev.skilldeck.add(t.source.toString(), options = t.options) }
            check(modified.code == "MODIFIED" && modified.path != null) { "modified ${modified.code} ${modified.path}" }
            dev.skilldeck.add(t.source.toString(), AddOptions(force = true), t.options)
            check(Files.readString(t.installedDir.resolve("SKILL.md")) == HELLO) { "forced add" }

            val lock = t.project.resolve("skills-lock.json")
            Files.writeString(lock, "{not json")
            val corrupt = expectThrows<SkillException.InstallException> { dev.skilldeck.installed(t.options) }
            check(corrupt.code == "PARSE_ERROR" && corrupt.path == lock.toString()) { "corrupt lock ${corrupt.code} ${corrupt.path}" }
        }
    },
    "run/command-gets-json-on-stdin-and-streams-events" to {
        withRunProject { _, deck, mode ->
            val listener = Events()
            val outcome = dev.skilldeck.runCommand(deck, "echo", """{"text": "hi"}""", mode, onEvent = listener)
            check(outcome.exitCode == 0 && outcome.skill == "echo") { "outcome $outcome" }
            // The default for `times` is filled in before the skill sees its input.
            check(Json.parse(outcome.json ?: "null").toString() == """{"got":{"text":"hi","times":1}}""") { "json ${outcome.json}" }
            check(outcome.stdout.trim() == """{"got": {"text":"hi","times":1}}""") { "stdout ${outcome.stdout}" }
            check(outcome.stderr == "starting\n") { "stderr ${outcome.stderr}" }
            check(!outcome.timedOut && !outcome.cancelled && !outcome.truncated) { "flags $outcome" }
            val events = listener.events.toList()
            val started = events.first()
            check(started == Event.ExecStarted(id = "echo", kind = "command", target = "run.sh")) { "first event $started" }
            val finished = events.last()
            check(finished is Event.ExecFinished && finished.exitCode == 0 && finished.id == "echo" && finished.kind == "command") { "last event $finished" }
            val output = events.drop(1).dropLast(1)
            check(output.all { it is Event.ExecOutput && it.id == "echo" }) { "middle events $output" }
            val stdout = output.filterIsInstance<Event.ExecOutput>().filter { it.stream == "stdout" }.joinToString("") { it.text }
            check(stdout == outcome.stdout) { "streamed stdout $stdout" }

            // A listener that throws changes nothing: the run goes on to its outcome.
            val again = dev.skilldeck.runCommand(deck, "echo", """{"text": "hi"}""", mode, onEvent = Thrower())
            check(again.exitCode == 0 && again.stdout == outcome.stdout) { "with a failing listener: $again" }

            val failed = dev.skilldeck.runCommand(deck, "fail", options = mode)
            check(failed.exitCode == 3 && failed.stderr == "failing\n" && failed.json == null) { "fail $failed" }
        }
    },
    "run/invalid-input-has-problems-and-runs-nothing" to {
        withRunProject { _, deck, mode ->
            val listener = Events()
            val e = expectThrows<SkillException.InvalidInputException> {
                dev.skilldeck.runCommand(deck, "echo", """{"text": 5}""", mode, onEvent = listener)
            }
            check(e.code == "INVALID_INPUT") { "code ${e.code}" }
            check(e.problems == listOf("`text`: 5 is not of type \"string\"")) { "problems ${e.problems}" }
            check(listener.events.isEmpty()) { "events ${listener.events}" }
            val missing = expectThrows<SkillException.InvalidInputException> { dev.skilldeck.runCommand(deck, "echo", "{}", mode) }
            check(missing.problems[0].contains("text")) { "problems ${missing.problems}" }
            expectThrows<SkillException.InvalidOptionsException> { dev.skilldeck.runCommand(deck, "echo", "{not json", mode) }
            expectThrows<SkillException.InvalidOptionsException> { dev.skilldeck.runCommand(deck, "echo", "{}", mode.copy(timeout = -1.0)) }
        }
    },
    "run/script-artifacts-and-refusals" to {
        withRunProject { project, deck, mode ->
            val outcome = dev.skilldeck.runScript(deck, "maker", "make.sh", listOf("a b", "c"), stdin = "from stdin", destination = "out", options = mode)
            check(outcome.exitCode == 0 && outcome.stdout == "made\n") { "outcome $outcome" }
            val out = project.resolve("out/reports")
            check(Files.readString(out.resolve("args.txt")) == "a b|c|") { "args.txt" }
            check(Files.readString(out.resolve("stdin.txt")) == "from stdin") { "stdin.txt" }
            check(outcome.artifacts.sorted() == listOf(out.resolve("args.txt").toString(), out.resolve("stdin.txt").toString())) {
                "artifacts ${outcome.artifacts}"
            }
            val outside = expectThrows<SkillException.RunException> { dev.skilldeck.runScript(deck, "maker", "make.sh", destination = "/tmp/elsewhere", options = mode) }
            check(outside.code == "DESTINATION_REFUSED") { "code ${outside.code}" }
            val escape = expectThrows<SkillException.RunException> { dev.skilldeck.runScript(deck, "maker", "../SKILL.md", options = mode) }
            check(escape.code == "SCRIPT_REFUSED") { "code ${escape.code}" }
            val unknown = expectThrows<SkillException.RunException> { dev.skilldeck.runCommand(deck, "nope", options = mode) }
            check(unknown.code == "NOT_FOUND") { "code ${unknown.code}" }
            val notCommand = expectThrows<SkillException.RunException> { dev.skilldeck.runCommand(deck, "maker", options = mode) }
            check(notCommand.code == "NOT_RUNNABLE") { "code ${notCommand.code}" }
        }
    },
    "run/concurrent-runs-from-threads" to {
        withRunProject { _, deck, mode ->
            val results = java.util.concurrent.ConcurrentHashMap<Int, String>()
            val threads = (0 until 4).map { i ->
                Thread {
                    val outcome = dev.skilldeck.runCommand(deck, "echo", "{\"text\": \"t$i\"}", mode)
                    results[i] = Json.parse(outcome.json ?: "null")["got"]["text"].str ?: "?"
                }
            }
            threads.forEach { it.start() }
            threads.forEach { it.join() }
            check(results == (0 until 4).associateWith { "t$it" }) { "results $results" }
        }
    },
    "run/timeout-kills-the-process-group" to {
        withRunProject { _, deck, mode ->
            val outcome = dev.skilldeck.runCommand(deck, "slow", options = mode.copy(timeout = 0.5))
            check(outcome.timedOut && outcome.exitCode == null && !outcome.cancelled) { "outcome $outcome" }
            val pid = outcome.stdout.trim().toLong()
            check(!alive(pid)) { "process $pid still alive" }
        }
    },
    "run/cancel-from-another-thread" to {
        withRunProject { _, deck, mode ->
            val token = CancelToken()
            check(!token.isCancelled()) { "a new token is cancelled" }
            val printed = CountDownLatch(1)
            // Cancel once the skill printed its pid, from a thread of our own: no timing.
            val canceller = Thread {
                if (printed.await(30, TimeUnit.SECONDS)) token.cancel()
            }
            canceller.start()
            val listener = object : EventListener {
                override fun onEvent(event: Event) {
                    if (event is Event.ExecOutput && event.stream == "stdout") printed.countDown()
                }
            }
            val outcome = dev.skilldeck.runCommand(deck, "slow", options = mode, cancel = token, onEvent = listener)
            canceller.join()
            check(token.isCancelled()) { "token not cancelled" }
            check(outcome.cancelled && !outcome.timedOut && outcome.exitCode == null) { "outcome $outcome" }
            val pid = outcome.stdout.trim().toLong()
            check(!alive(pid)) { "process $pid still alive" }
        }
    },
    "run/call-tool-runs-a-model-tool-call" to {
        withRunProject { project, deck, mode ->
            val names = deck.load().use { catalog ->
                Json.parse(dev.skilldeck.toolDefinitions(catalog)).list.map { it["function"]["name"].str }
            }
            check("echo" in names && "run_skill_script" in names) { "tools $names" }
            val outcome = dev.skilldeck.callTool(deck, "echo", """{"text": "model"}""", mode)
            check(Json.parse(outcome.json ?: "null")["got"]["text"].str == "model") { "json ${outcome.json}" }
            val script = dev.skilldeck.callTool(
                deck, "run_skill_script",
                """{"skill_name": "maker", "script_name": "make.sh", "args": ["t"], "destination_path": "t"}""", mode,
            )
            check(script.exitCode == 0 && Files.readString(project.resolve("t/reports/args.txt")) == "t|") { "script $script" }
            val unknown = expectThrows<SkillException.RunException> { dev.skilldeck.callTool(deck, "no_such_tool", "{}", mode) }
            check(unknown.code == "NOT_FOUND") { "code ${unknown.code}" }
            expectThrows<SkillException.InvalidInputException> { dev.skilldeck.callTool(deck, "run_skill_script", """{"skill_name": "maker"}""", mode) }
            expectThrows<SkillException.InvalidInputException> { dev.skilldeck.callTool(deck, "echo", """["not", "an", "object"]""", mode) }
        }
    },
    "tools/definitions-and-results-per-format" to {
        withRunProject { _, deck, _ ->
            check(dev.skilldeck.toolFormats() == listOf("openai", "anthropic", "vercel")) { "formats ${dev.skilldeck.toolFormats()}" }
            deck.load().use { catalog ->
                val openai = Json.parse(dev.skilldeck.toolDefinitions(catalog, "openai")).list
                check(openai.all { it["type"].str == "function" }) { "openai $openai" }
                val echo = openai.single { it["function"]["name"].str == "echo" }["function"]
                check(echo["parameters"]["required"].list.map { it.str } == listOf("text")) { "echo $echo" }
                val anthropic = Json.parse(dev.skilldeck.toolDefinitions(catalog, "anthropic")).list
                check(anthropic.map { it["name"].str } == openai.map { it["function"]["name"].str }) { "anthropic $anthropic" }
                check(anthropic.all { it["input_schema"]["type"].str == "object" }) { "anthropic $anthropic" }
                val vercel = Json.parse(dev.skilldeck.toolDefinitions(catalog, "vercel")).list
                check(vercel.all { it["inputSchema"]["type"].str == "object" }) { "vercel $vercel" }
                val agent = Json.parse(dev.skilldeck.agentTools(catalog, "anthropic")).list.map { it["name"].str }
                check(agent.take(2) == listOf("skill", "search_skills") && agent.drop(2) == anthropic.map { it["name"].str }) { "agent tools $agent" }
                expectThrows<SkillException.InvalidOptionsException> { dev.skilldeck.toolDefinitions(catalog, "html") }
            }
            check(Json.parse(dev.skilldeck.skillTool())["function"]["name"].str == "skill") { dev.skilldeck.skillTool() }
            check(Json.parse(dev.skilldeck.searchSkillsTool("anthropic"))["name"].str == "search_skills") { dev.skilldeck.searchSkillsTool("anthropic") }
            check(Json.parse(dev.skilldeck.runSkillScriptTool("vercel"))["name"].str == "run_skill_script") { dev.skilldeck.runSkillScriptTool("vercel") }
            val openai = Json.parse(dev.skilldeck.toolResult("openai", "c1", "echo", "out"))
            check(openai.toString() == """{"role":"tool","tool_call_id":"c1","content":"out"}""") { "openai result $openai" }
            val anthropic = Json.parse(dev.skilldeck.toolResult("anthropic", "c1", "echo", "bad", isError = true))
            check(anthropic["type"].str == "tool_result" && anthropic["tool_use_id"].str == "c1" && anthropic["is_error"].bool == true) { "anthropic result $anthropic" }
            val vercel = Json.parse(dev.skilldeck.toolResult("vercel", "c1", "echo", "bad", isError = true))
            check(vercel["toolName"].str == "echo" && vercel["output"]["type"].str == "error-text") { "vercel result $vercel" }
            expectThrows<SkillException.InvalidOptionsException> { dev.skilldeck.toolResult("html", "c1", "echo", "x") }
        }
    },
    "deck/doctor-and-compare-profiles" to {
        withTemp { temp ->
            val deep = temp.resolve(".agents/skills/group/deep")
            write(deep.resolve("SKILL.md"), "---\nname: deep\ndescription: too deep for qwen\n---\nBody.\n")
            val home = temp.resolve("h").toString()
            Deck(projectDir = temp.toString(), profile = "qwen-code", homeDir = home).use { deck ->
                val report = Json.parse(deck.doctor(deep.resolve("SKILL.md").toString()))
                check(report["profile"].str == "qwen-code" && report["skills"].long == 0L) { "report $report" }
                val target = report["target"]
                check(target["found"].bool == false) { "target $target" }
                val codes = target["files"].list[0]["findings"].list.map { it["code"].str }
                check("too-deep" in codes) { "codes $codes" }
            }
            Deck(projectDir = temp.toString(), homeDir = home).use { deck ->
                val found = Json.parse(deck.doctor("deep"))["target"]
                check(found["found"].bool == true && found["files"].list[0]["found"]["name"].str == "deep") { "found $found" }
                check(Json.parse(deck.doctor())["target"] == Json.Null) { "doctor() without a target" }
            }
        }
        withTemp { temp ->
            write(temp.resolve(".claude/skills/only-claude/SKILL.md"), "---\nname: only-claude\ndescription: d\n---\nBody.\n")
            Deck(projectDir = temp.toString(), homeDir = temp.resolve("h").toString()).use { deck ->
                val table = Json.parse(deck.compareProfiles(listOf("claude-code", "codex")))
                check(table["profiles"].list.map { it.str } == listOf("claude-code", "codex")) { "table $table" }
                val cells = table["rows"].list.single()["cells"].list.associate { it["profile"].str to it["ok"].bool }
                check(cells == mapOf("claude-code" to true, "codex" to false)) { "cells $cells" }
                expectThrows<SkillException.InvalidOptionsException> { deck.compareProfiles(listOf("no-such-profile")) }
            }
        }
    },
)
