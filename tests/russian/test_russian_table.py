"""Russian backgammon at the table (issue 15): ``kiosk scenario``'s ``variant``, the men in
their trays, entering as ``hand/N``, one ``play`` event a part with ``"bonus": true`` for
the bonus, ``throw-again``, Cady's ``choose-doublet``, the books' differences as cases, the
illegal placements with the Russian rules, and whole games between random players."""

from __future__ import annotations

import random

import pytest

from kiosk.rig.scenario import ScenarioRunner
from kiosk.rules.russian import (
    RUSSIAN_BAR,
    RUSSIAN_HAND,
    RUSSIAN_OFF,
    RussianPosition,
    RussianTurn,
    get_russian_profile,
)


def run(lines: list[str]) -> list[dict]:
    """Run script lines through the whole stack (a table that senses colours)."""
    events: list[dict] = []
    with ScenarioRunner(events.append, settle_ms=300, sensing="polarity") as runner:
        runner.run(lines)
    return events


def kinds(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["event"] == kind]


def where(location: int) -> str:
    return {RUSSIAN_HAND: "hand", RUSSIAN_BAR: "bar", RUSSIAN_OFF: "off"}.get(
        location, str(location)
    )


def part_actions(play, mover) -> list[str]:
    """A hand moving the men of one part (a hit man to his bar after)."""
    out = []
    for step in play.steps:
        out += [f"lift {where(step.src)} {mover}", f"place {where(step.dst)} {mover}"]
        if step.hit:
            out += [f"lift {step.dst} {mover.other}", f"place bar {mover.other}"]
    return out + ["press done"]


def test_the_men_start_in_their_trays_and_enter_as_hand_moves() -> None:
    events = run(["variant russian-cady", "dice 3 1", *["lift hand", "place 3"],
                  *["lift hand", "place 1"], "press done"])  # fmt: skip
    assert kinds(events, "setup-ok") and not kinds(events, "error")
    assert kinds(events, "part")[0]["message"] == "Now 3-1."
    (play,) = kinds(events, "play")
    assert (play["player"], play["move"]) == ("white", "hand/1 hand/3")
    assert play["position"] == "R:b:h13,1x1,3x1,t:h15"
    assert "bonus" not in play and not kinds(events, "throw-again")


def test_cadys_six_six_four_sixes_four_aces_and_another_throw() -> None:
    """Cady [000:859]: 6-6 is played four times, then 1-1 four times, then a new throw
    (after the player's first doublet: 'd' in the position)."""
    events = run(
        [
            "variant russian-cady",
            "setup R:w:h15,t,d:h15",
            "dice 6 6",
            *["lift hand", "place 6"] * 4,
            "press done",
            *["lift hand", "place 1"] * 4,
            "press done",
        ]
    )
    parts = kinds(events, "part")
    assert [(p["dice"], p["bonus"], p["message"]) for p in parts] == [
        ([6, 6, 6, 6], False, "Now four 6s."),
        ([1, 1, 1, 1], True, "Now four 1s (the bonus)."),
    ]
    plays = kinds(events, "play")
    assert [(p["move"], p.get("bonus")) for p in plays] == [
        ("hand/6(4)", None),
        ("hand/1(4)", True),
    ]
    assert kinds(events, "throw-again") == [{"event": "throw-again", "player": "white"}]
    assert plays[-1]["position"].startswith("R:w:")  # white throws again


@pytest.mark.parametrize(
    ("variant", "history", "bonus"),
    [
        ("russian-cady", "t", False),  # Cady [000:861]: each player's first doublet
        ("russian-cady", "t,d", True),
        ("russian-foster", "", False),  # Foster [004:119]: only a doublet on the first throw
        ("russian-foster", "t", True),  # his first doublet later earns the bonus
    ],
)
def test_the_first_doublet_exception_under_each_book(variant, history, bonus) -> None:
    white = ",".join(["h15", history]) if history else "h15"
    lines = [f"variant {variant}", f"setup R:w:{white}:h15", "dice 3 3"]
    lines += ["lift hand", "place 3", "lift hand", "place 3", "lift hand", "place 3"]
    lines += ["lift hand", "place 3", "press done"]
    events = run(lines)
    parts = kinds(events, "part")
    assert [p["bonus"] for p in parts] == ([False, True] if bonus else [False])
    assert bool(kinds(events, "throw-again")) is False  # the bonus part is still to play
    if bonus:
        assert parts[1]["dice"] == [4, 4, 4, 4]


def test_fosters_first_throw_must_enter_two_men() -> None:
    """Foster [004:117]: one man carried in with both dice is refused at once."""
    events = run(["variant russian-foster", "dice 3 1", "lift hand", "place 4"])
    (illegal,) = kinds(events, "illegal")
    assert illegal["reason"] == "enter-two" and "Foster" in illegal["law"]
    assert illegal["table"] == "21"  # the common track's point 4 on the table
    cady = run(["variant russian-cady", "dice 3 1", "lift hand", "place 4", "press done"])
    assert not kinds(cady, "illegal") and kinds(cady, "play")[0]["move"] == "hand/4"


def test_a_doublet_that_cannot_be_played_loses_the_bonus_and_the_new_throw() -> None:
    """Foster's failure rule [004:119] (and Cady's [000:863]): four 6s cannot be played
    (black holds the 6 point and white has no man on the board): the opposite faces and
    the new throw are lost; black is on roll."""
    events = run(["variant russian-foster", "setup R:w:h15,t:6x2,h13,t", "dice 6 6"])
    (play,) = kinds(events, "play")
    assert play["move"] == "" and play["position"].startswith("R:b:")
    assert "four 1s" in kinds(events, "notice")[-1]["message"]
    assert not kinds(events, "throw-again")


