"""Sessions in the application (issue 14): chosen from the menu with the players' names,
the score band with the match score, the Crawford game and the chances to win the match,
the match kept over a restart and exported as one .mat file, Parker's stranded men counted
under the loser's men, and the chouette's seats and tallies."""

from __future__ import annotations

import random
from pathlib import Path

import pygame

from kiosk.app.main import simulator_layout
from kiosk.app.modes.entry import NameEntryMode
from kiosk.display import Calibration
from kiosk.display.renderer import Renderer
from kiosk.display.view import score_lines
from kiosk.events import GameOver
from kiosk.play.sessions import PlaySession
from kiosk.rules import BLACK, WHITE, Phase, Position, Result
from kiosk.rules.chouette import Chouette
from kiosk.rules.met import match_equity
from kiosk.rules.session import Scoring, Session
from kiosk.store import Store
from kiosk.store.export import match_to_mat
from tests.app.test_modes import button, ready, throw
from tests.app.test_resume import move_man
from tests.sessions.test_match_record import GNUBG, gnubg_scores

# white bears off his last man with any throw; black has borne one man off (a single game)
WHITE_WINS = Position.from_points({1: 1, 24: -14})
# black's men left in every one of Parker's zones and on the bar, nine borne off
STRANDED = Position.from_points({2: 1, 5: -1, 10: -1, 16: -1, 20: -2}, bar=(0, 1))


def _pick(h, title: str, player: str = "white") -> None:
    """Open the main menu, go down to ``title`` and take it."""
    button(h, "menu", player)
    items = h.app.view.menu
    found = [i for i, t in enumerate(items) if t.startswith(title)]
    assert found, (title, items)
    button(h, "menu", player, times=found[0])
    button(h, "select", player)


def _session(h, group: str, title: str) -> None:
    """Menu, "A match, a money session...", then ``group`` and the session ``title``."""
    _pick(h, "A match, a money session")
    assert h.app.view.menu_title == "Matches and sessions"
    for wanted in (group, title):
        items = h.app.view.menu
        button(h, "menu", times=next(i for i, t in enumerate(items) if t.startswith(wanted)))
        button(h, "select")


def _name(h, letters: str) -> None:
    """Enter one name with the buttons (Menu on to the letter, Select), then Done."""
    shown = 0  # each name starts at A; a letter taken stays shown
    for letter in letters.upper():
        button(h, "menu", times=(ord(letter) - ord("A") - shown) % 26)
        button(h, "select")
        shown = ord(letter) - ord("A")
    button(h, "done")


def _black_doubles_and_white_passes(h) -> None:
    """White opens with 3-1; black doubles at his turn and white passes."""
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    _pick(h, "Double", "black")
    button(h, "back", "white")


def _lay_out(h, position: Position | None = None) -> None:
    """The players set the men out for the next game (the harness's table is its own)."""
    h.sim.set_position(simulator_layout(position or Position.standard()))
    h.wait(400)
    assert h.last("setup-ok")


def _play_out(h, seed: int) -> None:
    """Play the game on to its end by hand: random throws, the first legal play of each."""
    rng = random.Random(seed)
    while h.app.referee.game.phase != Phase.OVER:
        opening = h.app.referee.game.phase == Phase.OPENING
        dice = rng.sample(range(1, 7), 2) if opening else (rng.randint(1, 6), rng.randint(1, 6))
        throw(h, *dice)
        game = h.app.referee.game
        if game.phase != Phase.PLAY:
            continue  # no legal move: the turn passed by itself
        mover = game.turn
        for step in game.position.legal_plays(*game.dice)[0].steps:
            move_man(h.sim, mover, step.src, step.dst, step.hit)
            h.wait(60)
        h.wait(300)
        if h.app.referee.game.phase == Phase.PLAY:
            button(h, "done", str(mover))
        if h.app.view.menu_title == "Which play did you make?":
            button(h, "select", str(mover))


def _white_bears_off(h, point: str = "1") -> None:
    throw(h, 3, 1)
    h.sim.move(point, "off-white")
    h.wait(400)
    if "game-over" not in h.kinds()[-5:]:
        button(h, "done", "white")


