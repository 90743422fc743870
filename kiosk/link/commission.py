"""Commissioning a new table: every slot, bar and tray slot and dice-well cell, one by one.

The installer clears the table (the table's self-test then names every reed and dice-well
Hall switch that reads with nothing there), puts a man on the one slot the screen lights,
filling each location from the edge (the men stay until the location is full, then come
off), and then puts the well jig in each dice well, over each cell in turn: a blank die
with one magnet on three of its faces, which the field model (``hardware/field.py``)
shows switches the cell tested and no other. ``Commissioning`` follows the frames and
self-test reports the link delivers and records every slot or cell that reads wrong: one
that reads with nothing there (a welded reed, a Hall switch stuck on, a stray magnet), one
that does not read its man or the jig (a dead reed or switch, a reed set too far from the
slot centre), one whose man or jig is read somewhere else (crossed wires).
The result is stored beside the calibration (``commission.toml``): ``apply`` gives the
layout with the bad slots left out (the link drops them from every frame, so the location
has one fewer slot and the referee needs to know nothing about it), and a bad well cell
means the players enter their throws with the buttons (``kiosk.app.dice``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.files import FileProblem, read_toml, write_atomically
from kiosk.link.frames import BoardFrame, SelfTestReport
from kiosk.table.layout import LOCATIONS, SlotState, TableLayout

COMMISSION_FILE = "commission.toml"
# A dice well's Hall switches, as the table's self-test names them (firmware bgtable/dice.py)
# (the ring going round, corners 1-4 and edges a-d, then m, the middle)
CELL_NAMES = ("1", "a", "2", "b", "3", "c", "4", "d", "m")
WELL_CELLS = len(CELL_NAMES)
CENTRE = 8
# What each cell is called on screen.
CELL_KINDS = tuple(
    "centre" if name == "m" else f"{'edge' if name.isalpha() else 'corner'} {name}"
    for name in CELL_NAMES
)
# How the installer places the well jig to test each cell: the face down and where its mark
# goes (the jig's faces, each with one magnet, south out: C at a corner, E at the middle of
# an edge, M at its centre; hardware/field.py, jig_magnets).
JIG_PLACING = tuple(
    "face M down"
    if name == "m"
    else f"face {'E' if name.isalpha() else 'C'} down, its mark at {kind}"
    for name, kind in zip(CELL_NAMES, CELL_KINDS, strict=True)
)


@dataclass(frozen=True)
class Step:
    """One place to fill: a slot (``well`` is ``None``) or a dice-well cell."""

    location: str | None = None
    slot: int = 0  # 0 at the edge
    well: int | None = None  # 0 or 1
    cell: int = 0  # 0-7 the ring going round (corner 1, edge a, ...), 8 the centre

    def name(self) -> str:
        """How the screen and the findings name it."""
        if self.well is None:
            return f"{_where(self.location or '')}, slot {self.slot + 1} from the edge"
        return f"dice well {self.well + 1}, cell {CELL_NAMES[self.cell]} ({CELL_KINDS[self.cell]})"

    def table_name(self) -> str:
        """How the table's self-test names it: ``13/2``, ``die1/m``."""
        if self.well is None:
            return f"{self.location}/{self.slot + 1}"
        return f"die{self.well + 1}/{CELL_NAMES[self.cell]}"


def step_named(name: str) -> Step | None:
    """The step the table's self-test names ``name`` (``13/2``, ``die2/3``), if any."""
    where, _, which = name.partition("/")
    if where.startswith("die") and where[3:] in ("1", "2") and which in CELL_NAMES:
        return Step(well=int(where[3:]) - 1, cell=CELL_NAMES.index(which))
    if where in LOCATIONS and which.isdigit() and int(which) >= 1:
        return Step(where, int(which) - 1)
    return None


def _where(location: str) -> str:
    if location.isdigit():
        return f"point {location}"
    return location.replace("-", " ").replace("off", "tray")


def steps(layout: TableLayout) -> list[Step]:
    """Every slot of every location in wire order, then every cell of both dice wells."""
    found = [
        Step(location, slot)
        for location in LOCATIONS
        for slot in range(layout.physical_slots(location))
    ]
    found += [Step(well=well, cell=cell) for well in (0, 1) for cell in range(WELL_CELLS)]
    return found


@dataclass(frozen=True)
class Finding:
    """A slot or cell that read wrong, and how."""

    step: Step
    reason: str


