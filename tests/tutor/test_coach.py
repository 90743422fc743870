"""The coach: ratings on positions with known answers, events, the worker, settings, the CLI."""

import json
import subprocess
import sys
import threading

import pytest

from kiosk.app.events import EventBus
from kiosk.rules import IllegalPlayError, Position, get_profile
from kiosk.tutor.coach import (
    THRESHOLDS,
    Coach,
    CoachConfig,
    CoachWorker,
    choose_evaluator,
    classify,
    coach_event,
)
from kiosk.tutor.evaluators import Evaluator, EvaluatorError
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.evaluators.gnubg_external import GnubgExternalEvaluator, find_program
from kiosk.tutor.evaluators.gnubg_nn import GnubgNNEvaluator, load_module

HAVE_NN = load_module() is not None
HAVE_GNUBG = find_program() is not None


def evaluators():
    """Every evaluator this machine has, at 0 plies to keep the tests quick."""
    found = [pytest.param(BuiltinEvaluator, id="builtin")]
    found.append(
        pytest.param(
            lambda: GnubgNNEvaluator(plies=0),
            id="gnubg-nn",
            marks=pytest.mark.skipif(not HAVE_NN, reason="gnubg-nn is not installed"),
        )
    )
    found.append(
        pytest.param(
            lambda: GnubgExternalEvaluator(plies=0),
            id="gnubg",
            marks=pytest.mark.skipif(not HAVE_GNUBG, reason="gnubg is not installed"),
        )
    )
    return found


@pytest.fixture(params=evaluators())
def coach(request):
    c = Coach(request.param())
    yield c
    c.close()


# A white blot could be left facing black's men on white's 1-6 points, or kept safe.
# White: 8x2, 6x4, 5x3, 4x2, 13x4; black: two on white's 1 point (his anchor), others home.
SHOT_OR_SAFE = Position.from_points({13: 4, 8: 2, 6: 4, 5: 3, 4: 2, 1: -2, 19: -4, 20: -4, 21: -5})


def test_making_the_five_point_with_3_1_is_fine(coach):
    rating = coach.rate(Position.standard(), (3, 1), "8/5 6/5")
    assert rating.rating == "fine"
    assert rating.best_text == "8/5 6/5"
    assert rating.equity_loss == 0.0
    assert rating.reasons[0] == {"code": "best", "text": "The best play of the roll"}
    assert "Makes your five point (Cady, Tactics I)" in [r["text"] for r in rating.reasons]


def test_slotting_instead_of_making_the_point_is_not_fine(coach):
    rating = coach.rate(Position.standard(), (3, 1), "13/10 6/5")
    assert rating.rating in ("bad", "very bad")
    assert rating.best_text == "8/5 6/5"
    assert rating.equity_loss >= THRESHOLDS[1]
    assert rating.reasons[0]["code"] == "blot" and rating.reasons[0]["shots"] == 18
    cady = {"key": "C-VII", "book": "Cady", "section": "Tactics VII", "year": 1895}
    assert cady in rating.tactics


def test_a_direct_shot_when_a_safe_play_exists_is_not_fine(coach):
    # 6-2: 13/5 keeps every man safe; 8/2 8/6 leaves a blot next to his anchor.
    safe = SHOT_OR_SAFE.parse_play(6, 2, "13/7/5")
    assert coach.evaluator.evaluate_plays(SHOT_OR_SAFE, 6, 2)  # the evaluator answers
    exposed = SHOT_OR_SAFE.parse_play(6, 2, "8/2 8/6")
    rating = coach.rate(SHOT_OR_SAFE, (6, 2), exposed)
    assert rating.rating != "fine"
    assert "blot" in [r["code"] for r in rating.reasons]
    assert coach.rate(SHOT_OR_SAFE, (6, 2), safe).equity_loss < rating.equity_loss


def test_only_play_is_fine_without_asking_the_evaluator():
    # White has one man left to bear off from the 2 point: 6-5 must bear it off.
    position = Position.from_points({2: 1, 20: -2}, off=(14, 13))
    rating = Coach(BuiltinEvaluator()).rate(position, (6, 5), "2/off")
    assert rating.only_play and rating.rating == "fine" and rating.evaluator == "rules"


def test_illegal_and_garbled_plays_are_refused():
    coach = Coach(BuiltinEvaluator())
    with pytest.raises(IllegalPlayError):
        coach.rate(Position.standard(), (3, 1), "13/9 6/5")
    with pytest.raises(ValueError):
        coach.rate(Position.standard(), (3, 1), "eight to five")
    other = Position.standard().parse_play(6, 5, "24/13")
    with pytest.raises(ValueError, match="not a legal play"):
        coach.rate(Position.standard(), (3, 1), other)


def test_classify_uses_gnubg_tutor_thresholds_and_configured_ones():
    assert THRESHOLDS == (0.03, 0.06, 0.12)
    assert [classify(x) for x in (0.029, 0.03, 0.06, 0.12)] == [
        "fine",
        "doubtful",
        "bad",
        "very bad",
    ]
    assert classify(0.05, (0.1, 0.2, 0.3)) == "fine"
    coach = Coach(BuiltinEvaluator(), thresholds=(0.5, 1.0, 2.0))
    assert coach.rate(Position.standard(), (3, 1), "13/10 6/5").rating == "fine"


def test_settings_are_checked_with_clear_messages():
    assert CoachConfig.from_mapping({"thresholds": [0.04, 0.08, 0.16]}).thresholds == (
        0.04,
        0.08,
        0.16,
    )
    for bad, words in (
        ({"thresholds": [0.1, 0.05, 0.2]}, "increase"),
        ({"thresholds": "loose"}, "three numbers"),
        ({"evaluator": "oracle"}, "not one of"),
        ({"plies": 7}, "0 to 3"),
        ({"colour": "red"}, "unknown coach setting"),
    ):
        with pytest.raises(ValueError, match=words):
            CoachConfig.from_mapping(bad)


