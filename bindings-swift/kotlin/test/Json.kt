// A small JSON reader/writer for the conformance runner (test code only: the bindings hand
// out JSON text and no JSON library is available without Gradle).
package dev.skilldeck.conformance

import java.math.BigDecimal

sealed class Json {
    data class Obj(val fields: LinkedHashMap<String, Json>) : Json()
    data class Arr(val items: List<Json>) : Json()
    data class Str(val value: String) : Json()
    data class Num(val value: BigDecimal) : Json()
    data class Bool(val value: Boolean) : Json()
    object Null : Json()

    operator fun get(key: String): Json = (this as? Obj)?.fields?.get(key) ?: Null

    val str: String? get() = (this as? Str)?.value
    val bool: Boolean? get() = (this as? Bool)?.value
    val long: Long? get() = (this as? Num)?.value?.toLong()
    val list: List<Json> get() = (this as? Arr)?.items ?: emptyList()
    val obj: Map<String, Json> get() = (this as? Obj)?.fields ?: emptyMap()

    final override fun toString(): String = StringBuilder().also { write(this, it) }.toString()

    companion object {
        fun parse(text: String): Json = Reader(text).readDocument()

        fun write(value: Json, out: StringBuilder) {
            when (value) {
                is Obj -> {
                    out.append('{')
                    value.fields.entries.forEachIndexed { i, (k, v) ->
                        if (i > 0) out.append(',')
                        writeString(k, out)
                        out.append(':')
                        write(v, out)
                    }
                    out.append('}')
                }
                is Arr -> {
                    out.append('[')
                    value.items.forEachIndexed { i, v ->
                        if (i > 0) out.append(',')
                        write(v, out)
                    }
                    out.append(']')
                }
                is Str -> writeString(value.value, out)
                is Num -> out.append(value.value.toPlainString())
                is Bool -> out.append(value.value)
                Null -> out.append("null")
            }
        }

        private fun writeString(s: String, out: StringBuilder) {
            out.append('"')
            for (c in s) {
                when {
                    c == '"' -> out.append("\\\"")
                    c == '\\' -> out.append("\\\\")
                    c == '\n' -> out.append("\\n")
                    c == '\r' -> out.append("\\r")
                    c == '\t' -> out.append("\\t")
                    c < ' ' -> out.append(String.format("\\u%04x", c.code))
                    else -> out.append(c)
                }
            }
            out.append('"')
        }
    }

    private class Reader(val text: String) {
        var pos = 0

        fun readDocument(): Json {
            val value = readValue()
            skipSpace()
            if (pos != text.length) fail("trailing characters")
            return value
        }

        fun fail(why: String): Nothing = throw IllegalArgumentException("JSON: $why at offset $pos")

        fun skipSpace() {
            while (pos < text.length && text[pos] in " \t\r\n") pos++
        }

        fun expect(c: Char) {
            skipSpace()
            if (pos >= text.length || text[pos] != c) fail("expected '$c'")
            pos++
        }

        fun readValue(): Json {
            skipSpace()
            if (pos >= text.length) fail("unexpected end")
            return when (val c = text[pos]) {
                '{' -> readObject()
                '[' -> readArray()
                '"' -> Str(readString())
                't' -> literal("true", Bool(true))
                'f' -> literal("false", Bool(false))
                'n' -> literal("null", Null)
                else -> if (c == '-' || c.isDigit()) readNumber() else fail("unexpected '$c'")
            }
        }

        fun literal(word: String, value: Json): Json {
            if (!text.startsWith(word, pos)) fail("expected $word")
            pos += word.length
            return value
        }

        fun readObject(): Json {
            expect('{')
            val fields = LinkedHashMap<String, Json>()
            skipSpace()
            if (pos < text.length && text[pos] == '}') {
                pos++
                return Obj(fields)
            }
            while (true) {
                skipSpace()
                val key = readString()
                expect(':')
                fields[key] = readValue()
                skipSpace()
                if (pos < text.length && text[pos] == ',') {
                    pos++
                    continue
                }
                expect('}')
                return Obj(fields)
            }
        }

        fun readArray(): Json {
            expect('[')
            val items = ArrayList<Json>()
            skipSpace()
            if (pos < text.length && text[pos] == ']') {
                pos++
                return Arr(items)
            }
            while (true) {
                items.add(readValue())
                skipSpace()
                if (pos < text.length && text[pos] == ',') {
                    pos++
                    continue
                }
                expect(']')
                return Arr(items)
            }
        }

        fun readString(): String {
            if (pos >= text.length || text[pos] != '"') fail("expected a string")
            pos++
            val out = StringBuilder()
            while (true) {
                if (pos >= text.length) fail("unterminated string")
                val c = text[pos++]
                when (c) {
                    '"' -> return out.toString()
                    '\\' -> {
                        if (pos >= text.length) fail("unterminated escape")
                        when (val e = text[pos++]) {
                            '"' -> out.append('"')
                            '\\' -> out.append('\\')
                            '/' -> out.append('/')
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000c')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (pos + 4 > text.length) fail("short \\u escape")
                                out.append(text.substring(pos, pos + 4).toInt(16).toChar())
                                pos += 4
                            }
                            else -> fail("bad escape '\\$e'")
                        }
                    }
                    else -> out.append(c)
                }
            }
        }

        fun readNumber(): Json {
            val start = pos
            while (pos < text.length && (text[pos].isDigit() || text[pos] in "+-.eE")) pos++
            return try {
                Num(BigDecimal(text.substring(start, pos)))
            } catch (e: NumberFormatException) {
                fail("bad number ${text.substring(start, pos)}")
            }
        }
    }
}
