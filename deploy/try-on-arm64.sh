#!/usr/bin/env bash
# Try deploy/INSTALL.md on the target's architecture without a Raspberry Pi: build a Debian
# bookworm arm64 root with debootstrap, run it under qemu-user-static, carry out the install
# steps of INSTALL.md inside it (steps 1, 2, 3 and 6, read from the file itself), then run
# `kiosk doctor` there as step 9 says, which names SDL's video drivers and finds the one
# the service uses.
#
#   sudo deploy/try-on-arm64.sh [ROOT]        (default ROOT: /var/tmp/bgtable-arm64)
#
# Not part of `make test`: it takes 20-60 minutes. Needs root and Debian's package
# archive. What it cannot do here it says, with the reason: Raspberry Pi OS's own archive
# (its kernel, firmware and patched Mesa) is not used, only Debian's; no screen, GPIO chip
# or table is attached, so the doctor's display, GPIO and serial checks report problems by
# design (the point is that the display check names the KMSDRM driver).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${1:-/var/tmp/bgtable-arm64}
SUITE=bookworm
MIRROR=http://deb.debian.org/debian
say() { printf '\n== %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot need it)"; exit 2; }

say "host tools: debootstrap, qemu-user-static, binfmt-support"
if ! command -v debootstrap >/dev/null || ! command -v qemu-aarch64-static >/dev/null \
    || ! command -v update-binfmts >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap qemu-user-static binfmt-support >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || true
fi
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 \
  || { echo "binfmt_misc has no qemu-aarch64 handler: arm64 programs cannot run here"; exit 2; }

if [ ! -x "$ROOT/usr/bin/python3" ]; then
  say "debootstrap $SUITE arm64 into $ROOT (Debian's archive; Raspberry Pi OS adds its own on top)"
  mkdir -p "$ROOT"
  debootstrap --arch=arm64 --variant=minbase --include=ca-certificates,sudo,adduser,passwd,make,git \
    "$SUITE" "$ROOT" "$MIRROR"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# A build machine whose network passes through a proxy with its own certificate authority:
# the root trusts what the host trusts (a Pi on an ordinary network needs nothing of this).
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$ROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  mkdir -p "$ROOT/etc"
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
  echo "(carried in: this host's extra certificate authorities, for its proxy)"
fi

cleanup() {
  for m in dev/pts dev proc sys; do
    mountpoint -q "$ROOT/$m" && umount -l "$ROOT/$m" || true
  done
}
trap cleanup EXIT
mount -t proc proc "$ROOT/proc"
mount -t sysfs sys "$ROOT/sys"
# A /dev of the root's own, never the host's (a package's set-up inside must not touch the
# host's device nodes): the few nodes the install needs, and a private pty instance.
mount -t tmpfs -o mode=755 devfs "$ROOT/dev"
for node in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
  set -- $node
  mknod -m 666 "$ROOT/dev/$1" c "$2" "$3"
done
mkdir -p "$ROOT/dev/pts" "$ROOT/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOT/dev/pts"
ln -s pts/ptmx "$ROOT/dev/ptmx"

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
say "inside: $(in_root uname -m), $(in_root cat /etc/debian_version), $(in_root python3 --version)"

say "the software, as step 3's git clone would put it (the working tree's committed state)"
rm -rf "$ROOT/opt/backgammon-table"
mkdir -p "$ROOT/opt/backgammon-table"
git -C "$REPO" archive HEAD | tar -x -C "$ROOT/opt/backgammon-table"

# The install steps, as INSTALL.md writes them: each step's first ```sh block.
steps=$(python3 - "$REPO/deploy/INSTALL.md" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
for number in ("1", "2", "3", "6"):
    section = re.search(rf"^## {number}\. .*?(?=^## )", text, re.S | re.M).group(0)
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    print(f"#STEP {number}")
    print(block.replace("\\\n", " "))
EOF
)
run_step() {
  local number=$1
  say "INSTALL.md step $number"
  printf '%s\n' "$steps" | awk -v n="$number" '/^#STEP /{on=($2==n); next} on' | while IFS= read -r line; do
    [ -n "${line// }" ] || continue
    command=${line%%#*}                       # INSTALL.md's trailing comments
    case "$command" in
      *"git clone"*) echo "(skipped: $command -- the tree was copied in above)"; continue ;;
      *nano*) echo "(skipped: $command -- an editor; the example configuration stands)"; continue ;;
    esac
    command=${command//\$USER/pi}
    command=${command//sudo -u backgammon /runuser -u backgammon -- }
    command=${command//sudo /}
    echo "\$ $command"
    in_root bash -c "cd /opt/backgammon-table 2>/dev/null || cd /; $command" \
      || echo "!! step $number: this command failed (exit $?)"
  done
}

in_root update-ca-certificates >/dev/null 2>&1 || true

# Raspberry Pi OS's image has these; a bare Debian root (no udev, no Pi packages) does not.
in_root bash -c 'id pi >/dev/null 2>&1 || useradd -m pi'
for group in gpio render input; do
  in_root bash -c "getent group $group >/dev/null || groupadd --system $group"
done
echo "(made here: the admin user 'pi' and the groups gpio, render and input, which Raspberry Pi OS's image has)"

run_step 1
run_step 2
# Step 3 runs as the admin user in /opt/backgammon-table; this script is root in the root.
chown -R 1000:1000 "$ROOT/opt/backgammon-table" 2>/dev/null || true
run_step 3
run_step 6

say "kiosk doctor, as step 9 runs it (no screen, GPIO chip or table attached here)"
in_root runuser -u backgammon -- env SDL_VIDEODRIVER=kmsdrm \
  BACKGAMMON_TABLE_CONFIG=/home/backgammon/.config/backgammon-table/config.toml \
  /opt/backgammon-table/.venv/bin/kiosk doctor || true

say "which pygame and SDL the kiosk's environment imports"
in_root /opt/backgammon-table/.venv/bin/python -c \
  'import pygame, sys; print(pygame.__file__, pygame.version.ver, "SDL", pygame.get_sdl_version())'
