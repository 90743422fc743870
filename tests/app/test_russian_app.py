"""Russian backgammon in the application (issue 15): chosen from the menu, the men laid in
their trays, each part said on screen ("Now four 1s (the bonus)", "throw again"), Cady's
deuce-ace doublet picked with the buttons, the coach said to be silent, and Back returning
to the waiting game, which is not disturbed."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.main import simulator_layout
from kiosk.display.view import score_lines
from kiosk.rules import Position
from kiosk.store import Store
from tests.app.test_modes import button, ready, throw

TRAYS = {"off-white": ("white", 15), "off-black": ("black", 15)}


def _russian(h, rules: str) -> None:
    button(h, "menu", "white")
    items = h.app.view.menu
    button(h, "menu", "white", times=items.index("Russian backgammon (the books' other game)"))
    button(h, "select", "white")
    assert h.app.view.menu == ("By Cady's rules (1895)", "By Foster's rules (1897)")
    button(h, "menu", "white", times=0 if rules == "cady" else 1)
    button(h, "select", "white")
    h.wait(100)


def test_a_russian_game_from_the_menu_part_by_part(harness, tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    h = ready(harness, store=store)
    recorded = len(store.events(h.app.game_id))
    _russian(h, "cady")
    assert h.app.modes.names() == ["game", "russian"]
    assert h.app.view.banner == (
        "Russian backgammon (Cady) · the coach is silent: it has no evaluator for this game"
    )
    assert h.app.view.messages["white"].text.startswith("Russian backgammon: put all fifteen")
    h.sim.set_position(TRAYS)
    h.wait(500)
    assert h.last("setup-ok")
    # the band counts along the common track, and says the waiting game's score is not this one's
    assert h.app.view.pips == (375, 375) and not h.app.view.hide_pips
    assert score_lines(h.app.view, "white") == ("Russian: not scored", "No cube in this game")
    throw(h, 6, 6)  # white's first doublet: no bonus by Cady
    assert h.app.view.messages["white"].text == "Now four 6s."
    for _ in range(4):
        h.sim.move("off-white", "19")  # the common track's point 6
    h.wait(400)
    assert h.app.view.messages["white"].text == "You have played four 6s: press Done."
    assert dict(h.app.view.legend["white"])["done"] == "end this part"
    button(h, "done", "white")
    assert h.last("play")["move"] == "hand/6(4)"
    assert h.app.view.pips == (375 - 4 * 6, 375)
    assert h.app.view.turn == "black"
    assert h.app.view.messages["black"].text == "Your turn: throw the dice."
    assert "done" not in dict(h.app.view.legend["white"])  # black throws next, not white
    button(h, "done", "white")  # white's Done throws nothing for black
    assert h.last("dice")["player"] == "white"
    throw(h, 2, 1)  # black's deuce-ace: 2-1 played, then a doublet of his choice
    h.sim.move("off-black", "23")
    h.sim.move("off-black", "24")
    h.wait(400)
    button(h, "done", "black")
    assert h.app.modes.top.card().title == "Deuce-ace: choose your doublet"
    assert dict(h.app.view.legend["black"]) == {
        "menu": "next doublet",
        "select": "choose it",
        "back": "leave",
    }
    button(h, "menu", "black", times=2)  # double 3
    button(h, "select", "black")
    part = h.last("part")
    assert (part["dice"], part["bonus"]) == ([3, 3, 3, 3], True)
    assert h.app.view.messages["black"].text == "Now four 3s (the bonus)."
    # nothing of the Russian game goes into the waiting game's record
    assert len(store.events(h.app.game_id)) == recorded
    button(h, "back", "black")  # leave: the waiting game is laid out again
    assert h.app.modes.names() == ["game"]
    h.sim.set_position(simulator_layout(Position.standard()))
    h.wait(500)
    assert h.last("setup-ok")["restored"] is True
    assert h.app.view.pips == (167, 167)
    assert score_lines(h.app.view, "white") == ("You 0, Black 0", "Cube in the middle")


def test_a_wrong_man_in_the_russian_game_says_the_rule(harness) -> None:
    h = ready(harness)
    _russian(h, "foster")
    h.sim.set_position(TRAYS)
    h.wait(500)
    throw(h, 3, 1)
    h.sim.move("off-white", "21")  # one man in with both dice: Foster wants two men
    h.wait(500)
    illegal = h.last("illegal")
    assert illegal["reason"] == "enter-two"
    assert h.app.view.illegal is not None and h.app.view.illegal[1] == "enter-two"
