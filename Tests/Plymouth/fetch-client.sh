#!/usr/bin/env bash
# fetch-client.sh — Debian's own plymouth client, for the tests that drive
# `kiosk-hud daemon --plymouth` with it (Tests/KioskCommandTests/PlymouthCommandTests.swift).
# Prints the directory it is unpacked in; idempotent (a second run only checks).
#
#   Tests/Plymouth/fetch-client.sh
#
# Cache: $KIOSK_PLYMOUTH_CACHE, default <repo>/.build-debs/ (git-ignored via .build-*/):
#   plymouth_*.deb, libplymouth5_*.deb   `apt-get download` of Debian's packages (not installed)
#   root/                                 `dpkg -x` of both: root/usr/bin/plymouth and its libply.so.5
# Run it as   LD_LIBRARY_PATH=DIR/root/usr/lib/x86_64-linux-gnu DIR/root/usr/bin/plymouth …
# (the multiarch directory is the host's: dpkg-architecture's, or x86_64-linux-gnu).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_PLYMOUTH_CACHE:-$REPO/.build-debs}
mkdir -p "$CACHE"
exec 9>"$CACHE/.fetch.lock"
flock 9
if [ -x "$CACHE/root/usr/bin/plymouth" ] && ls "$CACHE"/root/usr/lib/*/libply.so.5 >/dev/null 2>&1; then
  echo "$CACHE"
  exit 0
fi
cd "$CACHE"
if ! ls plymouth_*.deb libplymouth5_*.deb >/dev/null 2>&1; then
  # As root, apt-get download warns that _apt cannot write here; the download works all the same.
  apt-get download plymouth libplymouth5 >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 || true; apt-get download plymouth libplymouth5 >/dev/null 2>&1; } ||
    { echo "fetch-client: apt-get download plymouth libplymouth5 failed" >&2; exit 1; }
fi
rm -rf root.new
for d in plymouth_*.deb libplymouth5_*.deb; do dpkg-deb -x "$d" root.new; done
rm -rf root
mv root.new root
[ -x root/usr/bin/plymouth ] || { echo "fetch-client: no usr/bin/plymouth in the package" >&2; exit 1; }
echo "$CACHE"
