"""One prompt per player, by priority (issue 23): every mode and every event kind walked
through the view, the prompts each event holds checked against the table below, the most
urgent prompt never pushed aside by a less urgent one, and against the table nothing for
the visitor held (or drawn) on the table's own side."""

from __future__ import annotations

import os

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from kiosk.display import Calibration, Renderer  # noqa: E402
from kiosk.display.prompts import OWN, PRIORITY, TAKE_BACK_QUESTION, Prompts, Text  # noqa: E402
from kiosk.display.view import TableView  # noqa: E402
from kiosk.events import (  # noqa: E402
    EVENTS,
    Board,
    Button,
    Choose,
    ChouetteSeating,
    CoachVerdict,
    Cocked,
    CrawfordGame,
    CubeMoved,
    Destinations,
    Detail,
    Dice,
    Error,
    Event,
    GameOver,
    Hints,
    Illegal,
    Legal,
    LessonEvent,
    MenuShown,
    Message,
    ModeChanged,
    NewGame,
    Notice,
    Opening,
    OpponentPlayShown,
    PartToPlay,
    Penalty,
    Played,
    PositionShown,
    Resume,
    Sensing,
    SessionShown,
    Setup,
    SetupOk,
    TableStatus,
    TakeBack,
    ThrowAgain,
    WrongMove,
)
from kiosk.rules import BLACK, WHITE, Position  # noqa: E402
from kiosk.table.sensing import true_counts  # noqa: E402
from tests.display.display_pixels import differing  # noqa: E402

START = Position.standard().position_id()
MODES = ("game", "against", "match", "lesson", "replay", "russian")


def _lesson(event: str, **fields: object) -> LessonEvent:
    return LessonEvent(data={"event": event, "lesson": "openings", "to": "both", **fields})


