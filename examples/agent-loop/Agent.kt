// An agent loop on skilldeck's tools with a scripted model (see README.md here).
// Compile against the Kotlin binding (bindings-swift/kotlin) and JNA, then run
//   java -Djna.library.path=<dir of libskilldeck_uniffi.so> -cp <jars> \
//     dev.skilldeck.examples.AgentKt examples/agent-loop/project
// scripts/test.d/50-kotlin.sh does both.
package dev.skilldeck.examples

import dev.skilldeck.Deck
import dev.skilldeck.SkillException
import dev.skilldeck.agentTools
import dev.skilldeck.callTool
import dev.skilldeck.toolResult

const val FORMAT = "openai"

/**
 * Stands in for a model: the reply to the conversation so far (JSON messages in OpenAI's
 * shape, as a provider's API takes them), as one JSON message. It searches, loads the
 * skill, calls its tool, then answers with what the tool returned.
 */
fun scriptedModel(messages: List<String>, tools: String): String {
    val offered = (parseJson(tools) as List<*>).map { tool -> field(field(tool, "function"), "name") }.toSet()
    val calls = messages.count { field(parseJson(it), "role") == "tool" }

    fun call(id: String, name: String, arguments: String): String =
        """{"role":"assistant","content":null,"tool_calls":[{"id":${quote(id)},"type":"function",""" +
            """"function":{"name":${quote(name)},"arguments":${quote(arguments)}}}]}"""

    return when {
        calls == 0 && "search_skills" in offered -> call("call-0", "search_skills", """{"query":"count words in a text"}""")
        calls == 1 && "skill" in offered -> call("call-1", "skill", """{"name":"word-count"}""")
        calls == 2 && "word-count" in offered ->
            call("call-2", "word-count", """{"text":"the quick brown fox\njumps over the lazy dog"}""")
        else -> {
            val last = field(parseJson(messages.last()), "content")
            """{"role":"assistant","content":${quote("The tool says: $last")}}"""
        }
    }
}

/** Run one tool call: the text for the model and whether it is an error. */
fun answer(deck: Deck, name: String, arguments: String): Pair<String, Boolean> = try {
    val parsed = parseJson(arguments)
    when (name) {
        "skill" -> deck.activate(field(parsed, "name") as String).text to false
        "search_skills" -> {
            val limit = (field(parsed, "limit") as? Double)?.toULong() ?: 10uL
            deck.search(field(parsed, "query") as String, limit = limit).toJson() to false
        }
        // `run_skill_script` and every command skill's tool: sandboxed, arguments checked
        // against the skill's parameters before anything runs.
        else -> {
            val outcome = callTool(deck, name, arguments)
            outcome.stdout to (outcome.exitCode != 0)
        }
    }
} catch (e: SkillException) {
    (e.message ?: e.toString()) to true
}

/** Run the loop on `project`'s skills; the model's final answer. */
fun agentLoop(project: String): String = Deck(projectDir = project).use { deck ->
    val tools = deck.load().use { catalog -> agentTools(catalog, FORMAT) }
    val messages = mutableListOf("""{"role":"user","content":"How many words are in my text?"}""")
    repeat(8) {
        val reply = scriptedModel(messages, tools)
        messages.add(reply)
        val calls = field(parseJson(reply), "tool_calls") as? List<*>
            ?: return field(parseJson(reply), "content") as String
        for (c in calls) {
            val id = field(c, "id") as String
            val name = field(field(c, "function"), "name") as String
            val (content, isError) = answer(deck, name, field(field(c, "function"), "arguments") as String)
            println("tool $name -> ${content.lineSequence().firstOrNull().orEmpty()}")
            messages.add(toolResult(FORMAT, id, name, content, isError))
        }
    }
    error("the model did not finish within 8 turns")
}

fun main(args: Array<String>) {
    println(agentLoop(args.firstOrNull() ?: "examples/agent-loop/project"))
}

// ---- a minimal JSON reader and string quoting, so that the example needs nothing but the
// binding; a real host uses its JSON library (kotlinx.serialization, org.json, ...). ----

fun field(value: Any?, key: String): Any? = (value as? Map<*, *>)?.get(key)

fun quote(text: String): String = buildString {
    append('"')
    for (c in text) {
        when {
            c == '"' -> append("\\\"")
            c == '\\' -> append("\\\\")
            c < ' ' -> append("\\u%04x".format(c.code))
            else -> append(c)
        }
    }
    append('"')
}

/** Objects become maps, arrays lists, numbers doubles. */
fun parseJson(text: String): Any? {
    var pos = 0
    fun skipSpace() {
        while (pos < text.length && text[pos].isWhitespace()) pos++
    }
    fun value(): Any? {
        skipSpace()
        when (text[pos]) {
            '{' -> {
                pos++
                val map = LinkedHashMap<String, Any?>()
                skipSpace()
                if (text[pos] == '}') return map.also { pos++ }
                while (true) {
                    val key = value() as String
                    skipSpace()
                    pos++ // ':'
                    map[key] = value()
                    skipSpace()
                    if (text[pos++] == '}') return map
                }
            }
            '[' -> {
                pos++
                val list = mutableListOf<Any?>()
                skipSpace()
                if (text[pos] == ']') return list.also { pos++ }
                while (true) {
                    list.add(value())
                    skipSpace()
                    if (text[pos++] == ']') return list
                }
            }
            '"' -> {
                pos++
                val out = StringBuilder()
                while (text[pos] != '"') {
                    val c = text[pos++]
                    if (c != '\\') {
                        out.append(c)
                        continue
                    }
                    when (val escaped = text[pos++]) {
                        'n' -> out.append('\n')
                        't' -> out.append('\t')
                        'r' -> out.append('\r')
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000c')
                        'u' -> out.append(text.substring(pos, pos + 4).toInt(16).toChar()).also { pos += 4 }
                        else -> out.append(escaped)
                    }
                }
                pos++
                return out.toString()
            }
            else -> {
                val start = pos
                while (pos < text.length && text[pos] !in ",]} \n\r\t") pos++
                return when (val word = text.substring(start, pos)) {
                    "true" -> true
                    "false" -> false
                    "null" -> null
                    else -> word.toDouble()
                }
            }
        }
    }
    return value()
}
