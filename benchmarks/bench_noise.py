"""A noisy table: whole games between two random legal players through the simulated table,
with clumsy hands, tumbling dice and chattering reeds, and a deliberate wrong placement in
about one move of twenty.

Each game runs through the scenario layer (stepped simulated table, pseudo-terminal, link,
referee), its hands written as script actions with short waits:

- clumsy hands: a man slid across the points on its way (the simulator's ``slide``), a
  man bouncing where it lands, two men carried at once, a hand resting on a man before it
  moves, a man pushed off his reed for a moment (``push_off_centre``, then ``recentre``);
- tumbling dice: the simulator's ``tumble`` (random faces for a moment before the dice
  rest on the faces thrown);
- chatter: every reed bouncing as men land and leave (the simulator's ``chatter`` switch).

``SimulatorFaults`` is the one place where the simulator's own fault switches plug in.

It counts ``false_alarms`` (an ``illegal`` event for a placement that was legal),
``missed_illegal`` (a deliberate wrong placement with no ``illegal`` event before it is put
right), ``dice_misread`` (a ``dice`` event with faces other than those that came to
rest) and times each verdict (from a settled frame reaching the referee to its event).

Run: .venv/bin/python benchmarks/bench_noise.py [--games 200] [--sensing occupancy]
The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field

from kiosk.play.scenario import SENSING, ScenarioRunner
from kiosk.play.stepped import STEP_MS
from kiosk.referee.index import PlayIndex
from kiosk.referee.referee import Referee
from kiosk.rules import BAR, OFF, Colour, Phase, Play, Position, Step
from kiosk.rules.moves import apply_step
from kiosk.simtable import SimulatedTable
from kiosk.table import LOCATIONS, location, project

SETTLE_MS = 300
WRONG_EVERY = 20  # one deliberate wrong placement in this many moves


CHATTER_FLIPS = 2  # the simulator's chatter: each reed flips this often as a man lands or leaves


class SimulatorFaults:
    """The simulator's own fault switches, in one place: ``switch_on`` sets them on a table
    (chatter on every reed), and the hands and dice of the soak use the simulator's own
    ``slide``, ``tumble`` and ``push_off_centre``."""

    def __init__(self, rng: random.Random, chatter: bool = True) -> None:
        self.rng = rng
        self.chatter = chatter
        self.used: dict[str, int] = {"chatter": 0, "slide": 0, "tumble": 0, "off-centre": 0}

    def switch_on(self, sim: SimulatedTable) -> list[str]:
        """Switch the simulator's faults on for this table; returns their names."""
        sim.chatter = CHATTER_FLIPS if self.chatter else 0
        return ["chatter", "slide", "tumble", "off-centre"] if self.chatter else []

    def lift(self, sim: SimulatedTable, where: str, colour: str) -> None:
        sim.lift(where, colour)
        self.used["chatter"] += bool(sim.chatter)

    def place(self, sim: SimulatedTable, where: str, colour: str) -> None:
        sim.place(where, colour)
        self.used["chatter"] += bool(sim.chatter)


@dataclass
class Tally:
    """What the soak counts."""

    games: int = 0
    moves: int = 0
    wrong_made: int = 0
    false_alarms: int = 0
    missed_illegal: int = 0
    dice_misread: int = 0
    misjudged: int = 0  # a play taken as another one
    not_taken: int = 0  # a whole legal play the referee did not take at Done
    choices: int = 0  # plays the switches could not tell apart, named by the player
    throws: int = 0
    verdict_ms: list[float] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)


class NoisyRunner(ScenarioRunner):
    """A scenario runner whose hands are clumsy and whose verdicts are timed."""

    def __init__(self, sensing: str, faults: SimulatorFaults, tally: Tally) -> None:
        self.events: list[dict] = []
        super().__init__(self.events.append, settle_ms=SETTLE_MS, sensing=sensing)
        self.faults = faults
        self.tally = tally
        faults.switch_on(self.sim)

    def wait(self, ms: int) -> None:
        """A hand's step, then the rest of a longer wait in one step: nothing moves then."""
        if ms <= 2 * STEP_MS:
            super().wait(ms)
            return
        super().wait(STEP_MS)
        self.table.wait(ms - STEP_MS, self._step, step_ms=ms - STEP_MS)

    def _step(self, now: int) -> None:
        """The frames of one step to the referee and its clock, timed when it answers."""
        before = len(self.events)
        t0 = time.perf_counter()
        super()._step(now)
        if any(e["event"] in VERDICTS for e in self.events[before:]):
            self.tally.verdict_ms.append((time.perf_counter() - t0) * 1000)

    # -- hands -------------------------------------------------------------------------

    def lift(self, where: str, colour: Colour) -> None:
        self.faults.lift(self.sim, where, str(colour))
        self.wait(STEP_MS)

    def place(self, where: str, colour: Colour) -> None:
        self.faults.place(self.sim, where, str(colour))
        self.wait(STEP_MS)


VERDICTS = ("illegal", "legal", "play", "dice", "destinations", "choose", "notice")