#: One or more events of every kind the table publishes (each colour where it matters).
SAMPLES: dict[str, list[Event]] = {
    "cocked": [Cocked(well=1, message="The die in well 1 is cocked: throw it again.")],
    "error": [Error(message="That cannot be done now.")],
    "setup-ok": [SetupOk(restored=False), SetupOk(restored=True)],
    "setup": [Setup(corrections=(), message="Put 2 more white men on your 6 point.")],
    "opening": [
        Opening(starter=None, message="Both threw 4: each throws again."),
        Opening(starter=WHITE, dice=(5, 2), message="white plays 5-2.", plays=True),
        Opening(starter=BLACK, dice=(5, 6), message="black plays 5-6.", plays=True),
    ],
    "dice": [Dice(player=WHITE, dice=(6, 5)), Dice(player=BLACK, dice=(3, 3))],
    "destinations": [
        Destinations(src="13", to=("7", "8"), player=WHITE),
        Destinations(src="12", to=("18",), player=BLACK),
    ],
    "hints": [
        Hints(player=WHITE, src="13", state="graded", grades={"7": "best", "8": "costly"}),
        Hints(player=WHITE, src="13", state="used-up"),
        Hints(player=BLACK, src="12", state="think"),
    ],
    "choose": [Choose(player=WHITE, options=("13/7", "8/2"), message="Which did you make?")],
    "play": [
        Played(player=WHITE, dice=(3, 1), move="8/5 6/5"),
        Played(player=BLACK, dice=(6, 5), move="24/13"),
    ],
    "game-over": [
        GameOver(winner=WHITE, result="single", points=1),
        GameOver(winner=BLACK, result="gammon", points=2),
        GameOver(winner=WHITE, result="single", points=1, passed=True),
    ],
    "wrong-move": [WrongMove(player=WHITE, reason="wrong-die", message="Black: accept it?")],
    "penalty": [Penalty(player=WHITE, message="white: the man borne off goes on your bar.")],
    "illegal": [
        Illegal(reason="wrong-die", message="No die shows 4.", player=WHITE, table="9"),
        Illegal(reason="not-the-tables-move", message="That is not the table's move.",
                player=BLACK, table="19"),
    ],
    "legal": [Legal(player=WHITE), Legal(player=BLACK)],
    "table": [TableStatus(status="disconnected", message="No table")],
    "notice": [Notice(about="hit-to-bar", message="Put the hit man on the bar.")],
    "sensing": [Sensing(mode="occupancy")],
    "message": [
        Message(to="both", text="Lay the men out as shown first."),
        Message(to="white", text="Your play is complete: press Done.", complete=True),
        Message(to="black", text="I double.", prompt="own"),
        Message(to="white", text="Review: none of your plays gave anything away.",
                prompt="review"),
    ],
    "new-game": [
        NewGame(game=None, position=START, turn=WHITE, profile="modern", tutor=True,
                dice_source="wells", cube=(1, None)),
    ],
    "resume": [
        Resume(game=1, position=START, turn=WHITE, turns=0, phase="double-offered",
               dice=None, tutor=True, cube=(1, None)),
    ],
    "position": [
        PositionShown(position=START, turn=WHITE, dice=(3, 1), text="Put the men back."),
    ],
    "take-back": [
        TakeBack(player=WHITE, dice=(3, 1), move="8/5 6/5", position=START, number=1),
    ],
    "cube": [
        CubeMoved(action="double", player=WHITE, cube=(1, None)),
        CubeMoved(action="double", player=BLACK, cube=(1, None)),
        CubeMoved(action="take", player=BLACK, cube=(2, "black")),
        CubeMoved(action="take", player=WHITE, cube=(2, "white")),
        CubeMoved(action="pass", player=WHITE, cube=(1, None)),
    ],
    "mode": [ModeChanged(mode="game", banner="Tutor on")],
    "detail": [Detail(player=WHITE)],
    "button": [Button(button="select")],
    "board": [Board(board=true_counts(Position.standard()))],
    "menu": [MenuShown(title="Backgammon Table", items=("Back to the game",), cursor=0)],
    "opponent-play": [
        OpponentPlayShown(player=BLACK, dice=(6, 5), move="24/13", position=START,
                          arrows=(("1", "12"),), text="I play 24/13."),
    ],
    "crawford": [CrawfordGame()],
    "chouette": [ChouetteSeating(box="Ann", captain="Bob", order=("Ann", "Bob", "Cy"))],
    "session": [
        SessionShown(kind="match", title="Match to 3", score=(1, 0), names=("Ann", "Bob"),
                     length=3),
    ],
    "part": [PartToPlay(player=WHITE, dice=(6, 6, 6, 6), bonus=True, message="Now four 6s.")],
    "throw-again": [ThrowAgain(player=WHITE)],
    "coach": [
        CoachVerdict(data={"event": "coach", "to": "white", "text": "Good play: 8/5 6/5.",
                           "rating": "fine", "take_back": False}),
        CoachVerdict(data={"event": "coach", "to": "white", "rating": "very bad",
                           "text": "Very bad play. Better was 13/10 6/5." + TAKE_BACK_QUESTION,
                           "take_back": True}),
    ],
    "lesson": [
        _lesson("lesson", step=4, steps=20, kind="play", text="Opening throw 1-1: play."),
        _lesson("lesson-result", step=4, correct=False, text="The play wanted is 8/7(2)."),
        _lesson("chart", chart="shots", title="Shots", series=[]),
        _lesson("lesson-end", text="Lesson 11 done."),
        _lesson("lesson-exit", step=4),
    ],
}

#: The prompts each kind of event may hold (for the players it concerns): the rule the
#: view follows, written down to be checked.
HOLDS: dict[str, set[str]] = {
    "cocked": {"wrong"},
    "setup-ok": {"turn"},
    "setup": {"wrong"},
    "opening": {"turn"},
    "dice": {"turn"},
    "choose": {"answer"},
    "play": {"said", "turn"},
    "game-over": {"result"},
    "wrong-move": {"answer"},
    "penalty": {"said"},
    "illegal": {"wrong"},
    "legal": {"turn"},
    "notice": {"notice"},
    "hints": {"notice"},  # "think first", "hints used up" while the man is in the hand
    "message": {"turn", "done", OWN, "said"},  # a review goes under the result, or said
    "position": {"turn"},
    "cube": {"answer", "turn"},
    "resume": {"answer", "turn"},
    "opponent-play": {"turn", OWN},
    "part": {"turn"},
    "throw-again": {"turn"},
    "coach": {"coach", "turn"},  # a take-back offered: the other player is told of it
    "lesson": {"lesson", "wrong", "turn", "said"},
}

#: Events that answer a pending double, or end what it belonged to.
ANSWERS_THE_DOUBLE = {"cube", "game-over", "new-game", "resume", "mode"}


