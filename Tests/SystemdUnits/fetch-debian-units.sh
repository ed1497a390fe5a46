#!/usr/bin/env bash
# fetch-debian-units.sh — Debian's own systemd units for the update frameworks the docs pair
# with kiosk-hud (swupdate, rauc, rauc-service) and the display managers the package orders after
# its handover (lightdm, gdm3, sddm), from Debian 12 (bookworm) and Debian 13
# (trixie), for DocumentedDropInsTests: `systemd-analyze verify` of our units and the documented
# drop-ins beside them. Prints the directory; idempotent (a second run only checks).
#
#   Tests/SystemdUnits/fetch-debian-units.sh
#
# Cache: $KIOSK_UNITS_CACHE, default <repo>/.build-debs/units (git-ignored via .build-*/):
#   RELEASE/apt/         an apt configuration of its own (sources.list, lists, cache): the
#                        host's apt is not touched
#   RELEASE/*.deb        `apt-get download` of the packages (not installed)
#   RELEASE/root/        `dpkg-deb -x` of them: RELEASE/root/{lib,usr/lib}/systemd/system/…
# RELEASE is bookworm and trixie; the host's architecture.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${KIOSK_UNITS_CACHE:-$REPO/.build-debs/units}
PKGS="swupdate rauc rauc-service lightdm gdm3 sddm"
mkdir -p "$CACHE"
exec 9>"$CACHE/.fetch.lock"
flock 9
arch=$(dpkg --print-architecture)
for release in bookworm trixie; do
  R=$CACHE/$release
  [ -e "$R/root/.done" ] && continue
  A=$R/apt
  mkdir -p "$A/none" "$A/state" "$A/lists/partial" "$A/cache/archives/partial"
  [ -e "$A/status" ] || : > "$A/status"
  echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $release main" > "$A/sources.list"
  APTO=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=$A/none"
        -o "Dir::Etc::Preferences=$A/none/prefs" -o "Dir::Etc::PreferencesParts=$A/none"
        -o "Dir::State=$A/state" -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
        -o "Dir::Cache=$A/cache" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
  if ! ls "$A"/lists/*_"${release}"_main_binary-"${arch}"_Packages* >/dev/null 2>&1; then
    apt-get "${APTO[@]}" update -qq >/dev/null 2>&1 ||
      { echo "fetch-debian-units: apt-get update ($release, own configuration) failed" >&2; exit 1; }
  fi
  # shellcheck disable=SC2086 # the package names are words
  (cd "$R" && rm -f ./*.deb && apt-get "${APTO[@]}" download $PKGS >/dev/null 2>&1) ||
    { echo "fetch-debian-units: apt-get download ($release) $PKGS failed" >&2; exit 1; }
  rm -rf "$R/root.new"
  for d in "$R"/*.deb; do dpkg-deb -x "$d" "$R/root.new"; done
  : > "$R/root.new/.done"
  rm -rf "$R/root"
  mv "$R/root.new" "$R/root"
done
echo "$CACHE"
