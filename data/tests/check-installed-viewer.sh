#!/bin/sh
# check-installed-viewer.sh — tprof-viewer installed outside the system's data directories runs: --help, --version, its manual page.
# SPDX-License-Identifier: MIT
# Usage: check-installed-viewer.sh BUILD-DIR PREFIX BINDIR LIBDIR DATADIR MANDIR VERSION
# Stages the install with `meson install --destdir`, which a prefix of
# one's own (a home directory, a module tree) amounts to for the viewer:
# its schema is not where XDG_DATA_DIRS or GSETTINGS_SCHEMA_DIR point.
set -eu
build=$1 prefix=$2 bindir=$3 libdir=$4 datadir=$5 mandir=$6 version=$7
stage=$(mktemp -d "${TMPDIR:-/tmp}/tprof-install-XXXXXX")
trap 'rm -rf "$stage"' EXIT
meson install -C "$build" --no-rebuild --quiet --destdir "$stage" >"$stage.log" 2>&1 ||
  { cat "$stage.log"; rm -f "$stage.log"; exit 1; }
rm -f "$stage.log"
root=$stage$prefix
# what meson's post-install step does for an install that is not staged
# (it leaves a staged tree's schemas to the packager)
glib-compile-schemas "$root/$datadir/glib-2.0/schemas"
viewer=$root/$bindir/tprof-viewer
mkdir -p "$stage/empty"
# nothing points at the staged tree but the library path (its rpath is
# for the prefix, where no library is installed here)
run ()
{
  env -u GSETTINGS_SCHEMA_DIR -u DISPLAY -u WAYLAND_DISPLAY \
      XDG_DATA_DIRS="$stage/empty" XDG_DATA_HOME="$stage/empty" \
      LD_LIBRARY_PATH="$root/$libdir" "$viewer" "$@"
}

out=$(run --version 2>&1) || { echo "FAIL: tprof-viewer --version: $out"; exit 1; }
[ "$out" = "tprof-viewer $version" ] || { echo "FAIL: --version says \"$out\""; exit 1; }
out=$(run --help 2>&1) || { echo "FAIL: tprof-viewer --help: $out"; exit 1; }
for option in --compare --version; do
  echo "$out" | grep -q -- "$option" || { echo "FAIL: --help does not list $option:"; echo "$out"; exit 1; }
done
page=$root/$mandir/man1/tprof-viewer.1
[ -s "$page" ] || { echo "FAIL: $page was not installed"; exit 1; }
grep -q '^\.TH TPROF-VIEWER 1' "$page" || { echo "FAIL: $page is not tprof-viewer(1)"; exit 1; }
echo "the staged tprof-viewer: --version \"$(run --version)\", --help and its manual page"
