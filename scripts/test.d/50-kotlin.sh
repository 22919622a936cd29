#!/usr/bin/env bash
# Kotlin (and Swift sources): lint the uniffi crates, regenerate the bindings with the pinned
# uniffi-bindgen and fail if the committed Kotlin/Swift sources are stale, compile the Kotlin
# bindings with warnings as errors, and run every conformance vector through the Kotlin API.
# Installs what it needs on a fresh Debian/Ubuntu: kotlinc (npm `kotlin-compiler`, pinned)
# and JNA (`libjna-java`). Java 17+ must already be there.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
source scripts/lib/target-dir.sh

KOTLIN_VERSION=2.4.20
tools="$target_dir/tools/kotlin-compiler-$KOTLIN_VERSION"
kotlin_home="$tools/node_modules/kotlin-compiler"
if [ ! -x "$kotlin_home/bin/kotlinc" ]; then
  echo "installing kotlin-compiler@$KOTLIN_VERSION (npm) into $tools"
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --no-save "kotlin-compiler@$KOTLIN_VERSION" >/dev/null
fi
export KOTLINC="$kotlin_home/bin/kotlinc"

export JNA_JAR="${JNA_JAR:-/usr/share/java/jna.jar}"
if [ ! -f "$JNA_JAR" ]; then
  echo "installing libjna-java (apt)"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq libjna-java >/dev/null
fi
command -v java >/dev/null || { echo "java not found: install a JDK (17+)" >&2; exit 1; }

echo "--- clippy + unit tests (skilldeck-uniffi, uniffi-bindgen)"
cargo clippy --locked -p skilldeck-uniffi -p uniffi-bindgen --all-targets -- -D warnings
cargo test --locked -p skilldeck-uniffi

echo "--- regenerate bindings and compare with the committed sources"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
bash bindings-swift/generate.sh "$fresh"
stale=0
for file in kotlin/src/dev/skilldeck/skilldeck.kt swift/Sources/SkillDeck/SkillDeck.swift \
  swift/Headers/SkillDeckFFI.h swift/Headers/module.modulemap; do
  if ! diff -u "bindings-swift/$file" "$fresh/$file" >"$fresh/diff.txt"; then
    echo "bindings-swift/$file is stale: run bindings-swift/generate.sh and commit the result" >&2
    head -40 "$fresh/diff.txt" >&2
    stale=1
  fi
done
[ $stale = 0 ]

echo "--- compile Kotlin (kotlinc $KOTLIN_VERSION, -Werror)"
bash bindings-swift/kotlin/build.sh

echo "--- conformance vectors through the Kotlin API"
# Run from a directory whose name is not UTF-8, with a variable that is not UTF-8 either:
# Java can create neither, and `Deck()` must read both (the
# api/non-utf8-environment-and-working-directory check looks for the probe skill in ".").
odd="$fresh/cwd-$(printf '\377')"
mkdir -p "$odd/.agents/skills/cwd-probe"
printf -- '---\nname: cwd-probe\ndescription: Found from a directory whose name is not UTF-8.\n---\nBody\n' \
  >"$odd/.agents/skills/cwd-probe/SKILL.md"
(cd "$odd" && env "SKILLDECK_ODD_$(printf '\377')=$(printf '\376')" SKILLDECK_TEST_CWD_SKILL=cwd-probe \
  java -Djna.library.path="$target_dir/debug" \
  -cp "$JNA_JAR:$kotlin_home/lib/kotlin-stdlib.jar:$root/bindings-swift/kotlin/build/skilldeck.jar:$root/bindings-swift/kotlin/build/conformance.jar" \
  dev.skilldeck.conformance.ConformanceKt "$root/tests/vectors")

echo "--- examples/agent-loop/Agent.kt (scripted model, sandboxed tool run)"
"$KOTLINC" -Werror -cp "$JNA_JAR:$root/bindings-swift/kotlin/build/skilldeck.jar" \
  -d "$root/bindings-swift/kotlin/build/agent-loop.jar" examples/agent-loop/Agent.kt
agent_out="$(java -Djna.library.path="$target_dir/debug" \
  -cp "$JNA_JAR:$kotlin_home/lib/kotlin-stdlib.jar:$root/bindings-swift/kotlin/build/skilldeck.jar:$root/bindings-swift/kotlin/build/agent-loop.jar" \
  dev.skilldeck.examples.AgentKt examples/agent-loop/project)"
echo "$agent_out"
expected='The tool says: {"words": 9, "lines": 2, "chars": 43}'
# Every tool was called on the way (search, load, run), then the model answered.
for line in '^tool search_skills -> ' '^tool skill -> # Word count' '^tool word-count -> {"words": 9'; do
  grep -q "$line" <<<"$agent_out" || { echo "examples/agent-loop/Agent.kt printed no line matching $line" >&2; exit 1; }
done
if [ "$(tail -n 1 <<<"$agent_out")" != "$expected" ]; then
  echo "examples/agent-loop/Agent.kt answered $(tail -n 1 <<<"$agent_out"), expected $expected" >&2
  exit 1
fi
