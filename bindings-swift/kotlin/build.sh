#!/usr/bin/env bash
# Compiles the generated Kotlin bindings into build/skilldeck.jar and the conformance
# program into build/conformance.jar, with warnings as errors. No Gradle: kotlinc + JNA.
# Env: KOTLINC (default: kotlinc on PATH), JNA_JAR (default: Debian's /usr/share/java/jna.jar).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kotlinc="${KOTLINC:-kotlinc}"
jna="${JNA_JAR:-/usr/share/java/jna.jar}"
[ -f "$jna" ] || { echo "JNA not found at $jna (Debian: apt-get install libjna-java)" >&2; exit 1; }

mkdir -p "$here/build"
"$kotlinc" -Werror -cp "$jna" -d "$here/build/skilldeck.jar" "$here/src"
"$kotlinc" -Werror -cp "$jna:$here/build/skilldeck.jar" -d "$here/build/conformance.jar" "$here/test"
echo "built $here/build/skilldeck.jar and $here/build/conformance.jar"
