#!/usr/bin/env bash
# Gives the extension modules of a musllinux wheel built with zig the name Alpine and
# auditwheel use for musl's C library, and repacks the wheel in place.
# zig links a musl shared object against its own `libc.so` stub, so the module's DT_NEEDED
# is `libc.so`; auditwheel's musllinux policies (auditwheel 6.8.2,
# auditwheel/policy/musllinux-policy.json: lib_whitelist ["libc.musl-<arch>.so.1"]) know musl
# only by Alpine's soname `libc.musl-<arch>.so.1`, so `auditwheel show` calls the wheel
# linux_<arch> (or, on a glibc machine, crashes opening glibc's libc.so linker script). At run
# time both names are musl's loader itself: musl's ldso/dynlink.c (load_library) maps every
# `libc.*` request to the loader, on Alpine and on Debian's musl alike. patchelf renames the
# dependency; `wheel pack` rewrites RECORD with the new hashes, and the wheel's tag (from its
# WHEEL file, maturin's musllinux_1_2) stays as it was.
# Needs `patchelf` and `wheel` on PATH (scripts/package installs both from PyPI).
# Usage: scripts/lib/musl-wheel.sh WHEEL
set -euo pipefail
whl=${1:?usage: musl-wheel.sh WHEEL}
[ -f "$whl" ] || { echo "$whl: no such wheel" >&2; exit 1; }
name=$(basename "$whl")
case $name in
  *-musllinux_*_x86_64.whl) arch=x86_64 ;;
  *-musllinux_*_aarch64.whl) arch=aarch64 ;;
  *) echo "$name: not an x86_64 or aarch64 musllinux wheel" >&2; exit 2 ;;
esac
soname=libc.musl-$arch.so.1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wheel unpack -d "$work/src" "$whl" >/dev/null
tree=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d)

renamed=0
while IFS= read -r -d '' so; do
  needed=$(patchelf --print-needed "$so")
  if grep -qE '^(libc\.so\.6|ld-linux)' <<<"$needed"; then
    echo "$name: ${so#"$tree"/} needs glibc ($(tr '\n' ' ' <<<"$needed")); not a musl build" >&2
    exit 1
  fi
  if grep -qx libc.so <<<"$needed"; then
    patchelf --replace-needed libc.so "$soname" "$so"
    echo "$name: ${so#"$tree"/}: needs $soname (was libc.so)"
    renamed=$((renamed + 1))
  fi
done < <(find "$tree" -name '*.so' -print0)
if [ "$renamed" -eq 0 ]; then
  echo "$name: no module needs libc.so; left as built"
  exit 0
fi

mkdir -p "$work/out"
wheel pack -d "$work/out" "$tree" >/dev/null
out=$(find "$work/out" -name '*.whl')
[ "$(basename "$out")" = "$name" ] ||
  { echo "$name: repacking produced $(basename "$out"), a different tag" >&2; exit 1; }
mv "$out" "$whl"
