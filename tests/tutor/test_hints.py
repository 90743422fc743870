"""Graded destinations and the hint budget (issue 33): the grades of a lifted man's
destinations from the roll's weighed plays, the budget's setting in the configuration and
in a lesson, and the hint giver's events turn by turn (grades late, a budget spent,
"think first", the table's own turns left alone)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kiosk.app.hinting import HintGiver, HintTurn
from kiosk.config import ConfigError, HintBudget, load_config_text
from kiosk.events import Destinations, Dice, Event, Hints, LessonEvent, Played
from kiosk.rules import Colour, Position, get_profile
from kiosk.rules.moves import Play
from kiosk.rules.tree import PlayTree
from kiosk.table.sensing import location
from kiosk.tutor.coach import Coach
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.hints import RollGrades, grade
from kiosk.tutor.lessons.model import LessonError, read_lesson

START = Position.standard()
WHITE = Colour.WHITE


def _ranked(equities: dict[str, float], dice: tuple[int, int]) -> list[tuple[Play, float]]:
    """The roll's plays from the standard start with the equities given (by notation), every
    other play far behind; best first."""
    plays = START.legal_plays(*dice)
    known = {str(START.parse_play(*dice, text)): e for text, e in equities.items()}
    scored = [(p, known.get(str(p), -1.0)) for p in plays]
    return sorted(scored, key=lambda pe: -pe[1])


def test_a_destination_is_graded_by_the_best_play_that_still_moves_the_man_there() -> None:
    dice = (3, 1)
    ranked = _ranked({"8/5 6/5": 0.2, "24/21 6/5": 0.17, "13/10 6/5": 0.05}, dice)
    grades = RollGrades(PlayTree(START, *dice), ranked)
    # 8/5 leads to the best play; 8/7 and 8/4 only to plays far behind
    assert grades.destinations(START, 8) == {5: "best", 7: "costly", 4: "costly"}
    # 24/21 leads to 24/21 6/5, 0.03 behind: costs a little; 24/23 and 24/20 far more
    assert grades.destinations(START, 24) == {21: "fair", 23: "costly", 20: "costly"}
    # 13/10 leads to 13/10 6/5, 0.15 behind: costly
    assert grades.destinations(START, 13)[10] == "costly"
    # 6/5 is the first step of three plays: the best of them, 8/5 6/5, grades it
    assert grades.destinations(START, 6)[5] == "best"
    # after 6/5 the 3 is left: 8/5 best, 24/21 fair, 13/10 costly (from the play made so far)
    six_five = next(s for s in START.parse_play(3, 1, "8/5 6/5").steps if s.src == 6)
    after = PlayTree(START, *dice).after(START, six_five)
    assert grades.destinations(after, 8) == {5: "best"}
    assert grades.destinations(after, 24) == {21: "fair"}
    assert grades.destinations(after, 13) == {10: "costly"}
    elsewhere = START.parse_play(6, 5, "24/13").result.with_turn(WHITE)
    assert grades.destinations(elsewhere, 8) == {}  # no partial play of this roll


def test_a_mans_run_through_two_points_is_graded_where_it_stops() -> None:
    dice = (6, 5)
    ranked = _ranked({"24/13": 0.1, "24/18 13/8": 0.05}, dice)
    grades = RollGrades(PlayTree(START, *dice), ranked)
    # 24/18 may run on to 13 (24/13, the best): best; 24/19 is blocked
    assert grades.destinations(START, 24) == {13: "best", 18: "best"}
    assert grades.destinations(START, 13) == {8: "fair", 7: "costly", 2: "costly"}


def test_the_grades_thresholds_and_the_only_play() -> None:
    assert [grade(x) for x in (0.0, 0.0299, 0.03, 0.12, 0.1201)] == [
        "best",
        "best",
        "fair",
        "fair",
        "costly",
    ]
    only = START.parse_play(3, 1, "24/21 24/23")  # a roll with one play: nothing to weigh
    grades = RollGrades(PlayTree(START, 3, 1, plays=[only]), [])
    assert grades.destinations(START, 24) == {21: "best", 23: "best"}


@pytest.mark.parametrize("dice", [(4, 2), (3, 3)])
@pytest.mark.parametrize("seed", range(3))
def test_the_coachs_best_play_starts_at_a_best_destination(
    seed: int, dice: tuple[int, int]
) -> None:
    """In positions of a random game, the first man of the coach's best play goes to a
    destination graded ``best``, and every grade is one of the three."""
    rng = random.Random(seed)
    position = START
    for _ in range(8 + 3 * seed):
        plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        position = rng.choice(plays).result if plays else position.with_turn(position.turn.other)
    coach = Coach(BuiltinEvaluator())
    grades = coach.grade_roll(position, dice)
    top = coach.ranked(position, dice, 1)
    best = top[0].best
    if not best.steps:
        pytest.skip("no play of the roll here")
    first = best.steps[0]
    assert grades.destinations(position, first.src)[first.dst] == "best"
    for src in {s.src for p in position.legal_plays(*dice) for s in p.steps}:
        assert set(grades.destinations(position, src).values()) <= {"best", "fair", "costly"}


def test_the_hint_budget_is_read_checked_and_written_back() -> None:
    assert HintBudget.parse("Budget 3") == HintBudget("budget", 3)
    assert str(HintBudget.parse("budget 3")) == "budget 3"
    assert HintBudget().mode == "legal" and not HintBudget().graded
    for bad in ("budget", "budget 0", "budget 16", "all", "", 3, None):
        with pytest.raises(ValueError, match="is not a hint budget|out of range"):
            HintBudget.parse(bad)
    assert load_config_text("").tutor.hint_budget == HintBudget("legal")  # the default
    assert load_config_text('[tutor]\nhints = "think"\n').tutor.hint_budget == HintBudget("think")
    with pytest.raises(ConfigError) as err:
        load_config_text('[tutor]\nhints = "lots"\n')
    assert str(err.value) == (
        "[tutor] hints: 'lots' is not a hint budget; allowed: everything, legal, "
        "budget N (N graded lifts a turn, 1-15), think"
    )


HEAD = 'id = "t"\nnumber = 1\ntitle = "T"\nsummary = "S"\n'
STEP = '[[step]]\nkind = "explain"\ntext = "x"\n'


def test_a_lesson_sets_its_own_hint_budget_checked(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(HEAD + STEP, encoding="utf-8")
    assert read_lesson(path).hints is None  # the table's setting holds
    path.write_text(HEAD + 'hints = "budget 2"\n' + STEP, encoding="utf-8")
    assert read_lesson(path).hints == HintBudget("budget", 2)
    path.write_text(HEAD + 'hints = "sometimes"\n' + STEP, encoding="utf-8")
    with pytest.raises(LessonError, match="t.toml: hints: 'sometimes' is not a hint budget"):
        read_lesson(path)


# -- the hint giver ------------------------------------------------------------------------


class Giver:
    """A hint giver on a list, its grades weighed when the test says (as the coach's
    thread would, later)."""

    def __init__(
        self,
        budget: str,
        player: Colour = WHITE,
        dice: tuple[int, int] = (3, 1),
        position: Position = START,
    ):
        self.events: list[Event] = []
        self.player = player
        self.position = position.with_turn(player)
        self.waiting: list = []
        self.turn: HintTurn | None = HintTurn(
            self.position, dice, player, HintBudget.parse(budget), get_profile(None)
        )
        self.giver = HintGiver(self.events.append, lambda: self.turn, self._grade)

    def _grade(self, position, dice, profile, done) -> None:
        self.waiting.append(lambda: done(RollGrades.rate(position, dice, BuiltinEvaluator())))

    def weigh(self) -> None:
        for job in self.waiting:
            job()
        self.waiting.clear()

    def throw(self) -> None:
        assert self.turn is not None
        self.giver.follow(Dice(player=self.turn.player, dice=self.turn.dice))

    def lift(self, point: int, base: Position | None = None) -> list[Hints]:
        mover = self.player
        base = self.position if base is None else base
        before = len(self.events)
        self.giver.follow(
            Destinations(
                src=str(point),
                to=(),
                player=mover,
                table={"from": location(mover, point), "to": []},
                base=base.with_turn(mover).position_id(),
            )
        )
        return [e for e in self.events[before:] if isinstance(e, Hints)]


def test_everything_grades_each_lift_once_the_roll_is_weighed() -> None:
    g = Giver("everything")
    g.throw()
    assert g.lift(8) == []  # not weighed yet: the legal destinations stay as they are
    g.weigh()  # the grades come: the man still in the hand is graded at once
    assert g.events == [
        Hints(
            player=WHITE,
            src="8",
            state="graded",
            grades={"5": "best", "7": "costly", "4": "costly"},
        )
    ]
    (again,) = g.lift(6)
    assert again.grades == {"5": "best", "3": "costly", "2": "costly"}


def test_a_budget_of_two_grades_two_lifts_then_says_used_up() -> None:
    g = Giver("budget 2")
    g.throw()
    g.weigh()
    first, second = g.lift(8), g.lift(6)
    assert [h.left for h in first + second] == [1, 0]
    assert g.lift(8)[0].state == "used-up"
    g.giver.follow(Played(player=WHITE, dice=(3, 1), move="8/5 6/5"))
    g.turn = HintTurn(
        START.with_turn(WHITE), (3, 1), WHITE, HintBudget("budget", 2), get_profile(None)
    )
    g.throw()  # a new turn: the budget again
    g.weigh()
    assert g.lift(8)[0].state == "graded"


def test_the_same_lift_reported_again_is_counted_once() -> None:
    g = Giver("budget 1")
    g.throw()
    g.weigh()
    assert g.lift(8)[0].left == 0
    assert g.lift(8)[0].state == "graded"  # the referee's second report of that lift
    assert g.lift(6)[0].state == "used-up"


def test_think_shows_nothing_and_legal_publishes_nothing() -> None:
    g = Giver("think")
    g.throw()
    assert g.waiting == []  # nothing to weigh: nothing graded is shown
    assert g.lift(8) == [Hints(player=WHITE, src="8", state="think")]
    legal = Giver("legal")
    legal.throw()
    assert legal.lift(8) == [] and legal.waiting == [] and legal.events == []


def test_grades_of_an_earlier_turn_and_the_tables_turns_are_dropped() -> None:
    g = Giver("everything")
    g.throw()
    g.lift(8)
    stale = g.waiting[:]
    g.waiting.clear()
    g.giver.follow(Played(player=WHITE, dice=(3, 1), move="8/5 6/5"))
    g.throw()  # the next throw, before the last one's grades came
    for job in stale:
        job()
    assert g.events == []  # too late: dropped
    table = Giver("everything")
    table.turn = None  # the table's own turn: no hints
    table.giver.follow(Dice(player=WHITE, dice=(3, 1)))
    assert table.lift(8) == [] and table.waiting == []


def test_a_lessons_referee_events_are_followed_and_black_is_graded_in_its_numbering() -> None:
    g = Giver("everything", player=Colour.BLACK)
    g.giver.follow(
        LessonEvent(
            data={"event": "dice", "lesson": "t"}, inner=Dice(player=Colour.BLACK, dice=(3, 1))
        )
    )
    g.weigh()
    (hints,) = g.lift(8)
    # black's 8 point is the table's 17, its 5 point the table's 20
    assert hints.src == "17" and hints.grades == {"20": "best", "18": "costly", "21": "costly"}


def test_a_man_on_the_bar_is_graded_where_it_enters() -> None:
    hit = START.parse_play(3, 1, "24/21 24/23").result.parse_play(4, 2, "8/4* 6/4").result
    g = Giver("everything", position=hit)
    g.throw()
    g.weigh()
    (hints,) = g.lift(25)
    assert hints.src == "bar-white" and hints.grades == {"22": "best", "24": "fair"}


def test_a_position_met_with_different_dice_left_is_graded_by_the_dice_it_has_left() -> None:
    """Men on the 3 and ace points, 3-1: 3/off 1/off wins; 3/2/off leaves the man on the
    ace, which 3/off alone also leaves (with the 1 still to play). Putting the man down on
    the 2 is costly, though the position it ends in is also on the way to the best play."""
    from kiosk.rules import Position
    from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
    from kiosk.tutor.hints import RollGrades

    start = Position.from_id("YAAASAAAAAAAAA")  # white: men on 3 and 1; black: two on its 6
    grades = RollGrades.rate(start, (3, 1), BuiltinEvaluator())
    assert grades.destinations(start, 3) == {0: "best", 2: "costly"}
    steps = dict(((step.src, step.dst), after) for step, after in grades.tree.next_steps(start))
    assert grades.destinations(steps[3, 0], 1) == {0: "best"}  # 3/off, the 1 still to play
    assert grades.destinations(steps[3, 2], 2) == {0: "costly"}  # 3/2: on to 2/off
