#!/usr/bin/env bash
# The Debian package (cmake/Packaging.cmake) and `cmake --install` with DESTDIR, in scratch roots
# (dpkg -x: nothing is installed on this machine). Checks: the control fields and Depends, the
# packaged boreas runs and reports the package's version, the man page renders without warnings,
# the systemd unit (and its single-account drop-in) passes `systemd-analyze verify`, and
# `cmake --install --prefix` points the unit's ExecStart at that prefix.
# Usage: deb_test.sh BUILD_DIR WORK_DIR. Exit 77 (skipped) without cpack or dpkg-deb.
set -euo pipefail
BUILD=$1
WORK=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in cpack dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done
rm -rf "$WORK" && mkdir -p "$WORK"

# The package.
(cd "$BUILD" && cpack -G DEB -B "$WORK/cpack" >"$WORK/cpack.log" 2>&1) || fail "cpack: $(tail -20 "$WORK/cpack.log")"
debs=("$WORK"/cpack/boreas_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "expected one boreas_*.deb in $WORK/cpack, found: ${debs[*]}"
DEB=${debs[0]}
field() { dpkg-deb -f "$DEB" "$1"; }
[ "$(field Package)" = boreas ] || fail "Package is '$(field Package)', not boreas"
VERSION=$(field Version)
[[ "$(field Depends)" == *adduser* ]] || fail "Depends lacks adduser (the postinst's adduser): $(field Depends)"
if command -v dpkg-shlibdeps >/dev/null; then
  [[ "$(field Depends)" == *libc6* ]] || fail "Depends lacks libc6; shlibdeps did not run: $(field Depends)"
fi
dpkg-deb -e "$DEB" "$WORK/control"
sh -n "$WORK/control/postinst" || fail "the postinst is not valid sh"
grep -q 'adduser --system' "$WORK/control/postinst" || fail "the postinst does not create the boreas account"

ROOT=$WORK/root
dpkg-deb -x "$DEB" "$ROOT"
out=$("$ROOT/usr/bin/boreas" version) || fail "the packaged boreas failed: $out"
[ "$out" = "boreas $VERSION" ] || fail "the packaged boreas says '$out'; the package's version is $VERSION"
for f in usr/share/man/man1/boreas.1 usr/lib/systemd/system/boreas.service \
         usr/share/doc/boreas/examples/single-account.conf; do
  [ -f "$ROOT/$f" ] || fail "the package lacks /$f"
done
if "$BUILD/boreas" completion bash >/dev/null 2>&1; then
  [ -f "$ROOT/usr/share/bash-completion/completions/boreas" ] || fail "boreas has a completion command but the package lacks its bash completion"
fi

# The man page: groff reports no warning, and the rendered page documents the daemon's flags.
PAGE=$ROOT/usr/share/man/man1/boreas.1
# Raw roff: ASCII only (troff reads bytes as Latin-1) and options with \- (a copyable minus).
LC_ALL=C grep -n '[^[:print:][:space:]]' "$PAGE" && fail "boreas.1 has non-ASCII bytes (lines above); boreas man must write them as \\[uXXXX]"
grep -qF -- '\-\-data\-dir' "$PAGE" || fail "boreas.1 does not write --data-dir as \\-\\-data\\-dir"
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$PAGE" 2>&1) || fail "groff failed on boreas.1: $warnings"
  [ -z "$warnings" ] || fail "groff warns on boreas.1: $warnings"
  if command -v man >/dev/null; then
    rendered=$(MANWIDTH=100 man -l "$PAGE" 2>&1) || fail "man -l failed: $rendered"
  else
    rendered=$(groff -man -Tutf8 "$PAGE" 2>&1) || fail "groff failed: $rendered"
  fi
  for text in "boreas serve" "--data-dir" "boreas token create" "EXIT STATUS"; do
    grep -qF -- "$text" <<<"$rendered" || fail "the rendered man page lacks '$text'"
  done
  grep -qF "boreas man" <<<"$rendered" && fail "the hidden 'boreas man' command is in the page"
else
  echo "note: no groff (package groff-base); the man page was not rendered"
fi

# The unit, as installed, and with the single-account drop-in; verify prints nothing when clean.
UNIT=$ROOT/usr/lib/systemd/system/boreas.service
grep -q '^ExecStart=/usr/bin/boreas serve .*--data-dir /var/lib/boreas' "$UNIT" || fail "ExecStart is not /usr/bin/boreas serve --data-dir /var/lib/boreas: $(grep ExecStart "$UNIT")"
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$WORK/unit" "$WORK/dropin"
  # ExecStart must name an executable here, so the copies point at the scratch root's binary.
  sed "s|/usr/bin/boreas|$ROOT/usr/bin/boreas|" "$UNIT" >"$WORK/unit/boreas.service"
  cat "$WORK/unit/boreas.service" "$ROOT/usr/share/doc/boreas/examples/single-account.conf" >"$WORK/dropin/boreas.service"
  for copy in "$WORK/unit/boreas.service" "$WORK/dropin/boreas.service"; do
    report=$(MANPATH=$ROOT/usr/share/man systemd-analyze verify "$copy" 2>&1) || fail "systemd-analyze verify $copy: $report"
    [ -z "$report" ] || fail "systemd-analyze verify $copy reports: $report"
  done
else
  echo "note: no systemd-analyze; the unit was not verified"
fi

# make install's path: --prefix and DESTDIR.
DESTDIR=$WORK/destdir cmake --install "$BUILD" --prefix /opt/boreas >"$WORK/install.log" 2>&1 || fail "cmake --install: $(tail -20 "$WORK/install.log")"
[ -x "$WORK/destdir/opt/boreas/bin/boreas" ] || fail "cmake --install put no bin/boreas under DESTDIR/PREFIX"
grep -q '^ExecStart=/opt/boreas/bin/boreas serve' "$WORK/destdir/opt/boreas/lib/systemd/system/boreas.service" ||
  fail "the unit installed under --prefix /opt/boreas does not start /opt/boreas/bin/boreas"
[ -f "$WORK/destdir/opt/boreas/share/man/man1/boreas.1" ] || fail "cmake --install wrote no man page"
echo "ok: $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KiB), boreas $VERSION runs from the scratch root"
