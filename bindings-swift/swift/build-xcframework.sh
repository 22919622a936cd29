#!/usr/bin/env bash
# Builds bindings-swift/swift/SkillDeckFFI.xcframework (macOS only: needs Xcode's
# xcodebuild and lipo). The Swift sources and headers it pairs with are the committed,
# generated ones; run bindings-swift/generate.sh first if the Rust API changed.
# Usage: bindings-swift/swift/build-xcframework.sh [--debug]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ "$(uname -s)" = Darwin ] || { echo "build-xcframework.sh needs macOS (xcodebuild, lipo)" >&2; exit 1; }

profile=release
flag=--release
if [ "${1:-}" = --debug ]; then profile=debug; flag=; fi

targets=(aarch64-apple-darwin x86_64-apple-darwin aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios)
rustup target add "${targets[@]}"
cd "$root"
for t in "${targets[@]}"; do
  cargo rustc --locked $flag -p skilldeck-uniffi --lib --crate-type staticlib --target "$t"
done

lib=libskilldeck_uniffi.a
out="$root/target/xcframework"
rm -rf "$out" "$here/SkillDeckFFI.xcframework"
mkdir -p "$out/macos" "$out/ios-sim"
# One library per platform: fat archives join the two architectures of macOS and of the
# iOS simulator.
lipo -create "target/aarch64-apple-darwin/$profile/$lib" "target/x86_64-apple-darwin/$profile/$lib" \
  -output "$out/macos/$lib"
lipo -create "target/aarch64-apple-ios-sim/$profile/$lib" "target/x86_64-apple-ios/$profile/$lib" \
  -output "$out/ios-sim/$lib"

xcodebuild -create-xcframework \
  -library "$out/macos/$lib" -headers "$here/Headers" \
  -library "target/aarch64-apple-ios/$profile/$lib" -headers "$here/Headers" \
  -library "$out/ios-sim/$lib" -headers "$here/Headers" \
  -output "$here/SkillDeckFFI.xcframework"
echo "built $here/SkillDeckFFI.xcframework"
