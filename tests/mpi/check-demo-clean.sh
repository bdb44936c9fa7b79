#!/bin/sh
# check-demo-clean.sh — the README's first command on a fresh copy of the repository leaves `git status` clean and its outputs where it says.
# SPDX-License-Identifier: MIT
# Usage: check-demo-clean.sh SOURCE-DIR BUILD-DIR
# The copy holds the source tree's tracked files as they are now, in a
# repository of its own; its _build is a link to BUILD-DIR, which the
# demo's build step finds up to date (no second build).
set -eu
src=$1
build=$2
command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { echo "$src is not a git repository: skipped"; exit 77; }

copy=$(mktemp -d "${TMPDIR:-/tmp}/tprof-demo-clone-XXXXXX")
trap 'rm -rf "$copy"' EXIT
git -C "$src" ls-files -z | (cd "$src" && xargs -0 cp --parents -P -t "$copy" --)
cd "$copy"
git init -q
git add -A
git -c user.name=test -c user.email=test@localhost commit -q -m "the tree under test"
ln -s "$build" _build

# without a display, as on a build machine
env -u DISPLAY -u WAYLAND_DISPLAY ./tools/demo > demo.log 2>&1 || { cat demo.log; exit 1; }
rm demo.log
status=$(git status --porcelain --ignored=no)
if [ -n "$status" ]; then
  echo "FAIL: tools/demo left the copy changed:"
  echo "$status"
  exit 1
fi
for output in _build/demo/tprof-demo.h5 _build/demo/tprof-demo-forward.png; do
  [ -s "$output" ] || { echo "FAIL: $output, which the demo reports, was not written"; exit 1; }
done
echo "tools/demo on a copy: git status clean, outputs under _build/demo/"
