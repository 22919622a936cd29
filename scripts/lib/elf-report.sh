#!/usr/bin/env bash
# Prints, for one ELF file (an addon, an extension module or the CLI), what a user's system
# must provide: its machine, its interpreter, the shared libraries it needs and the newest
# glibc symbol version it asks for. Fails when a glibc build asks for more than glibc 2.17
# (manylinux2014, and what the npm gnu packages promise), when a musl build needs glibc, or
# when a static build needs any shared library.
# Usage: scripts/lib/elf-report.sh FILE gnu|musl|static
set -euo pipefail
file=${1:?usage: elf-report.sh FILE gnu|musl|static}
libc=${2:?usage: elf-report.sh FILE gnu|musl|static}

machine=$(readelf -h "$file" | sed -n 's/^ *Machine: *//p')
interp=$(readelf -l "$file" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
# `readelf -V` lists every version a file needs (GLIBC_2.17, GLIBC_2.3.4, ...); sort -V finds
# the newest.
glibc=$(readelf -V "$file" | { grep -o 'GLIBC_[0-9][0-9.]*' || true; } | sed 's/GLIBC_//' | sort -uV | tail -1)
size=$(stat -c %s "$file")
echo "$(basename "$file"): $machine, $size bytes, interpreter ${interp:-none}, needs ${needed:-nothing}, glibc ${glibc:-none}"

fail() { echo "$(basename "$file"): $*" >&2; exit 1; }
case $libc in
  gnu)
    [ -z "$glibc" ] || [ "$(printf '%s\n' "$glibc" 2.17 | sort -V | tail -1)" = 2.17 ] ||
      fail "needs glibc $glibc, newer than the 2.17 it promises"
    ;;
  musl)
    [ -z "$glibc" ] || fail "a musl build needs glibc $glibc"
    if grep -q 'libc\.so\.6\|ld-linux' <<<"$needed $interp"; then fail "a musl build needs glibc: $needed $interp"; fi
    ;;
  static)
    [ -z "$needed" ] && [ -z "$interp" ] || fail "a static build needs ${needed:-}${interp:+ (interpreter $interp)}"
    ;;
  *) fail "libc must be gnu, musl or static, not '$libc'" ;;
esac
