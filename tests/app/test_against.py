"""Playing against the table in the application (issue 13): chosen from the menu, the
table's play shown with arrows and words, its men moved by the visitor and confirmed, the
game stored with the table named as a player."""

from __future__ import annotations

from pathlib import Path

from kiosk.app.main import simulator_layout
from kiosk.config import Config
from kiosk.play.side import level_of
from kiosk.rules import Colour, Phase, Position
from kiosk.store import Store
from kiosk.store.export import match_to_mat
from kiosk.table import SlotState, location
from tests.app.test_modes import button, ready, throw
from tests.store.test_gnubg_import import GNUBG, gnubg_games, gnubg_turns, our_turns


def _against_the_table(h) -> None:
    button(h, "menu", "white")
    button(h, "menu", "white", times=h.app.view.menu.index("Play against the table"))
    button(h, "select", "white")
    assert h.app.view.menu_title == "Play against the table"
    assert h.app.view.menu[0] == "You play white, the table black (intermediate)"
    button(h, "select", "white")
    h.wait(400)


def test_the_table_plays_black_from_the_menu(harness, tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    h = ready(harness, store=store)
    _against_the_table(h)
    player = h.app.table_player
    assert player is not None and player.colour == Colour.BLACK and player.level == "intermediate"
    assert h.last("setup-ok")
    throw(h, 3, 1)  # the opening throw: white's 3 against black's 1
    assert h.last("opening")["starter"] == "white"
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    assert h.last("play")["move"] == "8/5 6/5"
    throw(h, 6, 5)  # the visitor throws for the table
    shown = h.last("opponent-play")
    assert shown["player"] == "black" and shown["dice"] == [6, 5]
    assert "done" not in dict(h.app.view.legend["black"])  # its turn ends by itself
    assert h.app.view.last_play == tuple(tuple(a) for a in shown["arrows"])
    said = h.app.view.messages  # the visitor reads what to do; the table's side, its words
    asked = f"The table plays {shown['move']}: move its men as the arrows show."
    assert said["white"].text == asked
    assert said["black"].text == f"I play {shown['move']}."
    for src, dst in shown["arrows"]:  # the visitor moves the table's men as shown
        h.sim.move(src, dst)
        h.wait(100)
    h.wait(400)  # no Done: the table's turn ends once its men stand as shown
    played = h.last("play")
    assert (played["player"], played["move"]) == ("black", shown["move"])
    assert h.app.view.messages["white"].text == "Your turn: throw the dice."
    assert h.app.view.prompts.get("white", "said").text == f"The table played {shown['move']}."
    assert set(h.app.view.prompts.held["black"]) == {"own"}
    summary = store.game(h.app.game_id)
    assert summary.players == ("visitor", "Table (intermediate)")
    assert level_of(summary.players[1]) == "intermediate"
    # exported like any game, the table named as a player; GNU Backgammon reads it back
    text = match_to_mat(store, [h.app.game_id])
    assert "Table_(intermediate)" in text
    if Path(GNUBG).exists():
        mat = tmp_path / "against.mat"
        mat.write_text(text)
        (read,) = gnubg_games(mat, 1, tmp_path)
        ours = our_turns(store, h.app.game_id)
        assert [t[1:] for t in gnubg_turns(read)] == [t[1:] for t in ours]
        assert [t[0] for t in gnubg_turns(read)] == ["visitor", "Table_(intermediate)"]


def test_a_wrong_man_moved_for_the_table_is_flagged(harness) -> None:
    h = ready(harness)
    _against_the_table(h)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 6, 5)
    h.sim.move("19", "24")  # black's 6 point to its 1 point: legal, but not the table's play
    h.wait(400)
    alarm = h.last("illegal")
    assert (
        alarm["reason"] == "not-the-tables-move"
        and h.last("opponent-play")["move"] in (alarm["message"])
    )


def _move(h, src: str, dst: str, mover: str) -> None:
    """A hand moves ``mover``'s man, a blot it lands on first taken to its bar."""
    other = "black" if mover == "white" else "white"
    if dst[0].isdigit() and SlotState[other.upper()] in h.sim.men(dst):
        h.sim.move(dst, f"bar-{other}", other)
    h.sim.move(src, dst, mover)
    h.wait(100)