def _where(mover: Colour, point: int, owner: Colour | None = None) -> str:
    """A point in the mover's numbering, or the bar or tray of ``owner`` (the mover's)."""
    if point in (BAR, OFF):
        return location(mover if owner is None else owner, point)
    return location(mover, point)


def _throw(runner: NoisyRunner, rng: random.Random, tally: Tally) -> tuple[int, int]:
    """Tumbling dice (the simulator's ``tumble``): other faces for a moment, then the faces
    that rest."""
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    runner.action(f"tumble {d1} {d2}")  # the first throw starts the game (no opening cast)
    runner.faults.used["tumble"] += 1
    tally.throws += 1
    return d1, d2


def _wrong_target(
    plays: PlayIndex, now: Position, step: Step, sensing: str, referee: Referee
) -> int | None:
    """A point near the right one that the man of ``step`` may not be put on from the
    partial play ``now`` (no hit: the adversary has no man there), if there is one that
    the switches can tell from a legal board (a full point reads the same with one man
    more, a board may read as a legal one with a man in the hand, and on an occupancy
    table a wrong board may leave the counts of a legal one: see the referee's docstring)."""
    mover = now.turn
    legal_counts = (
        {tuple(map(sum, zip(b[::2], b[1::2], strict=True))) for b in plays._boards}
        if sensing == "occupancy"
        else set()
    )
    for dst in (step.dst - 1, step.dst + 1, step.dst - 2, step.dst + 2):
        if not 1 <= dst < step.src or now.count(mover.other, 25 - dst):
            continue
        moved = apply_step(now, Step(step.src, dst, step.src - dst, False))
        if plays.tree.is_partial(moved):
            continue
        seen = project(moved, plays.layout)
        if tuple(sum(seen[w]) for w in LOCATIONS) in legal_counts:
            continue  # the counts read as a legal play: no switch can tell
        if sensing == "occupancy" and any(
            plays.shows_partial(r) or plays.in_motion(r)
            for r in referee.readings({w: sum(seen[w]) for w in LOCATIONS})
        ):
            continue  # the counts read as a legal play still in motion (the referee's docstring)
        if not plays.shows_partial(seen) and not plays.in_motion(seen):
            return dst
    return None


def _play_step(
    runner: NoisyRunner, rng: random.Random, tally: Tally, position: Position, step: Step
) -> None:
    """One man moved with a clumsy hand, a hit man taken to the bar."""
    mover = position.turn
    adv = mover.other
    src, dst = _where(mover, step.src), _where(mover, step.dst)
    kind = rng.choice(("plain", "slide", "bounce", "rest", "nudge"))
    if kind == "slide" and step.src != BAR and step.dst != OFF and step.src - step.dst >= 2:
        runner.sim.slide(src, dst, man=str(mover), hold=runner.wait)  # across the points
        runner.faults.used["slide"] += 1
        runner.wait(STEP_MS)
    else:
        runner.lift(src, mover)
        if kind == "rest":
            runner.wait(SETTLE_MS + 2 * STEP_MS)  # longer than the board takes to settle
        runner.place(dst, mover)
        if kind == "bounce":
            runner.lift(dst, mover)
            runner.place(dst, mover)
        if kind == "nudge" and step.dst != OFF and runner.sim.men(dst):
            runner.sim.push_off_centre(dst)  # knocked off his reed for a moment
            runner.faults.used["off-centre"] += 1
            runner.wait(2 * STEP_MS)
            runner.sim.recentre(dst)
            runner.wait(STEP_MS)
    if step.hit:
        runner.lift(dst, adv)
        runner.place(_where(mover, BAR, adv), adv)
    tally.moves += 1


def _carry_two(
    runner: NoisyRunner, tally: Tally, position: Position, first: Step, second: Step
) -> None:
    """Two men lifted together and put down one after the other."""
    mover = position.turn
    runner.lift(_where(mover, first.src), mover)
    runner.lift(_where(mover, second.src), mover)
    runner.wait(500)
    runner.place(_where(mover, first.dst), mover)
    runner.place(_where(mover, second.dst), mover)
    tally.moves += 2


def _deliberate_wrong(runner: NoisyRunner, tally: Tally, now: Position, step: Step) -> bool:
    """Put a man on a point it may not reach, wait for the verdict, put it back."""
    plays = runner.core.referee._plays
    if plays is None or step.src == BAR:
        return False
    dst = _wrong_target(plays, now, step, runner.sensing, runner.core.referee)
    if dst is None:
        return False
    mover = now.turn
    runner.events.append({"event": "deliberate"})
    start = len(runner.events)
    runner.lift(_where(mover, step.src), mover)
    runner.place(_where(mover, dst), mover)
    runner.wait(SETTLE_MS + 2 * STEP_MS)
    tally.wrong_made += 1
    if not any(e["event"] == "illegal" for e in runner.events[start:]):
        tally.missed_illegal += 1
        tally.examples.append(
            f"missed: {now.position_id()} {runner.game.dice} {step.src}->{dst}"
        )
    runner.lift(_where(mover, dst), mover)
    runner.place(_where(mover, step.src), mover)
    runner.wait(SETTLE_MS + 2 * STEP_MS)
    runner.events.append({"event": "deliberate-end"})
    return True


