#!/usr/bin/env bash
# Regenerates the Kotlin and Swift sources from the compiled library with the pinned
# uniffi-bindgen. Usage: bindings-swift/generate.sh [OUT_ROOT]
#   OUT_ROOT defaults to bindings-swift/ itself (the committed sources); the test suite passes
#   a temporary directory and diffs it against the committed files to catch stale bindings.
# Writes: OUT_ROOT/kotlin/src/dev/skilldeck/skilldeck.kt
#         OUT_ROOT/swift/Sources/SkillDeck/SkillDeck.swift
#         OUT_ROOT/swift/Headers/{SkillDeckFFI.h,module.modulemap}
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${1:-$here}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cd "$root"
cargo build --locked -p skilldeck-uniffi -p uniffi-bindgen
source scripts/lib/target-dir.sh
case "$(uname -s)" in
  Darwin) lib="$target_dir/debug/libskilldeck_uniffi.dylib" ;;
  *) lib="$target_dir/debug/libskilldeck_uniffi.so" ;;
esac

gen="$(mktemp -d)"
trap 'rm -rf "$gen"' EXIT
# --no-format: ktlint/swiftformat may or may not be installed; unformatted output is the
# same on every machine, which the staleness check needs.
"$target_dir/debug/uniffi-bindgen" generate --library "$lib" --crate skilldeck_uniffi \
  --language kotlin --language swift --no-format --out-dir "$gen"

mkdir -p "$out/kotlin/src/dev/skilldeck" "$out/swift/Sources/SkillDeck" "$out/swift/Headers"
cp "$gen/dev/skilldeck/skilldeck.kt" "$out/kotlin/src/dev/skilldeck/skilldeck.kt"
cp "$gen/SkillDeck.swift" "$out/swift/Sources/SkillDeck/SkillDeck.swift"
cp "$gen/SkillDeckFFI.h" "$out/swift/Headers/SkillDeckFFI.h"
# An XCFramework's Headers/ must hold the module map under this exact name.
cp "$gen/SkillDeckFFI.modulemap" "$out/swift/Headers/module.modulemap"
echo "generated Kotlin and Swift sources under $out"