def _follow(h, shown: dict) -> None:
    for src, dst in shown["arrows"]:
        _move(h, src, dst, shown["player"])
    h.wait(400)


def test_with_digital_dice_the_visitor_throws_for_the_table(harness) -> None:
    config = Config()
    config.dice.source = "digital"
    h = ready(harness, config)
    _against_the_table(h)
    for _ in range(12):  # on to the table's throw, whoever wins the (random) opening
        game = h.app.referee.game
        if game.phase == Phase.ROLL and game.turn == Colour.BLACK:
            break
        if game.phase == Phase.PLAY and game.turn == Colour.BLACK:
            _follow(h, h.last("opponent-play"))
        elif game.phase == Phase.PLAY:
            for step in game.legal_plays()[0].steps:
                src, dst = location(Colour.WHITE, step.src), location(Colour.WHITE, step.dst)
                _move(h, src, dst, "white")
            h.wait(300)
            button(h, "done", "white")
        else:
            button(h, "done", "white")  # the opening throw, or the visitor's own
    assert (game.phase, game.turn) == (Phase.ROLL, Colour.BLACK)
    assert dict(h.app.view.legend["white"])["done"] == "throw for the table"
    shown_before = len([e for e in h.events if e["event"] == "opponent-play"])
    button(h, "done", "white")  # the visitor's Done throws the table's dice
    assert h.last("dice")["player"] == "black"
    assert len([e for e in h.events if e["event"] == "opponent-play"]) == shown_before + 1


def test_the_game_ends_with_a_review_of_the_visitors_plays(harness) -> None:
    h = ready(harness)
    # white, the visitor, has one man left on its ace point; black has all fifteen out
    men = tuple(1 if p == 1 else 0 for p in range(1, 26))
    black = tuple(5 if p in (19, 20, 21) else 0 for p in range(1, 26))
    end = Position((men, black), (14, 0), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.play_the_table(Colour.BLACK, "expert", end)
    h.wait(400)
    assert h.last("setup-ok")
    throw(h, 3, 1)  # white's 3 against black's 1: white bears its last man off
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    assert h.last("game-over")["winner"] == "white"
    line = h.app.view.messages["white"]  # the result stays on the line; the review: Select
    assert line.text == "You won a backgammon game (3 points)."
    assert "Review" in line.detail
    assert "none of your plays or cube decisions gave anything away" in line.detail


def test_the_review_gives_the_coachs_reasons_for_a_costly_play(harness) -> None:
    """The review at the game's end names what a costly play did wrong, in the coach's
    words, beside what it cost and the better play (on the result's Select)."""
    h = ready(harness)
    # white, the visitor, has men on its 3 and ace points; black two on its six point
    men = tuple(1 if p in (1, 3) else 0 for p in range(1, 26))
    black = tuple(2 if p == 6 else 0 for p in range(1, 26))
    end = Position((men, black), (13, 13), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.play_the_table(Colour.BLACK, "expert", end)
    h.wait(400)
    assert h.last("setup-ok")
    throw(h, 3, 1)  # white's 3-1: 3/off 1/off wins; 3/2/off leaves the man on the ace
    said = h.app.view.messages["white"].text
    assert said.startswith("You start: you threw 3, the table threw 1.")  # not "black"
    h.sim.move("3", "2")
    h.sim.move("2", "off-white")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 2, 1)  # the table's 2-1 bears nothing off
    _follow(h, h.last("opponent-play"))
    throw(h, 2, 1)
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    assert h.last("game-over")["winner"] == "white"
    h.wait(600)
    detail = h.app.view.messages["white"].detail
    review = detail[detail.index("Review") :]
    lines = review.splitlines()
    assert lines[0] == "Review, your costliest plays and cube decisions:"
    assert lines[1].startswith("- 3-1: you played 3/off, very bad (")  # 3/2/off, as gnubg writes it
    assert "it costs 0." in lines[1] and lines[1].endswith("Better 3/off 1/off.")
    assert "Bears off 1 man where the best play bears off 2" in lines[1]  # what it did wrong
    legend = dict(h.app.view.legend["white"])
    assert legend["select"] == "your review"  # a newcomer is told what Select opens
