#!/usr/bin/env bash
# Keep the packages the table's Raspberry Pi installs for its screen, for the tests to read
# without fetching anything (tests/hardware/test_display_stack.py):
#   - Debian bookworm's arm64 libsdl2-2.0-0 and python3-pygame (deploy/INSTALL.md, step 1),
#     through a private apt configuration in DEST/apt (the machine's own apt is untouched);
#   - pip's aarch64 pygame wheel, the one a plain `pip install pygame` would take on the Pi.
#   deploy/fetch-arm64-packages.sh DEST
set -euo pipefail
DEST=${1:?usage: $0 DEST}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
APT="$DEST/apt"
mkdir -p "$APT/etc/apt/apt.conf.d" "$APT/etc/apt/preferences.d" "$APT/etc/apt/sources.list.d" \
  "$APT/var/lib/apt/lists/partial" "$APT/var/cache/apt/archives/partial" "$APT/var/lib/dpkg"
touch "$APT/var/lib/dpkg/status"
echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
  > "$APT/etc/apt/sources.list"
opts=(-q -o "Dir=$APT" -o "Dir::State::status=$APT/var/lib/dpkg/status" -o APT::Architecture=arm64
      -o APT::Architectures=arm64 -o Acquire::Languages=none -o APT::Sandbox::User=root)
apt-get "${opts[@]}" update >/dev/null
(cd "$DEST" && apt-get "${opts[@]}" download libsdl2-2.0-0 python3-pygame >/dev/null)
rm -rf "$APT"
"${PYTHON:-python3}" -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
  --implementation cp --platform manylinux2014_aarch64 -d "$DEST" 'pygame>=2.5' 2>&1 \
  | grep -v "^WARNING: Location" || true
ls "$DEST"
