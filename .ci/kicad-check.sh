#!/usr/bin/env bash
# The scan board's KiCad project (hardware/kicad/, written by hardware/pcb.py) checked by
# KiCad itself: the files are what the generator writes, the schematic's ERC and the board's
# DRC find nothing (errors and warnings alike; the DRC with zero unconnected items and the
# board at parity with the schematic, footprint for footprint and pad net for net), KiCad's
# own netlist of the schematic is drawings.scan_netlist(), and the Gerbers and drill file it
# makes are the ones committed (hardware/kicad/gerbers/, dates and program versions left out).
# KiCad 7 or later has kicad-cli: Debian 13's KiCad (9.0), in a trixie root made by
# deploy/debian-root.sh and kept in ~/.cache/backgammon-table (no 3D models: not needed).
#
#   .ci/kicad-check.sh            # check (needs root the first time: it builds the root)
#   .ci/kicad-check.sh --write    # write the Gerbers, drill file and the board's render
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$REPO/.venv/bin/python}
[ -x "$PY" ] || PY=python3
ARCH=$(dpkg --print-architecture)
ROOT=${TRIXIE_ROOT:-$HOME/.cache/backgammon-table/trixie-$ARCH}
KICAD=$REPO/hardware/kicad
"$PY" "$REPO/hardware/pcb.py" --check
bash "$REPO/deploy/debian-root.sh" trixie "$ARCH" "$ROOT" kicad >/dev/null
mkdir -p "$ROOT/tmp" && chmod 1777 "$ROOT/tmp"
WORK=$(mktemp -d "$ROOT/tmp/kicad-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cp "$KICAD"/scan-board.kicad_pro "$KICAD"/scan-board.kicad_sch "$KICAD"/scan-board.kicad_pcb "$WORK/"
IN=/tmp/$(basename "$WORK")
kicad() {
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$IN" LANG=C.UTF-8 \
    kicad-cli "$@"
}
status=0
kicad sch erc --severity-error --severity-warning --exit-code-violations -o "$IN/erc.rpt" \
  "$IN/scan-board.kicad_sch" >/dev/null || { cat "$WORK/erc.rpt"; status=1; }
grep -E "ERC messages" "$WORK/erc.rpt"
kicad pcb drc --schematic-parity --severity-error --severity-warning --exit-code-violations \
  -o "$IN/drc.rpt" "$IN/scan-board.kicad_pcb" >/dev/null || { cat "$WORK/drc.rpt"; status=1; }
grep -E "Found [0-9]+ (DRC violations|unconnected|Footprint errors)" "$WORK/drc.rpt" | tr '\n' ' '; echo
kicad sch export netlist -o "$IN/scan-board.net" "$IN/scan-board.kicad_sch" >/dev/null
"$PY" "$REPO/hardware/pcb.py" --netlist "$WORK/scan-board.net" || status=1
mkdir -p "$WORK/gerbers"
kicad pcb export gerbers -o "$IN/gerbers/" -l F.Cu,B.Cu,F.Mask,B.Mask,F.SilkS,B.SilkS,Edge.Cuts \
  "$IN/scan-board.kicad_pcb" >/dev/null
kicad pcb export drill --excellon-separate-th -o "$IN/gerbers/" "$IN/scan-board.kicad_pcb" >/dev/null
if [ "${1:-}" = --write ]; then
  rm -rf "$KICAD/gerbers" && cp -r "$WORK/gerbers" "$KICAD/gerbers"
  kicad pcb export svg --mode-single --layers F.Cu,B.Cu,F.SilkS,Edge.Cuts --page-size-mode 2 \
    --exclude-drawing-sheet -o "$IN/board.svg" "$IN/scan-board.kicad_pcb" >/dev/null
  cp "$WORK/board.svg" "$KICAD/scan-board-render.svg"
  echo "wrote hardware/kicad/gerbers/ and scan-board-render.svg"
  exit $status
fi
# What changes from run to run or with KiCad's point release: dates and the program's name.
stable() { grep -vE 'CreationDate|Created by|GenerationSoftware|DRILL file|"Application"|"Version"' "$1" || true; }
for made in "$WORK"/gerbers/*; do
  kept=$KICAD/gerbers/$(basename "$made")
  if [ ! -f "$kept" ] || ! diff -q <(stable "$made") <(stable "$kept") >/dev/null; then
    echo "kicad-check: $(basename "$made") differs from hardware/kicad/gerbers/ (run .ci/kicad-check.sh --write)"
    status=1
  fi
done
[ "$(ls "$WORK/gerbers" | wc -l)" = "$(ls "$KICAD/gerbers" | wc -l)" ] \
  || { echo "kicad-check: hardware/kicad/gerbers/ has other files than KiCad makes"; status=1; }
[ $status = 0 ] && echo "kicad-check: ERC, DRC, netlist and Gerbers ok"
exit $status