def test_a_match_chosen_from_the_menu_is_played_to_its_end_and_exported(
    harness, tmp_path: Path
) -> None:
    store = Store(tmp_path / "games.sqlite3")
    h = ready(harness, store=store)
    _session(h, "A match", "Match to 3 points")
    assert h.app.modes.names()[-1] == "names"
    assert h.app.view.menu_title == "Match to 3 points: who is playing?"
    _name(h, "Ann")
    _name(h, "")  # no name: "Black"
    h.wait(400)
    assert h.last("setup-ok")
    session = h.app.session
    assert session is not None and session.players() == ("Ann", "Black")
    assert h.app.modes.names() == ["game"]
    assert h.app.view.banner == "Match to 3 · Tutor off"
    assert score_lines(h.app.view, "white") == (
        "You 0, Black 0  (to 3)",
        f"Cube in the middle · match chance {match_equity(3, 3):.0%}",
    )
    assert h.app.view.messages["white"].detail.startswith("Match to 3: Ann 0, Black 0.")

    for _game in range(2):  # black wins two games by a passed double: 0-2
        _black_doubles_and_white_passes(h)
        assert h.last("session")["score"] == [0, _game + 1]
        assert dict(h.app.view.legend["white"])["done"] == "next game"
        assert h.app.view.messages["white"].text.startswith("Black wins: the double was passed.")
        button(h, "done", "white")
        _lay_out(h)
    assert "crawford" in h.kinds()  # black is one point away: the Crawford game
    assert h.app.view.banner == "Match to 3 · Crawford game: no doubling · Tutor off"
    assert score_lines(h.app.view, "black")[1] == "Crawford: no cube"
    assert not h.app.referee.game.profile.doubling
    assert "Crawford game: no doubling in this game." in h.app.view.messages["white"].text
    _play_out(h, 5)  # white wins the Crawford game
    assert h.last("game-over")["winner"] == "white"
    assert h.last("session")["score"] == [1, 2]
    assert h.last("session")["crawford"] is False  # post-Crawford: the cube is back
    button(h, "done", "white")
    _lay_out(h)
    assert h.app.referee.game.profile.doubling
    _black_doubles_and_white_passes(h)
    assert h.last("session")["score"] == [1, 3]
    assert h.app.session.over
    # issue 35: the match's end on the line itself, not only in the detail
    assert h.app.view.messages["white"].text.startswith("Black wins the match 3-1: the double")
    assert h.app.view.messages["white"].detail.endswith("Black has won the match.")
    assert dict(h.app.view.legend["white"])["done"] == "new game"

    match_id = session.match_id
    games = store.games(match_id)
    assert [g.number for g in games] == [1, 2, 3, 4] and all(g.finished for g in games)
    assert all(g.players == ("Ann", "Black") and g.match_length == 3 for g in games)
    text = match_to_mat(store, match_id=match_id)
    assert [line for line in text.splitlines() if "point match" in line] == [" 3 point match"]
    assert "  2)  Drops                       Wins 1 point" in text  # as GNU Backgammon writes
    if Path(GNUBG).exists():
        mat = tmp_path / "match.mat"
        mat.write_text(text)
        scores = gnubg_scores(mat, len(games), tmp_path)
        assert [score[:3] for score in scores] == [(0, 0, 3), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
        assert [score[3] for score in scores] == ["", "", ", Crawford game", ", post-Crawford play"]
    button(h, "done", "white")  # after the match: a plain game
    assert h.app.session is None and h.app.view.banner == "Tutor off"
    assert score_lines(h.app.view, "white")[0] == "You 0, Black 0"


def test_a_match_survives_a_restart_in_its_crawford_game(harness, tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    h = ready(harness, store=Store(path))
    h.app.start_session(Session.match(3, players=("Ann", "Bob")))
    h.wait(400)
    for _ in range(2):
        _black_doubles_and_white_passes(h)
        button(h, "done", "white")
        _lay_out(h)
    throw(h, 3, 1)  # the Crawford game begins
    h.close()

    again = ready(harness, store=Store(path))
    assert again.last("resume")
    session = again.app.session
    assert session is not None and session.session.score == (0, 2) and session.crawford
    assert again.app.view.banner == "Match to 3 · Crawford game: no doubling · Tutor off"
    game = again.app.referee.game
    assert game.phase == Phase.PLAY and game.dice == (3, 1)
    assert not game.profile.doubling  # resumed without the cube


def test_a_plain_game_after_a_match_is_not_counted_in_it(harness, tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    h = ready(harness, store=Store(path))
    h.app.start_session(Session.match(5, players=("Ann", "Bob")))
    h.wait(400)
    _pick(h, "New game with the tutor")
    assert h.app.session is None
    h.close()
    again = ready(harness, store=Store(path))
    assert again.app.session is None  # the last game here was not the match's


def test_stranded_men_are_counted_zone_by_zone_under_the_losers_men(
    harness, tmp_path: Path
) -> None:
    h = ready(harness, store=Store(tmp_path / "games.sqlite3"))
    h.app.start_session(Session.money(scoring=Scoring.STRANDED2, players=("Ann", "Bob")))
    h.app.new_game(STRANDED)
    _lay_out(h, STRANDED)
    _white_bears_off(h, "2")
    shown = h.last("session")
    # bar 4, the winner's inner table 4, his outer 3, the loser's outer 2, inner 2 x 1
    assert sorted(map(tuple, shown["stranded"])) == sorted(
        [("bar-black", 1, 4), ("5", 1, 4), ("10", 1, 3), ("16", 1, 2), ("20", 2, 1)]
    )
    assert shown["score"] == [15, -15]
    message = h.app.view.messages["black"]
    assert message.text.startswith("Ann wins a single game. Stranded men: 1 in the bar x 4 = 4")
    assert "option 2: 15." in message.text
    assert score_lines(h.app.view, "white")[0] == "Money: you +15, Bob -15"

    renderer = Renderer(pygame.Surface((1280, 720)), Calibration.default(1280, 720))
    renderer.draw(h.app.view.copy(), 0)
    counted = renderer.surface.copy()
    view = h.app.view.copy()
    view.stranded = ()
    renderer.draw(view, 0)
    box = pygame.Rect(0, 0, 60, 30)
    for where in ("10", "16", "20"):
        box.center = renderer._slot(where, 5)
        assert any(
            counted.get_at(p) != renderer.surface.get_at(p)
            for p in ((x, box.centery) for x in range(box.left, box.right))
        ), where


def test_a_chouette_named_at_the_table_shows_its_seats_and_rotates(harness) -> None:
    h = ready(harness)
    _session(h, "A chouette", "Chouette of 3")
    assert h.app.view.menu_title == "Chouette of 3 players (Parker): who is playing?"
    for name in ("Ann", "Bob", ""):
        _name(h, name)
    h.wait(400)
    said = [e["text"] for e in h.events if e["event"] == "message"]
    assert any(text.startswith("Throw-off: Ann ") for text in said)
    chouette = h.app.session.session
    assert isinstance(chouette, Chouette) and chouette.players == ["Ann", "Bob", "Player 3"]
    box, captain, partner = chouette.order
    assert h.app.view.banner == (
        f"Chouette of 3 · {box} in the box, {captain} plays for the partners · Tutor off"
    )
    assert score_lines(h.app.view, "white")[0] == f"In the box: {box} +0"
    assert score_lines(h.app.view, "black")[0] == f"Partners: {captain} +0, {partner} +0"
    spoken = [e for e in h.events if e["event"] == "message"]
    assert any(
        e["text"].startswith(f"{captain} plays for the partnership against {box} in the box.")
        for e in spoken
    )
    # black (the partners) doubles at his turn and the box passes: the partners win one each
    _black_doubles_and_white_passes(h)
    assert chouette.order == [captain, partner, box]  # the captain takes the box
    shown = h.last("session")
    tally = dict(zip(shown["names"], shown["score"], strict=True))
    assert tally == {box: -2, captain: 1, partner: 1}
    assert h.app.view.banner.startswith(f"Chouette of 3 · {captain} in the box")


def test_a_partner_declines_the_boxs_double_from_the_menu(harness) -> None:
    h = ready(harness)
    h.app.start_session(Chouette(["Ann", "Bob", "Cy", "Dee"], profile="modern"))
    h.wait(400)
    throw(h, 3, 1)  # the box (white) opens
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 2, 1)
    h.sim.move("12", "14")  # black's 13/11 6/5
    h.sim.move("19", "20")
    h.wait(300)
    button(h, "done", "black")
    _pick(h, "Double", "white")  # the box doubles
    _pick(h, "A partner declines", "black")
    assert h.app.view.menu == ("Cy declines", "Dee declines")
    button(h, "menu", "black")
    button(h, "select", "black")  # Dee declines by himself
    button(h, "select", "black")  # the captain takes for the rest
    chouette = h.app.session.session
    assert chouette.tally["Dee"] == -1 and chouette.tally["Bob"] == 1
    assert chouette.cube == 2 and chouette.shares == {"Bob": 2, "Cy": 1}


def test_the_session_counts_a_game_the_rules_do_not_allow_in_words() -> None:
    table = PlaySession(None, Session.match(3))
    table.plan()
    doubled = GameOver(winner=WHITE, result="single", points=2)
    table.session.record(BLACK, Result.SINGLE)
    table.session.record(BLACK, Result.SINGLE)
    table.plan()  # the Crawford game: no cube may be turned in it
    _, lines = table.finished(doubled, Position.standard(), cube=2)
    assert lines == [
        "White wins a single game.",
        "This game cannot be counted in the session: there is no doubling in the Crawford game",
    ]
    assert table.session.score == (0, 2)


def test_names_are_typed_at_a_keyboard(harness) -> None:
    h = ready(harness)
    _session(h, "A match", "Match to 5")
    mode = h.app.modes.top
    assert isinstance(mode, NameEntryMode)
    for key in "zoe\r":
        h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=0, unicode=key))
    h.wait(50)
    assert mode.entry.names == ["Zoe"]
    assert h.app.view.menu[0] == "Black: _"
    h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=0, unicode="\b"))
    h.wait(50)
    assert h.app.view.menu[0] == "White: Zoe_"  # Backspace reopens the name before
    for key in "\b\b\b":
        h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=0, unicode=key))
    # M and W stand for the Menu and white's Done buttons: typed here, they are letters
    pressed = h.kinds().count("button")
    for code, char in ((pygame.K_m, "M"), (pygame.K_a, "a"), (pygame.K_w, "w")):
        h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=code, unicode=char))
    h.wait(50)
    assert h.app.view.menu[0] == "White: Maw_"
    assert h.kinds().count("button") == pressed  # no button pressed by them
    # the hints fit the card: each line short enough to be read whole
    assert all(len(item) <= 44 for item in h.app.view.menu), h.app.view.menu


def test_a_money_session_at_an_agreed_value_from_the_menu(harness) -> None:
    h = ready(harness)
    _session(h, "A money session", "Money, 5 a game")
    _name(h, "")
    _name(h, "")
    h.wait(400)
    session = h.app.session.session
    assert session.stake == 5 and session.players == ("White", "Black")
    _black_doubles_and_white_passes(h)  # the cube at 2 passed: one game at 5
    assert h.last("session")["score"] == [-5, 5]
    assert score_lines(h.app.view, "black")[0] == "Money: you +5, White -5"
    assert h.app.view.banner == "Money at 5 a game · Tutor off"


def test_stranded_men_with_games_from_the_menu(harness) -> None:
    h = ready(harness)
    _session(h, "Scored by the loser's stranded men", "Stranded men, option 3, with games")
    assert h.app.view.menu_title == "Stranded men, option 3, with games: who is playing?"
    _name(h, "")
    _name(h, "")
    session = h.app.session.session
    assert session.scoring == Scoring.STRANDED3 and session.stranded_multiply