def prepared(mode: str) -> TableView:
    """A view in ``mode``: a game between two players, against the table (which plays
    black), a named match, a lesson, a replay, a Russian game."""
    view = TableView()
    table = BLACK if mode == "against" else None
    view.apply(
        NewGame(game=1, position=START, turn=WHITE, profile="modern", tutor=True,
                dice_source="wells", cube=(1, None), **({"table": table} if table else {}))
    )
    if mode == "match":
        view.apply(SAMPLES["session"][0])
    if mode in ("lesson", "replay", "russian"):
        view.apply(ModeChanged(mode=mode, banner=mode.capitalize()))
    return view


def test_every_event_kind_has_a_sample() -> None:
    kinds = set(EVENTS) | {"coach", "lesson"}
    assert kinds == set(SAMPLES)
    lessons = {e.kind for e in SAMPLES["lesson"] if isinstance(e, LessonEvent)}
    assert lessons == {"lesson", "lesson-result", "chart", "lesson-end", "lesson-exit"}


def test_the_priorities_name_each_kind_once() -> None:
    assert len(PRIORITY) == len(set(PRIORITY))
    assert PRIORITY[0] == "answer" and PRIORITY[-1] == OWN
    # a double, a wrong placement, the result, a lesson and "press Done" come before the
    # coach's verdict; what the turn asks comes before the verdict once the game went on
    for urgent in ("answer", "wrong", "result", "lesson", "done"):
        assert PRIORITY.index(urgent) < PRIORITY.index("coach")
    assert PRIORITY.index("coach") < PRIORITY.index("turn") < PRIORITY.index("coached")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_event_holds_only_its_prompts_and_faces_the_visitor(mode: str, kind: str) -> None:
    for event in SAMPLES[kind]:
        view = prepared(mode)
        before = {p: dict(held) for p, held in view.prompts.held.items()}
        view.apply(event)
        for player, held in view.prompts.held.items():
            new = {k for k, text in held.items() if before.get(player, {}).get(k) != text}
            assert new <= HOLDS.get(kind, set()), (mode, event, player, new)
            assert set(held) <= set(PRIORITY)
        if view.visitor is not None:  # against the table: its side has its own words only
            assert set(view.prompts.held[view.table]) <= {OWN}, (event, view.prompts.held)
            assert view.facing(view.table) == view.visitor


@pytest.mark.parametrize("mode", ("game", "against", "match"))
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_a_double_to_answer_is_never_pushed_aside(mode: str, kind: str) -> None:
    for event in SAMPLES[kind]:
        view = prepared(mode)
        view.apply(CubeMoved(action="double", player=BLACK, cube=(1, None)))
        assert view.prompts.kind("white") == "answer"
        asked = view.messages["white"].text
        assert asked.endswith("doubles to 2. Select: take, Back: pass.")
        view.apply(event)
        if kind in ANSWERS_THE_DOUBLE | {"choose", "wrong-move", "play"}:
            continue  # answered, over, another question asked first, or no double now
        assert view.prompts.kind("white") == "answer", (mode, event)
        assert view.messages["white"].text == asked


@pytest.mark.parametrize("mode", ("game", "against", "match"))
def test_the_verdict_waits_under_what_is_more_urgent_and_stays_one_select_away(mode) -> None:
    view = prepared(mode)
    view.apply(Played(player=WHITE, dice=(3, 1), move="13/10 6/5"))
    view.apply(SAMPLES["coach"][1])  # a very bad play: take it back?
    line = view.messages["white"]
    assert (line.rating, line.take_back) == ("very bad", True)
    view.apply(CubeMoved(action="double", player=BLACK, cube=(1, None)))  # the game goes on
    line = view.messages["white"]
    assert view.prompts.kind("white") == "answer" and not line.take_back
    assert "The coach: Very bad play. Better was 13/10 6/5." in line.detail  # Select
    assert TAKE_BACK_QUESTION.strip() not in line.detail  # that offer has lapsed
    view.apply(CubeMoved(action="take", player=WHITE, cube=(2, "white")))
    assert view.prompts.kind("white") == "turn"  # the turn asks; the verdict under it
    assert "The coach:" in view.messages["white"].detail


