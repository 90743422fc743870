#!/usr/bin/env bash
# `make test-py313` where this machine has no Python 3.13 (a plain Debian 12 has 3.11 alone):
# with Debian 13's own python3.13 (the Python of Raspberry Pi OS trixie), in a Debian trixie
# root made by deploy/debian-root.sh from Debian's archive (no other download) and kept
# in ~/.cache/backgammon-table, the repository bind-mounted at its own path. The root has
# gnubg, espeak-ng and Node.js, not Chromium: the companion's browser tests skip there (they
# ran under make test).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ARCH=$(dpkg --print-architecture)
ROOT=${TRIXIE_ROOT:-$HOME/.cache/backgammon-table/trixie-$ARCH}
bash "$REPO/deploy/debian-root.sh" trixie "$ARCH" "$ROOT" python3.13 python3.13-venv make \
  ca-certificates gnubg espeak-ng nodejs >/dev/null
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# A machine whose network passes through a proxy with its own certificate authority.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$ROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  chroot "$ROOT" update-ca-certificates >/dev/null 2>&1 || true
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
fi
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" || true; done
}
trap cleanup EXIT
mount -t proc proc "$ROOT/proc" && mounted+=("$ROOT/proc")
mount -t sysfs sys "$ROOT/sys" && mounted+=("$ROOT/sys")
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev" && mounted+=("$ROOT/dev")
mkdir -p "$ROOT/tmp" && chmod 1777 "$ROOT/tmp"
for path in "$REPO" "$(cd "$REPO/.node" 2>/dev/null && pwd -P || true)" "$(cd "$REPO/.cache" 2>/dev/null && pwd -P || true)"; do
  # The repository, and the shared copies its .node and .cache may link to.
  [ -n "$path" ] && [ -d "$path" ] || continue
  mountpoint -q "$ROOT$path" && continue
  mkdir -p "$ROOT$path" && mount --bind "$path" "$ROOT$path" && mounted+=("$ROOT$path")
done
chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/games HOME=/root \
  LANG=C.UTF-8 CI="${CI:-}" bash -c "cd '$REPO' && make test-py313 PY313=/usr/bin/python3.13 VENV313=.venv313-trixie TESTS='${TESTS:-}'"
