#!/usr/bin/env bash
# The kiosk's network follows the class companion's switch: while `[companion] enabled` is
# true in the kiosk's configuration, the drop-in deploy/companion-network.conf lifts the
# unit's PrivateNetwork (the pages need the local network); while it is false the drop-in
# is removed and the kiosk has its loopback alone. When that changes, systemd reloads and
# the kiosk restarts (its game is saved turn by turn). Run by the path unit
# backgammon-table-companion.path whenever the configuration changes (so the switch in the
# installer's settings at the table works), or by hand (deploy/INSTALL.md, step 10):
#
#   sudo /opt/backgammon-table/deploy/companion-network.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CONFIG=${BACKGAMMON_TABLE_CONFIG:-/home/backgammon/.config/backgammon-table/config.toml}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
PYTHON=${PYTHON:-$HERE/../.venv/bin/python}
SYSTEMCTL=${SYSTEMCTL:-systemctl}
DROPIN=$UNIT_DIR/backgammon-table.service.d/companion-network.conf

# The configuration read as the kiosk reads it; a file the kiosk refuses means its
# defaults, and so the companion off.
enabled=$(cd "$HERE/.." && "$PYTHON" -c '
import sys
from kiosk.config import ConfigError, load_config
try:
    print("on" if load_config(sys.argv[1]).companion.enabled else "off")
except ConfigError:
    print("off")
' "$CONFIG")

changed=no
if [ "$enabled" = on ]; then
  if ! cmp -s "$HERE/companion-network.conf" "$DROPIN"; then
    install -D -m 644 "$HERE/companion-network.conf" "$DROPIN"
    changed=yes
  fi
  echo "the class companion is on: the kiosk may use the local network ($DROPIN)"
else
  if [ -e "$DROPIN" ]; then
    rm -f "$DROPIN"
    changed=yes
  fi
  echo "the class companion is off: the kiosk has no network but its loopback"
fi
if [ "$changed" = yes ]; then
  "$SYSTEMCTL" daemon-reload
  "$SYSTEMCTL" try-restart backgammon-table.service
  echo "the kiosk's service was reloaded and, if running, restarted"
fi
