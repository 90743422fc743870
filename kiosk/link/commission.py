"""Commissioning a new table: every slot, bar and tray slot and dice-well cell, one by one.

The installer clears the table, then puts a man on the one slot the screen lights, filling
each location from the edge (the men stay until the location is full, then come off), and
puts a man on each dice-well cell in turn. ``Commissioning`` follows the frames the link
delivers and records every slot that reads wrong: one that closes with no man there (a
welded reed, a stray magnet), one that does not read its man (a dead reed, a reed set
too far from the slot centre), one whose man is read somewhere else (crossed wires).
The result is stored beside the calibration (``commission.toml``) and ``apply`` gives the
layout with those slots left out: the link drops them from every frame, so the location
has one fewer slot and the referee needs to know nothing about it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.files import FileProblem, read_toml, write_atomically
from kiosk.link.frames import BoardFrame
from kiosk.table.layout import LOCATIONS, DieReading, SlotState, TableLayout

COMMISSION_FILE = "commission.toml"
WELL_CELLS = 9
CENTRE_CELL = 4  # a man on the centre cell alone reads as a die with 1 down: six up


@dataclass(frozen=True)
class Step:
    """One place to fill: a slot (``well`` is ``None``) or a dice-well cell."""

    location: str | None = None
    slot: int = 0  # 0 at the edge
    well: int | None = None  # 0 or 1
    cell: int = 0  # 0-8, row by row

    def name(self) -> str:
        """How the screen and the findings name it."""
        if self.well is None:
            return f"{_where(self.location or '')}, slot {self.slot + 1} from the edge"
        return f"dice well {self.well + 1}, cell {self.cell + 1} of 9 (row by row)"


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
    """The walk through every step, judged on the frames the link delivers.

    ``phase`` is ``clear`` (waiting for the installer to say the table is clear), then for
    each step ``place`` (waiting for the lit slot to read a man; the men before it at
    that location stay), ``lift`` after a location's last slot or a dice cell (waiting
    for it to read empty again), and ``done``.
    """

    layout: TableLayout
    steps: list[Step] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    index: int = 0
    phase: str = "clear"
    _welded: set[tuple[str, int]] = field(default_factory=set)
    _last: BoardFrame | None = None

    def __post_init__(self) -> None:
        if not self.steps:
            self.steps = steps(self.layout)

    @property
    def current(self) -> Step | None:
        """The step the installer is on (``None`` when done)."""
        return self.steps[self.index] if self.phase != "done" else None

    def instruction(self) -> str:
        """What the installer is to do now, in words."""
        step = self.current
        if self.phase == "clear":
            return "Take every man and both dice off the table, then press Select."
        if step is None:
            bad = len(self.findings)
            return f"Done: {bad} slot(s) read wrong." if bad else "Done: every slot reads right."
        count = f"({self.index + 1} of {len(self.steps)})"
        if self.phase == "place":
            return f"Put a man on {step.name()} {count}. Press B if nothing happens."
        if step.well is None:
            return f"Take every man off {_where(step.location or '')}."
        return f"Take the man off {step.name()}."

    def table_is_clear(self) -> None:
        """The installer says the table is clear: whatever reads a man now is a fault."""
        if self.phase != "clear":
            return
        if self._last is not None:
            for location, states in self._last.slots.items():
                for slot, state in enumerate(states):
                    if state is not SlotState.EMPTY:
                        self._welded.add((location, slot))
                        self.findings.append(
                            Finding(Step(location, slot), "reads a man with none there")
                        )
        self.phase = "place"
        self._skip_known()

    def frame(self, frame: BoardFrame) -> None:
        """Judge a frame from the link."""
        self._last = frame
        step = self.current
        if step is None or self.phase == "clear":
            return
        if self.phase == "place":
            if self._reads(frame, step):
                self._placed()
            elif step.well is None:
                other = self._elsewhere(frame, step)
                if other is not None:
                    self.findings.append(Finding(step, f"its man is read at {other.name()}"))
                    self._placed()
        elif self.phase == "lift" and self._empty(frame, step):
            self._next()

    def not_reading(self) -> None:
        """The installer says the man is on the lit slot and nothing happened."""
        step = self.current
        if step is None or self.phase != "place":
            return
        self.findings.append(Finding(step, "does not read its man"))
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
            step = self.steps[self.index]
            if (step.location, step.slot) not in self._welded or step.well is not None:
                return
            self.index += 1
        self.phase = "done"

    @staticmethod
    def _cell_reading(step: Step) -> DieReading:
        return DieReading.SIX if step.cell == CENTRE_CELL else DieReading.COCKED

    def _reads(self, frame: BoardFrame, step: Step) -> bool:
        if step.well is not None:
            return frame.dice[step.well] is self._cell_reading(step)
        return frame.slots[step.location or ""][step.slot] is not SlotState.EMPTY

    def _empty(self, frame: BoardFrame, step: Step) -> bool:
        if step.well is not None:
            return frame.dice[step.well] is DieReading.EMPTY
        states = frame.slots[step.location or ""]
        return all(
            state is SlotState.EMPTY or (step.location, slot) in self._welded
            for slot, state in enumerate(states)
        )

    def _elsewhere(self, frame: BoardFrame, step: Step) -> Step | None:
        """A slot reading a man where none should be (not this location's filled slots)."""
        for location, states in frame.slots.items():
            for slot, state in enumerate(states):
                if state is SlotState.EMPTY or (location, slot) in self._welded:
                    continue
                if location == step.location and slot <= step.slot:
                    continue
                return Step(location, slot)
        return None


def commission_path(calibration_file: str | Path) -> Path:
    """``commission.toml`` beside the calibration file."""
    return Path(calibration_file).expanduser().parent / COMMISSION_FILE


def save(path: str | Path, walk: Commissioning) -> Path:
    """Store the walk's findings at ``path`` (atomically); returns the path."""
    lines = [
        "# Written by `kiosk commission`: the slots of this table that read wrong.",
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
            lines += [f"well = {step.well + 1}", f"cell = {step.cell + 1}"]
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

    def number(entry: dict, key: str, high: int) -> int:
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
                step = Step(well=number(entry, "well", 2) - 1, cell=number(entry, "cell", 9) - 1)
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
