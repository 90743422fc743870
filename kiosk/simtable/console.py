"""The simulated table's line commands, for a person driving it from a terminal."""

from __future__ import annotations

from kiosk.simtable.table import STARTING_POSITION, SimulatedTable
from kiosk.table.layout import LOCATIONS, SlotState

HELP = """commands:
  place LOC white|black [N]   put N men (default 1) at LOC (1-24, bar-white, off-black, ...)
  lift LOC [white|black]      take the top man (of that colour) from LOC
  move FROM TO                lift a man from FROM and place it at TO
  start | clear               lay out the starting position | take every man off
  dice D1 D2 | throw          lay the dice showing D1 D2 | throw them at random
  cock WELL | clear-dice      lean the die in well 1 or 2 | empty both wells
  bounce LOC [SLOT]           make a reed at LOC chatter
  chatter N                   every reed flips N times as a man arrives or leaves (0: off)
  slide FROM TO               slide a man across the points between (30 ms on each)
  tumble D1 D2                the dice tumble through a few faces, then rest on D1 D2
  off-centre LOC | recentre LOC   push the top man at LOC off his reed | back
  dead LOC SLOT | weld LOC SLOT [white|black]   a reed stuck open | closed (slot 1: edge)
  free                        undo every dead, welded and off-centre reed
  unplug | replug             pull the USB cable | plug it back in
  noise [N]                   put N random bytes on the line (default 64)
  show                        the men on the table and the dice
  quit"""

MAX_NOISE = 1_000_000  # bytes of noise one command puts on the line
_MARK = {SlotState.WHITE: "W", SlotState.BLACK: "B"}


def describe(sim: SimulatedTable) -> str:
    """The men at every occupied location and what the dice wells read."""
    lines = []
    for location in LOCATIONS:
        men = sim.men(location)
        if men:
            lines.append(f"  {location:>9}: {''.join(_MARK[m] for m in men)}")
    faces = " ".join(d.name.lower() for d in sim.dice())
    lines.append(f"  dice: {faces}; cable {'in' if sim.plugged else 'out'}")
    return "\n".join(lines)


def execute(sim: SimulatedTable, line: str) -> str:
    """Run one command line against ``sim``; returns the reply (errors start ``error:``)."""
    words = line.split()
    if not words:
        return ""
    verb, args = words[0].lower(), words[1:]
    try:
        return _run(sim, verb, args)
    except (ValueError, IndexError) as exc:
        return f"error: {exc or 'missing argument'} (try help)"


def _run(sim: SimulatedTable, verb: str, args: list[str]) -> str:
    if verb == "place":
        for _ in range(int(args[2]) if len(args) > 2 else 1):
            sim.place(args[0], args[1])
    elif verb == "lift":
        sim.lift(args[0], args[1] if len(args) > 1 else None)
    elif verb == "move":
        sim.move(args[0], args[1])
    elif verb == "start":
        sim.set_position(STARTING_POSITION)
    elif verb == "clear":
        sim.clear()
    elif verb == "dice":
        sim.set_dice(int(args[0]), int(args[1]))
    elif verb == "throw":
        return "threw {} {}".format(*sim.throw())
    elif verb == "cock":
        sim.cock(int(args[0]))
    elif verb == "clear-dice":
        sim.clear_dice()
    elif verb == "bounce":
        sim.bounce(args[0], int(args[1]) - 1 if len(args) > 1 else None)
    elif verb == "chatter":
        sim.chatter = int(args[0])
    elif verb == "slide":
        sim.slide(args[0], args[1])
    elif verb == "tumble":
        sim.tumble(int(args[0]), int(args[1]))
    elif verb == "off-centre":
        sim.push_off_centre(args[0])
    elif verb == "recentre":
        sim.recentre(args[0])
    elif verb == "dead":
        sim.kill_reed(args[0], int(args[1]) - 1)
    elif verb == "weld":
        sim.weld_reed(args[0], int(args[1]) - 1, args[2] if len(args) > 2 else "white")
    elif verb == "free":
        sim.free_reeds()
    elif verb == "unplug":
        sim.unplug()
    elif verb == "replug":
        sim.replug()
    elif verb == "noise":
        count = int(args[0]) if args else 64
        if not 0 <= count <= MAX_NOISE:
            raise ValueError(f"noise takes 0 to {MAX_NOISE} bytes, not {count}")
        return f"injected {len(sim.noise(count))} bytes"
    elif verb == "show":
        return describe(sim)
    elif verb == "help":
        return HELP
    else:
        raise ValueError(f"unknown command {verb!r}")
    return "ok"
