#!/usr/bin/env bash
# Try deploy/INSTALL.md on the target's architecture without a Raspberry Pi: a Debian arm64
# root (trixie, as Raspberry Pi OS is today, or bookworm, the release before) made by
# deploy/debian-root.sh and run under qemu-user-static; the install steps of INSTALL.md
# carried out inside it (steps 1, 2, 3 and 6, read from the file itself); then `kiosk
# doctor` as step 9 runs it, `kiosk plays`, and the headless demonstration game of
# `kiosk run --demo`, whose screenshots are copied out to OUT.
#
#   sudo deploy/try-on-arm64.sh [SUITE [ROOT [OUT]]]
#     SUITE: trixie (default) or bookworm
#     ROOT:  the arm64 root (default /var/tmp/bgtable-SUITE-arm64; made once, reused)
#     OUT:   where the demonstration's screenshots go (default ./try-on-SUITE-arm64)
#
# Not part of `make test`: it takes 20-60 minutes. Needs root and Debian's package
# archive. What it cannot do here it says, with the reason: Raspberry Pi OS's own archive
# (its kernel, firmware, patched Mesa and python3-lgpio) is not used, only Debian's; no
# screen, GPIO chip or table is attached, so the doctor's display, GPIO and serial checks
# report problems by design (the point is that the display check names the KMSDRM driver).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${1:-trixie}
ROOT=${2:-/var/tmp/bgtable-$SUITE-arm64}
OUT=$(mkdir -p "${3:-try-on-$SUITE-arm64}" && cd "${3:-try-on-$SUITE-arm64}" && pwd)
say() { printf '\n== %s\n' "$*"; }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot need it)"; exit 2; }
case "$SUITE" in trixie|bookworm) ;; *) echo "SUITE: trixie or bookworm, not $SUITE"; exit 2 ;; esac

say "a Debian $SUITE arm64 root in $ROOT (deploy/debian-root.sh: debootstrap, qemu-user-static, binfmt_misc)"
bash "$REPO/deploy/debian-root.sh" "$SUITE" arm64 "$ROOT" ca-certificates sudo adduser passwd make git
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# A build machine whose network passes through a proxy with its own certificate authority:
# the root trusts what the host trusts (a Pi on an ordinary network needs nothing of this).
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$ROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$ROOT/etc/pip.conf"
  echo "(carried in: this host's extra certificate authorities, for its proxy)"
fi

