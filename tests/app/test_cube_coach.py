"""The cube coached in play (issue 23): a double, a take or a pass rated like a checker play
(the same thresholds), worked out in the coach's thread before the decision is made; in a
teaching game a bad double or pass may be taken back before it stands; the table's review
at the end of the game names the visitor's cube errors."""

from __future__ import annotations

from kiosk.app.main import simulator_layout
from kiosk.config import Config
from kiosk.rules import Colour, Phase, Position
from tests.app.test_modes import button, ready, throw


def _tutored() -> Config:
    config = Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    config.tutor.evaluator = "builtin"  # quick, and the same verdicts everywhere
    return config


def _after_the_opening(h) -> None:
    """White opens 3-1 (8/5 6/5): black, behind in the race and the board, is on roll."""
    h.app.tutor = True
    h.app.new_game(tutor=True)
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    h.app.coach.wait(60)  # the coach works the cube out while black thinks
    h.wait(40)


def _double_from_the_menu(h, player: str) -> None:
    button(h, "menu", player)
    items = h.app.view.menu
    button(h, "menu", player, times=next(i for i, t in enumerate(items) if t.startswith("Double")))
    button(h, "select", player)


def _verdicts(h, decision: str) -> list[dict]:
    return [e for e in h.events if e["event"] == "coach" and e.get("cube") == decision]


def test_a_bad_double_may_be_taken_back_before_it_is_offered(harness) -> None:
    h = ready(harness, _tutored())
    _after_the_opening(h)
    _double_from_the_menu(h, "black")
    # not offered yet: the coach's verdict, and a card asking black to think again
    assert h.app.core.game.phase == Phase.ROLL and "cube" not in h.kinds()
    assert h.app.modes.names() == ["game", "cube-rethink"]
    [verdict] = _verdicts(h, "double")
    assert verdict["rating"] in ("bad", "very bad") and verdict["take_back"]
    assert verdict["text"].startswith(f"{verdict['rating'].capitalize()} double: better not")
    assert h.app.view.menu_title.startswith("The coach: ")
    assert h.app.view.menu_player == "black"
    assert dict(h.app.view.legend["black"])["back"] == "take the double back"
    assert h.app.view.messages["black"].text == verdict["text"]  # on black's own line
    button(h, "back", "black")  # taken back: black throws as if nothing had happened
    assert h.app.modes.names() == ["game"] and h.app.core.game.phase == Phase.ROLL
    assert "cube" not in h.kinds()
    assert h.app.view.messages["black"].text == "Double taken back: think again."
    # doubled all the same: the double stands and white is asked
    _double_from_the_menu(h, "black")
    button(h, "select", "black")
    assert h.app.core.game.phase == Phase.DOUBLE_OFFERED
    assert h.last("cube")["action"] == "double"
    assert h.app.view.messages["white"].text == "Black doubles to 2. Select: take, Back: pass."


def test_a_bad_pass_may_be_taken_back_and_a_take_is_rated(harness) -> None:
    h = ready(harness, _tutored())
    _after_the_opening(h)
    _double_from_the_menu(h, "black")
    button(h, "select", "black")  # doubled all the same
    h.app.coach.wait(60)
    button(h, "back", "white")  # white, well ahead, passes
    assert h.app.core.game.phase == Phase.DOUBLE_OFFERED and "game-over" not in h.kinds()
    assert h.app.modes.names()[-1] == "cube-rethink"
    [verdict] = _verdicts(h, "pass")
    assert verdict["to"] == "white" and verdict["take_back"]
    assert verdict["text"].startswith(f"{verdict['rating'].capitalize()} pass: better to take")
    assert dict(h.app.view.legend["white"]) == {
        "back": "take the pass back",
        "select": "pass all the same",
    }
    button(h, "back", "white")  # taken back: the double is on offer again
    assert h.app.modes.names() == ["game", "double-offer"]
    assert h.app.view.messages["white"].text == "Black doubles to 2. Select: take, Back: pass."
    button(h, "select", "white")  # takes: rated too, and no offer to take it back
    assert h.last("cube")["action"] == "take"
    [take] = _verdicts(h, "take")
    assert take["rating"] == "fine" and take["text"] == "Good take." and not take["take_back"]
    assert h.app.modes.names() == ["game"]


def test_the_cube_verdict_comes_late_if_the_coach_is_slow(harness, monkeypatch) -> None:
    """A decision made before the coach has worked it out is rated when it has (no offer
    to take it back then): the loop never waits for the coach."""
    h = ready(harness, _tutored())
    _after_the_opening(h)
    coach = h.app.coach
    (key, analysis), = coach._analyses.items()
    monkeypatch.setattr(coach, "_analyses", {})  # as if it were still thinking
    _double_from_the_menu(h, "black")
    assert h.last("cube")["action"] == "double"  # no verdict yet: no card, it stands
    assert not _verdicts(h, "double") and h.app.modes.names() == ["game", "double-offer"]
    coach._jobs.append(key)  # the coach's thread has worked it out now
    coach._tagged({"event": "cube-analysis", "to": "black", "analysis": analysis})
    h.wait(40)
    [late] = _verdicts(h, "double")
    assert late["rating"] in ("bad", "very bad") and not late["take_back"]


def test_the_tables_review_names_the_visitors_cube_errors(harness) -> None:
    h = ready(harness)
    h.app.tutor = False
    h.app.play_the_table(Colour.BLACK, "expert")
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    side = h.app.table_player
    assert side is not None
    # the visitor passes a double he should take (noted as the game's cube decision)
    position = h.app.core.game.position
    h.app.tutoring.rate_cube("pass", "white")
    text = side._review(side.opponent.review([], [(position, h.app.tutoring.cube_state(), "pass")]))
    assert text.startswith("Review, your costliest plays and cube decisions:\n")
    assert "- You passed the double to 2, better to take." in text


def test_no_cube_coaching_with_the_tutor_off(harness) -> None:
    h = ready(harness)  # the tutor is off
    men = tuple(2 if p in (1, 2) else 0 for p in range(1, 26))
    end = Position((men, men), (11, 11), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.new_game(end)
    h.wait(400)
    assert h.app.coach is None and h.app.tutoring.rate_cube("double", "white") is None
