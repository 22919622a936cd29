# Sourced by scripts/demo, scripts/test.d/*.sh and scripts/bench: sets $target_dir to the
# absolute directory cargo builds into. Asking cargo (rather than assuming target/) honours
# CARGO_TARGET_DIR and a build.target-dir in a cargo config, so a shared or out-of-tree
# target directory works. Tool installs (venvs, kotlinc) live under it too: one place to
# cache in CI, and nothing written into the work tree when it is elsewhere.
target_dir="$(cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
if [ -z "$target_dir" ]; then
  echo "cannot find cargo's target directory (cargo metadata failed)" >&2
  exit 1
fi
