#!/usr/bin/env bash
# Builds a musl-linked CPython for x86_64 (the machine's own architecture) and prints the
# path of its `python3`: what runs the musllinux wheel here, since no registry reachable from
# this machine ships a musl CPython (Alpine's packages and python-build-standalone are
# elsewhere). The source is Debian's python3.11 (a private apt state: the system's sources
# and dpkg are not touched), compiled by Debian's musl-gcc (`apt-get install musl-tools`)
# against the kernel's UAPI headers from linux-libc-dev. Dynamically linked against
# /lib/ld-musl-x86_64.so.1, so it loads extension modules as a musl distribution's Python does.
# Takes 5-10 minutes on two cores; cached under $target_dir/foreign/musl-python.
# Usage: scripts/lib/musl-python.sh   -> prints .../musl-python/bin/python3
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/target-dir.sh
work=$target_dir/foreign/musl-python-build
prefix=$target_dir/foreign/musl-python
python=$prefix/bin/python3
# What the skilldeck package and the smoke test import, and what needs the C modules that
# fail first when the build goes wrong (_socket, select, math, _struct, _posixsubprocess).
check='import asyncio, json, math, pathlib, struct, subprocess, unicodedata'
if [ -x "$python" ] && "$python" -c "$check" 2>/dev/null; then
  echo "$python"
  exit 0
fi
command -v musl-gcc >/dev/null || { echo "no musl-gcc: apt-get install musl-tools" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "builds for x86_64 hosts only (uname -m: $(uname -m))" >&2; exit 1; }

mkdir -p "$work"
cd "$work"
if ! ls python3.11_*.orig.tar.gz >/dev/null 2>&1; then
  apt=$work/apt
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  : >"$apt/status"
  . /etc/os-release
  printf 'deb-src http://deb.debian.org/debian %s main\n' "$VERSION_CODENAME" >"$apt/sources.list"
  opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Dir::State::status=$apt/status"
    -o Debug::NoLocking=1)
  apt-get "${opts[@]}" update -qq
  apt-get "${opts[@]}" source --download-only -qq python3.11 >/dev/null 2>&1
fi
# sed reads its input to the end: `head` would leave tar a SIGPIPE, fatal under pipefail.
src=$(tar -tzf python3.11_*.orig.tar.gz | sed -n '1s,/.*,,p')
rm -rf "$src" && tar -xzf python3.11_*.orig.tar.gz

# musl-gcc's include path is musl's alone; the kernel headers some modules use come from
# Debian's linux-libc-dev.
kinc=$work/kernel-headers
mkdir -p "$kinc"
ln -sfn /usr/include/linux "$kinc/linux"
ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$kinc/asm"
ln -sfn /usr/include/asm-generic "$kinc/asm-generic"

cd "$src"
# configure compares the compiler's target triplet (x86_64-linux-musl) with
# `$CC --print-multiarch`, which musl-gcc answers with gcc's x86_64-linux-gnu, and gives up;
# a build without multiarch directories is what it does on FreeBSD and Darwin.
sed -i 's/^\( *\)MULTIARCH=\$(\$CC --print-multiarch 2>\/dev\/null)$/\1MULTIARCH=""/' configure
# setup.py asks the same question when it builds the extension modules and puts glibc's
# /usr/include/x86_64-linux-gnu on their include path, where its headers collide with musl's
# (__time64_t, __BEGIN_DECLS): every module but the core ones failed to build.
sed -i 's/^\(    def add_multiarch_paths(self):\)$/\1\n        return/' setup.py
grep -A1 '^    def add_multiarch_paths(self):$' setup.py | grep -qx '        return' ||
  { echo "setup.py: add_multiarch_paths not found; the multiarch patch no longer applies" >&2; exit 1; }
./configure CC=musl-gcc CFLAGS="-O1 -isystem $kinc" --prefix="$prefix" \
  --without-ensurepip --disable-test-modules >"$work/configure.log" 2>&1 ||
  { tail -20 "$work/configure.log" >&2; exit 1; }
make -j"${CARGO_BUILD_JOBS:-2}" >"$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; exit 1; }
make install >"$work/install.log" 2>&1 || { tail -30 "$work/install.log" >&2; exit 1; }
"$python" -c "$check" || { grep -A12 'Failed to build these modules' "$work/make.log" >&2; exit 1; }
echo "$python"