@dataclass
class Commissioning:
    """The walk through every step, judged on the frames and self-test reports the link
    delivers.

    ``phase`` is ``clear`` (waiting for the installer to say the table is clear), ``check``
    (the table's self-test of the clear table, asked for while ``wants_self_test``), then
    for each step ``place`` (waiting for the lit slot to read a man, the men before it at
    that location staying; or for the jig's cell to switch), ``lift`` after a location's
    last slot or a jig cell (waiting for it to read empty again), and ``done``. Dice-well
    steps are judged on self-test reports: the walk wants one while it is on such a step.
    """

    layout: TableLayout
    steps: list[Step] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    index: int = 0
    phase: str = "clear"
    _welded: set[Step] = field(default_factory=set)
    _last: BoardFrame | None = None

    def __post_init__(self) -> None:
        if not self.steps:
            self.steps = steps(self.layout)

    @property
    def current(self) -> Step | None:
        """The step the installer is on (``None`` when done)."""
        return self.steps[self.index] if self.phase not in ("done", "clear", "check") else None

    @property
    def wants_self_test(self) -> bool:
        """Whether the walk is waiting for the table's self-test of a clear table."""
        step = self.current
        return self.phase == "check" or (step is not None and step.well is not None)

    def instruction(self) -> str:
        """What the installer is to do now, in words."""
        step = self.current
        if self.phase == "clear":
            return "Take every man, both dice and the jig off the table, then press Select."
        if self.phase == "check":
            return "Checking the clear table..."
        if step is None:
            bad = len(self.findings)
            if not bad:
                return "Done: every slot and cell reads right."
            done = f"Done: {bad} slot(s) or cell(s) read wrong."
            if self.well_findings():
                done += " The dice will be entered with the buttons until the wells are repaired."
            return done
        count = f"({self.index + 1} of {len(self.steps)})"
        if self.phase == "place":
            if step.well is not None:
                return (
                    f"Put the well jig in dice well {step.well + 1}, {JIG_PLACING[step.cell]} "
                    f"{count}. Press B if nothing happens."
                )
            return f"Put a man on {step.name()} {count}. Press B if nothing happens."
        if step.well is None:
            return f"Take every man off {_where(step.location or '')}."
        return f"Take the jig out of dice well {step.well + 1}."

    def table_is_clear(self) -> None:
        """The installer says the table is clear: the table's self-test is asked for, and
        whatever it finds reading then is a fault."""
        if self.phase == "clear":
            self.phase = "check"

    def self_test(self, report: SelfTestReport) -> None:
        """Judge the table's self-test of a clear table (``t empty``)."""
        on = {step for step in map(step_named, report.closed) if step is not None}
        if self.phase == "check":
            for found in sorted(on, key=self.steps.index):
                self._welded.add(found)
                what = (
                    "reads a man with none there"
                    if found.well is None
                    else "switches with nothing there"
                )
                self.findings.append(Finding(found, what))
            self.phase = "place"
            self._skip_known()
            return
        step = self.current
        if step is None or step.well is None:
            return
        mine = {s for s in on if s.well == step.well} - self._welded
        if self.phase == "place":
            if step in mine:
                self._placed()
            elif mine:
                other = min(mine, key=self.steps.index)
                self.findings.append(Finding(step, f"the jig is read at {other.name()}"))
                self._placed()
        elif self.phase == "lift" and not mine:
            self._next()

    def frame(self, frame: BoardFrame) -> None:
        """Judge a frame from the link."""
        self._last = frame
        step = self.current
        if step is None or step.well is not None:
            return
        if self.phase == "place":
            if self._reads(frame, step):
                self._placed()
            else:
                other = self._elsewhere(frame, step)
                if other is not None:
                    self.findings.append(Finding(step, f"its man is read at {other.name()}"))
                    self._placed()
        elif self.phase == "lift" and self._empty(frame, step):
            self._next()

    def not_reading(self) -> None:
        """The installer says the man (or the jig) is in place and nothing happened."""
        step = self.current
        if step is None or self.phase != "place":
            return
        what = "does not read its man" if step.well is None else "does not switch for the jig"
        self.findings.append(Finding(step, what))
        self._placed()

    def bad_slots(self) -> list[tuple[str, int]]:
        """The slots (not dice cells) that read wrong, in wire order, once each."""
        found = []
        for finding in self.findings:
            step = finding.step
            if step.well is None and step.location is not None:
                key = (step.location, step.slot)
                if key not in found:
                    found.append(key)
        return found

    def well_findings(self) -> list[Finding]:
        """The findings of dice-well cells."""
        return well_findings(self.findings)

    # -- internals -----------------------------------------------------------------------

    def _placed(self) -> None:
        """The lit slot is done: on to the next slot of its location, or clear it."""
        step = self.steps[self.index]
        following = self.steps[self.index + 1] if self.index + 1 < len(self.steps) else None
        if step.well is None and following is not None and following.location == step.location:
            self._next()
        else:
            self.phase = "lift"

    def _next(self) -> None:
        self.index += 1
        self.phase = "place"
        self._skip_known()

    def _skip_known(self) -> None:
        while self.index < len(self.steps):
            if self.steps[self.index] not in self._welded:
                return
            self.index += 1
        self.phase = "done"

    def _reads(self, frame: BoardFrame, step: Step) -> bool:
        return frame.slots[step.location or ""][step.slot] is not SlotState.EMPTY

    def _empty(self, frame: BoardFrame, step: Step) -> bool:
        states = frame.slots[step.location or ""]
        return all(
            state is SlotState.EMPTY or Step(step.location, slot) in self._welded
            for slot, state in enumerate(states)
        )

    def _elsewhere(self, frame: BoardFrame, step: Step) -> Step | None:
        """A slot reading a man where none should be (not this location's filled slots)."""
        for location, states in frame.slots.items():
            for slot, state in enumerate(states):
                if state is SlotState.EMPTY or Step(location, slot) in self._welded:
                    continue
                if location == step.location and slot <= step.slot:
                    continue
                return Step(location, slot)
        return None