def test_the_result_is_on_the_winners_line_not_the_late_verdict() -> None:
    view = prepared("game")
    view.apply(Played(player=WHITE, dice=(2, 1), move="2/off 1/off"))
    view.apply(GameOver(winner=WHITE, result="single", points=1))
    view.apply(SAMPLES["coach"][0])  # the verdict on the last play comes after the end
    assert view.messages["white"].text == "You won a single game (1 point)."
    assert view.messages["black"].text == "White wins a single game (1 point)."
    assert "Good play" in view.messages["white"].detail


def test_in_a_named_match_the_cube_speaks_of_the_players() -> None:
    view = prepared("match")
    view.apply(CubeMoved(action="double", player=BLACK, cube=(2, "black")))
    assert view.messages["white"].text == "Bob doubles to 4. Select: take, Back: pass."
    assert view.messages["black"].text.startswith("You double to 4: Ann answers")
    assert "Your turn: throw" not in view.messages["black"].text
    view.apply(CubeMoved(action="take", player=WHITE, cube=(4, "white")))
    assert view.messages["black"].text == "Ann takes: the cube is at 4. Throw the dice."


def test_a_stale_notice_goes_with_its_cause() -> None:
    view = prepared("game")
    view.apply(Dice(player=WHITE, dice=(6, 5)))
    view.apply(Board(board=true_counts(Position.standard())))
    view.apply(Notice(about="off-centre", message="Push the man on your 8 point into its place."))
    assert view.prompts.kind("white") == "notice"
    moved = dict(true_counts(Position.standard()))
    moved["8"], moved["2"] = (2, 0), (1, 0)
    view.apply(Board(board=moved))  # the men moved: what it was about is gone
    assert view.prompts.kind("white") == "turn"
    view.apply(Notice(about="off-centre", message="Push the man on your 8 point into its place."))
    view.apply(Destinations(src="8", to=("3", "2"), player=WHITE))  # a man in the hand
    assert view.prompts.kind("white") == "turn"


def test_nothing_for_the_visitor_is_drawn_on_the_tables_side(monkeypatch) -> None:
    """Against the table (black): a wrong move of its men, a menu for everybody, a notice,
    its double, the end of the game are all drawn facing the visitor; the table's band
    shows nothing but its own words, and does not change for any of them."""
    pygame.init()
    renderer = Renderer(pygame.Surface((1280, 720)), Calibration.default(1280, 720))
    faced: list[tuple[str, str]] = []
    blit = Renderer._blit_panel

    def recorded(self, name, build, view, colour):  # every panel drawn, and whom it faces
        faced.append((name, colour))
        blit(self, name, build, view, colour)

    monkeypatch.setattr(Renderer, "_blit_panel", recorded)

    def playing() -> TableView:
        view = prepared("against")
        view.apply(Dice(player=BLACK, dice=(6, 5)))
        view.apply(SAMPLES["opponent-play"][0])
        return view

    renderer.draw(playing(), 0)
    band = renderer.geometry.bands["black"]
    quiet = renderer.surface.subsurface(band).copy()
    for event in (
        Illegal(reason="not-the-tables-move", message="That is not the table's move: move "
                "its men as shown, 24/13.", player=BLACK, table="19"),
        MenuShown(title="Which play did you make?", items=("13/7", "8/2"), cursor=0),
        Notice(about="hit-to-bar", message="Put white's hit man on white's bar."),
        Detail(player=WHITE),
        GameOver(winner=BLACK, result="gammon", points=2),
    ):
        view = playing()
        view.apply(event)
        faced.clear()
        renderer.draw(view, 0)
        words = [(n, c) for n, c in faced if n not in ("cube", "band-black", "band-white")]
        assert words and all(c == "white" for _, c in words), (event, faced)
        assert set(view.prompts.held["black"]) <= {OWN}
        if not isinstance(event, GameOver):  # its band's label says "I WON" then
            same = not differing(quiet, renderer.surface.subsurface(band).copy(),
                                 quiet.get_rect()).get_bounding_rects()
            assert same, event
    over = playing()
    over.apply(GameOver(winner=BLACK, result="gammon", points=2))
    assert over.messages["white"].text == "The table wins a gammon game (2 points)."


def test_a_prompt_kind_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="no prompt is of kind"):
        Prompts().put("white", "shout", Text("Hey"))