def test_a_blot_is_hit_before_all_men_are_entered() -> None:
    """Cady [000:853-855]; Foster [004:117]: hitting is allowed before every man is in."""
    events = run(
        [
            "variant russian-cady",
            "setup R:b:h14,3x1,t:h15,t",
            "dice 3 2",
            *["lift hand", "place 3", "lift 3 white", "place bar white"],
            *["lift hand", "place 2"],
            "press done",
        ]
    )
    (play,) = kinds(events, "play")
    assert play["move"] == "hand/2 hand/3*"
    assert play["position"] == "R:w:h14,b1,t:h13,2x1,3x1,t"
    assert not kinds(events, "illegal")


def test_illegal_placements_cite_the_russian_rules() -> None:
    blocked = run(["variant russian-cady", "setup R:w:h15,t:3x2,h13,t", "dice 3 1",
                   "lift hand", "place 3"])  # fmt: skip
    (illegal,) = kinds(blocked, "illegal")
    assert illegal["reason"] == "blocked" and "held by 2 men of black's" in illegal["message"]
    assert illegal["message"].endswith("It may go to point 1.")  # and what to do instead
    bar = run(["variant russian-cady", "setup R:w:h14,b1,t:h15,t", "dice 3 1",
               "lift hand", "place 3"])  # fmt: skip
    (illegal,) = kinds(bar, "illegal")
    assert illegal["reason"] == "bar-first" and "Cady, Russian Backgammon" in illegal["law"]
    assert "[" not in illegal["law"]  # cited by section, not by the line numbers of a file


def test_cadys_deuce_ace_is_a_doublet_of_the_players_choice() -> None:
    """Cady [000:865]: after 2-1 (played), any doublet and its opposite, then a new throw."""
    events = run(
        [
            "variant russian-cady",
            "setup R:w:h15,t,d:h15",
            "dice 2 1",
            *["lift hand", "place 2", "lift hand", "place 1", "press done"],
            "choose-doublet 5",
            *["lift hand", "place 5"] * 4,
            "press done",
            *["lift hand", "place 2"] * 4,
            "press done",
        ]
    )
    assert kinds(events, "notice")[-1]["about"] == "choose-doublet"
    plays = kinds(events, "play")
    assert [(p["move"], p.get("bonus")) for p in plays] == [
        ("hand/1 hand/2", None),
        ("hand/5(4)", True),
        ("hand/2(4)", True),
    ]
    assert kinds(events, "throw-again")
    foster = run(["variant russian-foster", "dice 2 1", "choose-doublet 5"])
    assert kinds(foster, "error")[0]["message"] == (
        "No doublet is to be chosen now (only after a 2-1)."
    )  # Foster has no deuce-ace: 2-1 is played as thrown


def test_standard_actions_are_refused_in_the_russian_game() -> None:
    events = run(["variant russian-cady", "double", "opening 3 1", "variant chess"])
    errors = kinds(events, "error")
    assert [e.get("line") for e in errors] == [2, 3, 4], errors
    assert "not an action of the Russian game" in kinds(events, "error")[0]["message"]
    back = run(["variant russian-cady", "variant standard", "setup standard", "opening 3 1"])
    assert kinds(back, "opening")[-1]["starter"] == "white", [
        e for e in back if e["event"] not in ("board", "table")
    ]


def _random_game(variant: str, seed: int) -> tuple[list[str], str]:
    """A whole game between random players, as script lines, and its winner."""
    rng = random.Random(seed)
    profile = get_russian_profile(variant)
    position = RussianPosition.start()
    lines = [f"variant {variant}"]
    while position.winner() is None:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turn = RussianTurn(position, d1, d2, profile)
        lines.append(f"dice {d1} {d2}")
        while not turn.over:
            if turn.needs_choice:
                n = rng.randint(1, 6)
                turn.choose_doublet(n)
                lines.append(f"choose-doublet {n}")
                continue
            play = rng.choice(turn.legal_plays())
            mover = turn.player
            if play.steps:
                lines += part_actions(play, mover)
            turn.play(play)
        position = turn.next_position()
        lines.append("wait 400")
    return lines, str(position.winner())


@pytest.mark.parametrize(("variant", "seed"), [("russian-cady", 1), ("russian-foster", 2)])
def test_whole_games_between_random_players_through_the_table(variant, seed) -> None:
    lines, winner = _random_game(variant, seed)
    events = run(lines)
    assert not kinds(events, "illegal"), kinds(events, "illegal")[:1]
    assert not kinds(events, "error"), kinds(events, "error")[:1]
    (over,) = kinds(events, "game-over")
    assert over["winner"] == winner


def test_a_pulled_cable_in_the_russian_game_is_survived() -> None:
    events = run(["variant russian-cady", "dice 3 1", "lift hand", "place 3", "unplug",
                  "replug", "lift hand", "place 1", "press done"])  # fmt: skip
    assert [e["status"] for e in kinds(events, "table")][-2:] == ["disconnected", "connected"]
    assert not kinds(events, "error") and not kinds(events, "illegal")
    assert kinds(events, "play")[0]["move"] == "hand/1 hand/3"
