#!/usr/bin/env bash
# A Debian root of a given release and architecture in a folder, with packages in it, made
# once and reused: the firmware image is built in a trixie root (Debian 13's packaged
# MicroPython, Pico SDK and Arm compiler), the KiCad checks run in one, and the install is
# tried in an arm64 root under qemu-user. The mirror is the one this machine's apt uses.
#
#   deploy/debian-root.sh SUITE ARCH DIR [PACKAGE...]
#   deploy/debian-root.sh trixie amd64 ~/.cache/backgammon-table/trixie-amd64 gcc-arm-none-eabi
#
# Needs root. A foreign ARCH needs qemu-user-static (installed here when missing).
set -euo pipefail
suite=${1:?suite}; arch=${2:?arch}; dir=${3:?dir}; shift 3
mirror=$(grep -hoE '^URIs: *[^ ]+/debian$|^deb +[^ ]+/debian ' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
  | head -n1 | awk '{print $2}' || true)
[ -n "$mirror" ] || { echo "debian-root: no Debian mirror found in this machine's apt sources" >&2; exit 1; }
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  { command -v qemu-"${arch/arm64/aarch64}"-static && command -v update-binfmts; } >/dev/null || need+=(qemu-user-static binfmt-support)
fi
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  # The kernel runs a foreign program through the handler binfmt_misc names. In a container
  # binfmt_misc is often not mounted and the packages' handlers not registered: both done
  # here (the handler's F flag loads qemu once, so it also runs inside the root's chroot).
  cpu=${arch/arm64/aarch64}; cpu=${cpu/armhf/arm}; cpu=${cpu/armel/arm}
  [ -e /proc/sys/fs/binfmt_misc/register ] \
    || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
    || { echo "debian-root: cannot mount binfmt_misc (a container without that right):" \
           "$arch programs cannot run here" >&2; exit 1; }
  [ -e "/proc/sys/fs/binfmt_misc/qemu-$cpu" ] || update-binfmts --import "qemu-$cpu" >/dev/null 2>&1 || true
  update-binfmts --enable "qemu-$cpu" >/dev/null 2>&1 || true
  grep -qx enabled "/proc/sys/fs/binfmt_misc/qemu-$cpu" 2>/dev/null \
    || { echo "debian-root: binfmt_misc has no enabled qemu-$cpu handler: $arch programs cannot run here" >&2; exit 1; }
fi
if [ ! -f "$dir/.debootstrapped" ]; then
  rm -rf "$dir"; mkdir -p "$dir"
  debootstrap --variant=minbase --arch="$arch" "$suite" "$dir" "$mirror" >"$dir.log" 2>&1 \
    || { echo "debian-root: debootstrap failed, see $dir.log" >&2; exit 1; }
  touch "$dir/.debootstrapped"
fi
if [ $# -gt 0 ]; then
  stamp="$dir/.packages-$(printf '%s\n' "$@" | sort | md5sum | cut -c1-12)"
  if [ ! -f "$stamp" ]; then
    chroot "$dir" apt-get update -qq
    chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
    touch "$stamp"
  fi
fi
echo "$dir"
