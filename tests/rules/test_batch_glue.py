"""``kiosk plays --batch`` answers byte for byte as the plays' own objects say: each
line's JSON text against the reference path (``generate``, ``str(play)``,
``play.result.position_id()``, ``json.dumps``) over thousands of positions of whole games
(contact, hits, the bar, bear-offs, doublets, no play at all), both rules of the larger die,
and bad lines."""

from __future__ import annotations

import io
import json
import random

from oracles import cases, draw_games

from kiosk.rules import Position, generate
from kiosk.rules.cli import batch_line, batch_text, run_batch
from kiosk.rules.notation import Step, _joined, format_play
from kiosk.rules.profiles import RuleProfile, get_profile


def _reference(line: str, profile: RuleProfile) -> str:
    """The answer as the plays' objects give it (the batch's answer before it was sped up)."""
    words = line.split()
    position = Position.from_id(words[0])
    d1, d2 = int(words[1]), int(words[2])
    plays = generate(position, d1, d2, profile.larger_die)
    return json.dumps(
        {
            "position": words[0],
            "dice": [d1, d2],
            "plays": [{"move": str(p), "result": p.result.position_id()} for p in plays],
        }
    )


def test_the_batch_answers_as_the_plays_objects_do() -> None:
    rng = random.Random(34)
    lines = [
        f"{p.position_id()} {d1} {d2}\n" for p, d1, d2 in cases(draw_games(3434, 2500))
    ]
    lines += [f"{Position.standard().position_id()} {d1} {d2}\n" for d1 in range(1, 7)
              for d2 in range(1, 7)]
    rng.shuffle(lines)
    for profile in (get_profile("modern"), get_profile("cady")):  # the larger die: both ways
        out = io.StringIO()
        run_batch(lines, out, profile)
        want = "".join(_reference(line, profile) + "\n" for line in lines)
        assert out.getvalue() == want
        assert {batch_text(line, profile) for line in lines[:50]} == {
            json.dumps(batch_line(line, profile)) for line in lines[:50]
        }


def test_bad_lines_are_answered_as_before() -> None:
    modern = get_profile("modern")
    for line in ("", "\n", "4HPwATDgc/ABMA 7 1", "4HPwATDgc/ABMA 3", "nonsense 3 1",
                 '"quoted" 3 1', "4HPwATDgc/ABMA x y", "é" * 200 + " 1 1"):
        text = batch_text(line, modern)
        assert "error" in json.loads(text)
        assert text == json.dumps(batch_line(line, modern))


def test_two_steps_are_written_as_any_play() -> None:
    """The quick way for two steps that hit nothing says what the general one says."""
    for s1 in range(1, 26):
        for a in range(1, 7):
            for s2 in range(1, 26):
                for b in range(1, 7):
                    first, second = Step(s1, max(s1 - a, 0), a), Step(s2, max(s2 - b, 0), b)
                    assert format_play((first, second)) == _joined((first, second))
