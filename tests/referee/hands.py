"""Scripts of hands moving men, built from plays, for scenario tests."""

from __future__ import annotations

from kiosk.rig.scenario import ScenarioRunner
from kiosk.rules import BAR, OFF, Colour, Play


def _loc(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def step_actions(step, adversary: Colour, hit_first: bool = False) -> list[str]:
    """Lift the man, carry it, put it down; a hit man goes to the bar after (or before)."""
    hit = [f"lift {step.dst} {adversary}", f"place bar {adversary}"] if step.hit else []
    move = [f"lift {_loc(step.src)}", f"place {_loc(step.dst)}"]
    return hit + move if hit_first else move + hit


def play_actions(play: Play, mover: Colour, order=None, hit_first: bool = False) -> list[str]:
    """The actions of a whole play, its steps in ``order`` (indices) if given."""
    steps = [play.steps[i] for i in order] if order else list(play.steps)
    actions: list[str] = []
    for step in steps:
        actions += step_actions(step, mover.other, hit_first)
    return actions


#: How the table senses men in every scenario test (set per test by ``conftest.py``: the
#: whole scenario suite runs once per mode, with the same verdicts).
SENSING = ["polarity"]


def run(lines: list[str], settle_ms: int = 300) -> list[dict]:
    """Run script lines through the whole stack; returns the events."""
    events: list[dict] = []
    with ScenarioRunner(events.append, settle_ms=settle_ms, sensing=SENSING[0]) as runner:
        runner.run(lines)
    return events


def kinds(events: list[dict], kind: str) -> list[dict]:
    """The events of one kind."""
    return [e for e in events if e["event"] == kind]