cleanup() {
  rm -f "${FAILED:-}"
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
in_root update-ca-certificates >/dev/null 2>&1 || true
say "inside: $(in_root uname -m), Debian $(in_root cat /etc/debian_version), $(in_root sh -c 'python3 --version 2>&1 || echo no python3 yet')"

say "the software, as step 3's git clone would put it (the working tree's committed state)"
rm -rf "$ROOT/opt/backgammon-table"
mkdir -p "$ROOT/opt/backgammon-table"
git -C "$REPO" archive HEAD | tar -x -C "$ROOT/opt/backgammon-table"
echo "$(git -C "$REPO" rev-parse --short HEAD) copied to /opt/backgammon-table"

# The install steps, as INSTALL.md writes them: each step's first ```sh block.
steps=$(python3 - "$REPO/deploy/INSTALL.md" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
for number in ("1", "2", "3", "6", "11"):
    section = re.search(rf"^## {number}\. .*?(?=^## )", text, re.S | re.M).group(0)
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    print(f"#STEP {number}")
    print(block.replace("\\\n", " "))
EOF
)
# Raspberry Pi OS's packages that Debian's archive lacks: left out of step 1 here, said so.
PI_ONLY="python3-lgpio"
# The steps whose commands failed, one line each (the steps run in a pipe's subshell).
FAILED=$(mktemp)  # removed by cleanup
run_step() {
  local number=$1
  say "INSTALL.md step $number"
  printf '%s\n' "$steps" | awk -v n="$number" '/^#STEP /{on=($2==n); next} on' | while IFS= read -r line; do
    [ -n "${line// }" ] || continue
    command=${line%%#*}                       # INSTALL.md's trailing comments
    case "$command" in
      *"git clone"*) echo "(skipped: $command -- the tree was copied in above)"; continue ;;
      *nano*) echo "(skipped: $command -- an editor; the example configuration stands)"; continue ;;
      *systemctl*) echo "(skipped: $command -- no systemd runs in a root)"; continue ;;
    esac
    if [[ "$command" == *"apt install"* ]]; then
      for package in $PI_ONLY; do
        if [[ " $command " == *" $package "* ]] && [ -z "$(in_root apt-cache policy "$package")" ]; then
          command=${command/ $package / }
          echo "(left out: $package -- Raspberry Pi OS's archive has it, Debian's does not)"
        fi
      done
    fi
    command=${command//\$USER/pi}
    command=${command//sudo -u backgammon /runuser -u backgammon -- }
    command=${command//sudo /}
    echo "\$ $command"
    in_root bash -c "cd /opt/backgammon-table 2>/dev/null || cd /; $command" \
      || { echo "!! step $number: this command failed (exit $?)"; echo "$number" >>"$FAILED"; }
  done
}

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

as_kiosk() { in_root runuser -u backgammon -- env \
  BACKGAMMON_TABLE_CONFIG=/home/backgammon/.config/backgammon-table/config.toml "$@"; }
CONFIG=/home/backgammon/.config/backgammon-table/config.toml

say "INSTALL.md step 7, as far as a root where systemd does not run allows: the units copied in, their sandbox rated"
in_root bash -c 'cd /opt/backgammon-table && cp deploy/backgammon-table.service \
  deploy/backgammon-table-companion.path deploy/backgammon-table-companion.service /etc/systemd/system/'
rate() {
  if command -v systemd-analyze >/dev/null; then
    systemd-analyze security --offline=yes --root="$ROOT" backgammon-table.service 2>&1 | grep -E "Overall|PrivateNetwork=" || true
  else
    echo "(no systemd-analyze on this host: not rated)"
  fi
}
rate

say "INSTALL.md step 10: the companion switched on; companion-network.sh gives the kiosk the local network"
cp "$ROOT$CONFIG" "$ROOT$CONFIG.before-companion"
sed -i 's/^enabled = false /enabled = true  /; s/^teacher_pin = "" /teacher_pin = "482913"/; s/^address = "wlan0" /address = "127.0.0.1"/' "$ROOT$CONFIG"
grep -A4 '^\[companion\]' "$ROOT$CONFIG"
in_root env SYSTEMCTL=true /opt/backgammon-table/deploy/companion-network.sh
rate
as_kiosk /opt/backgammon-table/.venv/bin/kiosk doctor 2>/dev/null | grep "class companion" || true
say "and switched off again: the drop-in goes"
cp "$ROOT$CONFIG.before-companion" "$ROOT$CONFIG" && rm "$ROOT$CONFIG.before-companion"
in_root env SYSTEMCTL=true /opt/backgammon-table/deploy/companion-network.sh
rate

say "INSTALL.md step 5's mpremote, from Debian where it is packaged"
if [ -n "$(in_root apt-cache policy micropython-mpremote)" ]; then
  in_root apt-get install -y -qq micropython-mpremote >/dev/null && in_root mpremote --version || true
else
  echo "(Debian $SUITE has no micropython-mpremote: the guide's pipx line)"
  in_root apt-get install -y -qq pipx >/dev/null && in_root runuser -u pi -- pipx install mpremote \
    && in_root runuser -u pi -- /home/pi/.local/bin/mpremote --version || true
fi

say "which Python, pygame, SDL, numpy and lgpio the kiosk's environment imports"
in_root /opt/backgammon-table/.venv/bin/python - <<'EOF' || true
import importlib, sys
print("python", sys.version.split()[0])
import pygame
print("pygame", pygame.version.ver, "SDL", ".".join(map(str, pygame.get_sdl_version())), pygame.__file__)
for name in ("numpy", "aiohttp", "gpiozero", "serial", "lgpio"):
    try:
        module = importlib.import_module(name)
    except ImportError as err:
        print(name, "NOT importable:", err)
    else:
        print(name, getattr(module, "__version__", getattr(module, "VERSION", "?")), module.__file__)
EOF

say "kiosk doctor, as step 9 runs it (no screen, GPIO chip or table attached here)"
as_kiosk SDL_VIDEODRIVER=kmsdrm /opt/backgammon-table/.venv/bin/kiosk doctor || true

say "INSTALL.md step 11: Bluetooth dice, from Debian's bluez and python3-bleak"
run_step 11
in_root /opt/backgammon-table/.venv/bin/python -c 'import bleak, importlib.metadata as m; print("bleak", m.version("bleak"), bleak.__file__)' \
  || echo 11 >>"$FAILED"
sed 's/^source = .*/source = "pixels"/' "$ROOT$CONFIG" >"$ROOT/tmp/bluetooth-dice.toml"
chmod 644 "$ROOT/tmp/bluetooth-dice.toml"
echo "(kiosk doctor with [dice] source = \"pixels\": no BlueZ daemon runs in a root, so its line names why)"
as_kiosk /opt/backgammon-table/.venv/bin/kiosk doctor --config /tmp/bluetooth-dice.toml 2>&1 | grep -i bluetooth || true

say "kiosk plays 4HPwATDgc/ABMA 3 1 (the opening 31)"
as_kiosk /opt/backgammon-table/.venv/bin/kiosk plays 4HPwATDgc/ABMA 3 1

say "kiosk run --demo: the headless demonstration game, its screenshots copied to $OUT"
shots=/tmp/try-on-demo
in_root rm -rf "$shots"
as_kiosk SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /opt/backgammon-table/.venv/bin/kiosk run \
  --demo --screenshots "$shots" 2>&1 | tail -n 20
rm -rf "$OUT"/*.png
cp "$ROOT$shots"/*.png "$OUT"/ && ls -l "$OUT"
if [ -s "$FAILED" ]; then
  echo "!! INSTALL.md steps with a failed command: $(sort -un "$FAILED" | tr '\n' ' ')"
  exit 1
fi