def well_findings(findings: list[Finding]) -> list[Finding]:
    """The findings of dice-well cells: with any, the wells cannot be trusted."""
    return [finding for finding in findings if finding.step.well is not None]


def commission_path(calibration_file: str | Path) -> Path:
    """``commission.toml`` beside the calibration file."""
    return Path(calibration_file).expanduser().parent / COMMISSION_FILE


def save(path: str | Path, walk: Commissioning) -> Path:
    """Store the walk's findings at ``path`` (atomically); returns the path."""
    lines = [
        "# Written by `kiosk commission`: the slots and dice-well cells of this table that",
        "# read wrong.",
        f"# {time.strftime('%Y-%m-%d %H:%M')}; layout {walk.layout.wire()}, "
        f"{walk.layout.sensing} sensing. The kiosk leaves these slots out.",
        f'layout = "{walk.layout.wire()}"',
        "",
    ]
    for finding in walk.findings:
        step = finding.step
        lines.append("[[bad]]")
        if step.well is None:
            lines += [f'location = "{step.location}"', f"slot = {step.slot + 1}"]
        else:
            lines += [f"well = {step.well + 1}", f'cell = "{CELL_NAMES[step.cell]}"']
        lines += [f'reason = "{finding.reason}"', ""]
    return write_atomically(path, "\n".join(lines))


def load(path: str | Path) -> list[Finding]:
    """The findings stored at ``path`` (none if it does not exist); ``ValueError`` in words
    if the file is damaged."""
    try:
        data = read_toml(path)
    except FileNotFoundError:
        return []
    except FileProblem as exc:
        raise ValueError(f"{exc}; run kiosk commission again") from None
    entries = data.get("bad", [])
    if not isinstance(entries, list):
        raise ValueError(
            f"{path}: 'bad' is not a list of [[bad]] slots; run kiosk commission again"
        )

    def number(entry: dict[str, Any], key: str, high: int) -> int:
        value = entry[key]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
            raise ValueError(f"{key} must be a whole number 1-{high}")
        return value

    found = []
    for entry in entries:
        try:
            if not isinstance(entry, dict):
                raise TypeError("not a [[bad]] table")
            if "well" in entry:
                well, cell = number(entry, "well", 2), str(entry["cell"])
                if cell not in CELL_NAMES:
                    raise ValueError(f"no dice well {well} cell {cell[:20]!r}")
                step = Step(well=well - 1, cell=CELL_NAMES.index(cell))
            else:
                location = str(entry["location"])
                if location not in LOCATIONS:
                    raise ValueError(f"no location {location[:40]!r}")
                step = Step(location, number(entry, "slot", 15) - 1)
            found.append(Finding(step, str(entry.get("reason", ""))[:200]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"{path} has a bad entry ({exc}); run kiosk commission again"
            ) from None
    return found


def apply(layout: TableLayout, findings: list[Finding]) -> TableLayout:
    """``layout`` with every bad slot left out (dice cells cannot be left out)."""
    for finding in findings:
        step = finding.step
        if step.well is None and step.location is not None:
            if (step.location, step.slot) in layout.dropped:
                continue
            try:
                layout = layout.without(step.location, step.slot)
            except ValueError:
                continue  # the slot is not on this layout, or its location's last one
    return layout