def _play(runner: NoisyRunner, rng: random.Random, tally: Tally, play: Play) -> None:
    position = now = runner.game.position
    steps = list(play.steps)
    i = 0
    while i < len(steps):
        step = steps[i]
        if rng.randrange(WRONG_EVERY) == 0:
            _deliberate_wrong(runner, tally, now, step)
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        if (
            nxt is not None
            and rng.random() < 0.15
            and not step.hit
            and not nxt.hit
            and nxt.src not in (step.dst, BAR)
            and step.src != BAR
            and step.dst != OFF
            and nxt.dst != OFF
        ):
            _carry_two(runner, tally, position, step, nxt)
            now = apply_step(apply_step(now, step), nxt)
            i += 2
            continue
        _play_step(runner, rng, tally, position, step)
        now = apply_step(now, step)
        i += 1
    start = len(runner.events)
    runner.action("press done")
    for event in runner.events[start:]:
        if event["event"] == "choose" and str(play) in event["options"]:
            tally.choices += 1  # the switches cannot tell: the player says which play it was
            runner.action(f"choose {event['options'].index(str(play)) + 1}")


def play_game(runner: NoisyRunner, rng: random.Random, tally: Tally) -> None:
    """One game from the standard position to its end between two random players."""
    runner.action(f"turn {rng.choice(('white', 'black'))}")
    runner.action("setup standard")
    for _ in range(400):
        game = runner.game
        if game.phase == Phase.OVER:
            break
        start = len(runner.events)
        d1, d2 = _throw(runner, rng, tally)
        runner.wait(runner.core.referee.config.dice_rest)  # the dice rest; the throw counts
        read = [e["dice"] for e in runner.events[start:] if e["event"] in ("dice", "opening")]
        if read != [[d1, d2]]:
            tally.dice_misread += 1
            tally.examples.append(f"dice {d1}-{d2} read as {read}")
        if game.phase != Phase.PLAY:
            continue  # no legal play: the turn passed by itself
        play = rng.choice(game.legal_plays())
        try:
            _play(runner, rng, tally, play)
        except ValueError as err:  # the table no longer holds the men the game says
            tally.misjudged += 1
            tally.examples.append(f"table and game differ: {err}")
            break
        taken = [e["move"] for e in runner.events[start:] if e["event"] == "play"]
        if game.phase == Phase.PLAY:  # the play was not taken: say why and give up the game
            tally.not_taken += 1
            tally.examples.append(f"not taken: {play} {runner.events[start:][-2:]}")
            break
        if taken != [str(play)]:
            tally.misjudged += 1
            tally.examples.append(f"played {play}, judged {taken}")
            break
    tally.games += 1


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sensing", choices=SENSING, default="polarity")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--no-chatter", action="store_true", help="leave the reeds quiet")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    faults = SimulatorFaults(rng, chatter=not args.no_chatter)
    started = time.monotonic()
    with NoisyRunner(args.sensing, faults, tally) as runner:
        for _ in range(args.games):
            before = len(runner.events)
            play_game(runner, rng, tally)
            made = runner.events[before:]
            tally.false_alarms += _false_alarms(made)
            runner.events.clear()
            if tally.games % 25 == 0:
                print(f"{tally.games} games, {time.monotonic() - started:.0f} s", file=sys.stderr)
    figures = {
        "sensing": args.sensing,
        "games": tally.games,
        "moves": tally.moves,
        "throws": tally.throws,
        "wrong_placements": tally.wrong_made,
        "faults_used": faults.used,
        "false_alarms": tally.false_alarms,
        "missed_illegal": tally.missed_illegal,
        "dice_misread": tally.dice_misread,
        "misjudged_plays": tally.misjudged,
        "plays_not_taken": tally.not_taken,
        "choices_asked": tally.choices,
        "p99_verdict_ms": round(_percentile(tally.verdict_ms, 0.99), 3),
        "worst_verdict_ms": round(max(tally.verdict_ms, default=0.0), 3),
        "seconds": round(time.monotonic() - started, 1),
    }
    for example in tally.examples[:10]:
        print(example, file=sys.stderr)
    print(
        f"{tally.games} games, {tally.moves} moves ({args.sensing} sensing): "
        f"{tally.false_alarms} false alarms, {tally.missed_illegal} of {tally.wrong_made} "
        f"wrong placements missed, {tally.dice_misread} of {tally.throws} throws misread"
    )
    print(json.dumps(figures))


def _false_alarms(events: list[dict]) -> int:
    """``illegal`` events outside the deliberate wrong placements (marked in the events)."""
    count = 0
    in_window = False
    for event in events:
        kind = event["event"]
        if kind in ("deliberate", "deliberate-end"):
            in_window = kind == "deliberate"
        elif kind == "illegal" and not in_window:
            count += 1
    return count


if __name__ == "__main__":
    main()