def test_choose_evaluator_prefers_gnubg_nn_then_the_program_then_builtin():
    chosen = choose_evaluator({"plies": 0})
    assert isinstance(chosen, Evaluator)
    expected = "gnubg-nn" if HAVE_NN else "gnubg" if HAVE_GNUBG else "builtin"
    assert chosen.name == expected
    chosen.close()
    assert choose_evaluator(CoachConfig(evaluator="builtin")).name == "builtin"


def test_a_failing_evaluator_falls_back_to_the_builtin_one():
    broken = GnubgExternalEvaluator(plies=0, program="/bin/false", start_timeout=5)
    coach = Coach(broken)
    rating = coach.rate(Position.standard(), (3, 1), "13/10 6/5")
    assert rating.evaluator == "builtin" and rating.rating != "fine"
    with pytest.raises(EvaluatorError, match="stopped while starting"):
        broken.evaluate_plays(Position.standard(), 3, 1)


def test_teaching_games_offer_to_take_back_bad_plays():
    coach = Coach(BuiltinEvaluator())
    bad = coach.rate(Position.standard(), (3, 1), "13/10 6/5", teaching=True)
    assert bad.take_back_offered
    event = coach_event(bad, "white", teaching=True)
    assert event["event"] == "coach" and event["to"] == "white"
    assert event["take_back"] is True and "Take it back" in event["text"]
    assert event["rating"] == bad.rating and event["best"] == "8/5 6/5"
    assert event["detail"].splitlines() == [r["text"] for r in bad.reasons]
    casual = coach_event(coach.rate(Position.standard(), (3, 1), "13/10 6/5"), "black", False)
    assert casual["take_back"] is False and "Take it back" not in casual["text"]
    fine = coach.rate(Position.standard(), (3, 1), "8/5 6/5", teaching=True)
    assert not fine.take_back_offered
    assert coach_event(fine, "white", True)["text"] == "Good play: 8/5 6/5."


def test_worker_rates_in_the_background_and_publishes_on_the_bus():
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    worker = CoachWorker(Coach(BuiltinEvaluator()), bus.publish, teaching=True)
    worker.submit(Position.standard(), (3, 1), "13/10 6/5", "white")
    worker.submit(Position.standard(), (3, 1), "not a move", "black")
    assert worker.wait(timeout=30)
    worker.close()
    assert bus.dispatch() == 2
    assert seen[0]["to"] == "white" and seen[0]["take_back"] is True
    assert seen[1]["to"] == "black" and seen[1]["rating"] is None
    assert "could not rate" in seen[1]["text"]


def test_each_play_is_rated_under_the_settings_it_was_handed_with():
    """A new game's settings (teaching off, other rules) never reach a play of the last
    game still being rated: each job carries its own."""
    release = threading.Event()

    class Slow(Coach):
        def rate(self, *args, **kwargs):
            release.wait(10)
            return super().rate(*args, **kwargs)

    seen = []
    worker = CoachWorker(Slow(BuiltinEvaluator()), seen.append)
    bad = (Position.standard(), (3, 1), "13/10 6/5", "white")
    worker.submit(*bad, teaching=True, profile=get_profile("modern"))
    worker.submit(*bad, teaching=False, profile=get_profile("cady"))  # the next game's
    worker.teaching = False  # nor does the worker's own default reach it
    release.set()
    assert worker.wait(timeout=30)
    worker.close()
    assert [e["take_back"] for e in seen] == [True, False]
    assert worker.coach.profile == get_profile("cady")


KIOSK = [sys.executable, "-m", "kiosk", "coach"]


def run(*args):
    return subprocess.run([*KIOSK, *args], capture_output=True, text=True, timeout=120, check=False)


def test_cli_prints_the_rating_as_json():
    done = run("4HPwATDgc/ABMA", "3", "1", "13/10 6/5", "--evaluator", "builtin", "--teaching")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["rating"] in ("bad", "very bad")
    assert answer["best"] == "8/5 6/5"
    assert isinstance(answer["equity_loss"], float) and answer["equity_loss"] > 0
    assert answer["reasons"] and all(r["code"] and r["text"] for r in answer["reasons"])
    assert answer["take_back"] is True and answer["evaluator"] == "builtin"


@pytest.mark.skipif(not HAVE_NN, reason="gnubg-nn is not installed")
def test_cli_with_gnubg_nn_by_default():
    done = run("4HPwATDgc/ABMA", "3", "1", "8/5 6/5", "--plies", "0")
    answer = json.loads(done.stdout)
    assert answer["evaluator"] == "gnubg-nn" and answer["rating"] == "fine"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("4HPwATDgc/ABMA", "3", "1", "13/9 6/5"), "not a legal play"),
        (("4HPwATDgc/AB", "3", "1", "8/5 6/5"), "14 characters"),
        (("4HPwATDgc/ABMA", "3", "9", "8/5 6/5"), "1 to 6"),
        (("4HPwATDgc/ABMA", "x", "1", "8/5 6/5"), "numbers"),
        (("4HPwATDgc/ABMA", "3", "1"), "required: move"),
        (("4HPwATDgc/ABMA", "3", "1", "8/5 6/5", "--plies", "many"), "invalid int value"),
    ],
)
def test_cli_bad_input_is_an_error_object_and_status_2(args, words):
    done = run(*args, "--evaluator", "builtin")
    assert done.returncode == 2
    assert words in json.loads(done.stdout)["error"]
    assert done.stderr.startswith("kiosk coach:")
