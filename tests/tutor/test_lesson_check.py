"""``kiosk lesson check``: every declared fact against the engine, GNU Backgammon and the
books, every citation against the books' text, and no figure stated without a fact."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.books import sources
from kiosk.tutor.lessons.facts import check_lesson, cited_against, claims, unbacked
from kiosk.tutor.lessons.model import lesson_files, load_lesson, read_lesson

HEAD = 'id = "t"\nnumber = 1\ntitle = "T"\nsummary = "S"\n'
BOOKS_HERE = (sources.BOOKS_DIR / sources.BOOKS["Cady"].file).exists()


def _lesson(tmp_path: Path, steps: str):
    path = tmp_path / "t.toml"
    path.write_text(HEAD + steps, encoding="utf-8")
    return read_lesson(path)


def test_the_installed_lessons_pass_the_check() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "lesson", "check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.startswith("ok")]) == len(lesson_files())
    assert "wrong" not in done.stdout


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ('["pips white = 160"]', "the engine finds 167"),
        ('["distance 8 = 5"]', "the engine finds 6"),
        ('["men black 13 = 4"]', "the engine finds 5"),
        ('["quote Cady 583: leave a blot where it is hit most"]', "does not say so"),
        ('["match-equity 1 3 = 70"]', "the Kazaross XG2 table gives 75"),
        ('["match-equity 1 3 post-crawford = 75"]', "the Kazaross XG2 table gives 68"),
    ],
)
def test_a_wrong_fact_fails(tmp_path, facts, message) -> None:
    if "quote" in facts and not BOOKS_HERE:
        pytest.skip("the books' transcriptions are not on this machine")
    lesson = _lesson(
        tmp_path,
        f'[[step]]\nkind = "explain"\ntext = "Six throws."\ncite = "Cady, Tactics VII"\n'
        f"facts = {facts}\n",
    )
    problems = check_lesson(lesson)
    assert any(message in p.message and not p.skipped for p in problems), problems


def test_a_figure_without_facts_fails(tmp_path) -> None:
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "explain"\ntext = "It is hit by 11 throws."\ncite = "Cady, Playing"\n',
    )
    assert [str(c) for c in claims(lesson.steps[0])] == ["'11 throws'"]
    assert [p.message for p in check_lesson(lesson)] == ["states '11 throws' but no fact backs it"]


@pytest.mark.parametrize(
    ("words", "claim"),
    [
        ("Each side plays with fifteen men.", "'fifteen men'"),
        ("So 25% is the take point.", "'25%'"),
        ("You need 167 pips at the start.", "'167 pips'"),
        ("Six throws hit it.", "'Six throws'"),
        ("Of the 36 throws, only 6-4 hits: 2 throws.", "'2 throws'"),
        ("A backgammon counts triple.", "'triple'"),
        ("Cady, Hoffmann and Parker say he does not even throw.", "Hoffmann"),
        ("GNU Backgammon rates it doubtful.", "'rates'"),
    ],
)
def test_the_widened_check_reports_an_unbacked_figure_or_book(tmp_path, words, claim) -> None:
    lesson = _lesson(
        tmp_path,
        f'[[step]]\nkind = "explain"\ntext = "{words}"\ncite = "Cady, Playing"\n'
        '[[step]]\nkind = "question"\ntext = "How many?"\nchoices = ["Two men", "Nine men"]\n'
        'answer = 0\nexplain = "A blot is one man."\ncite = "Cady, Playing"\n'
        'facts = ["men white 24 = 2"]\n',
    )
    messages = [str(p) for p in check_lesson(lesson)]
    assert f"step 1: wrong: states {claim} but no fact backs it" in messages, messages
    # "Nine men" is offered as a wrong answer: not a claim of the lesson's.
    assert not [m for m in messages if m.startswith("step 2")], messages


@pytest.mark.parametrize(
    "words",
    [
        "Play 13/10* 8/5(2) bar/22 6/off: you throw 6-2, then double five.",
        "Your 13 point, his 4 and 2, your six and five points, the ace point (your 24).",
        "The 5 would enter on your 20 point; enter with the three, then play the 6s.",
        "Cady law 12, Tactics V, Hoyle's #21, the 8-9-12 rule, a 7-point match, in 1858.",
        "One man alone on a point is a blot; the first throw; two dice; the 36 throws.",
    ],
)
def test_what_is_not_a_figure(tmp_path, words) -> None:
    lesson = _lesson(tmp_path, f'[[step]]\nkind = "explain"\ntext = "{words}"\n')
    assert [str(c) for c in claims(lesson.steps[0])] == (
        ["Cady", "Hoyle"] if "Cady" in words else []
    )


@pytest.mark.skipif(not BOOKS_HERE, reason="the books' transcriptions are not on this machine")
def test_facts_back_the_figures_and_books_they_state(tmp_path) -> None:
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "explain"\ntext = "Cady gives each side fifteen men: 2 on your 24, '
        '13 pips further than your 11."\ncite = "Cady, The Implements"\nfacts = ['
        '"quote Cady 353: fifteen of each color are required", "men white 24 = 2", '
        '"calc 24 - 11 = 13"]\n',
    )
    assert unbacked(lesson.steps[0]) == []
    assert check_lesson(lesson) == []


def test_the_points_a_fact_is_about_back_no_figure(tmp_path) -> None:
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "setup"\nposition = "standard"\n'
        'text = "It costs black ten pips."\nfacts = ["men white 10 = 0"]\n',
    )
    assert [str(c) for c in unbacked(lesson.steps[0])] == ["'ten pips'"]


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ('["calc 2 x 18 + 5 x 7 = 72"]', "it comes to 71"),
        ('["keith white = 95"]', "the engine finds 108"),
        ('["keith = double take"]', "the keith rule gives no-double take"),
        ('["8-9-12 = no-double take"]', "the 8-9-12 rule gives double take"),
    ],
)
def test_a_wrong_calculation_or_rule_of_thumb_fails(tmp_path, facts, message) -> None:
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "setup"\nposition = "tLXbAAC03W4AAA"\ntext = "A race."\n'
        f"facts = {facts}\n",
    )
    problems = check_lesson(lesson)
    assert any(message in p.message and not p.skipped for p in problems), problems


def test_the_title_and_summary_are_checked(tmp_path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'id = "t"\nnumber = 1\ntitle = "T"\n'
        'summary = "Parker\'s game for three to eight players."\n'
        '[[step]]\nkind = "explain"\ntext = "Words."\ncite = "Parker, Chouette"\n'
        'facts = ["calc 3 x 1 = 3"]\n',
        encoding="utf-8",
    )
    messages = [p.message for p in check_lesson(read_lesson(path)) if p.step == 0]
    assert messages == [
        "the title or summary states 'eight players' but no fact of the lesson backs it",
        "the title or summary states Parker but no fact of the lesson backs it",
    ]


@pytest.mark.parametrize(
    ("cite", "message"),
    [
        ("Cady, Tactics XX", "no section"),
        ("catalogue 5.2", "names no book"),
        ("Foster", "no section or law"),
    ],
)
def test_a_bad_citation_fails(tmp_path, cite, message) -> None:
    lesson = _lesson(tmp_path, f'[[step]]\nkind = "explain"\ntext = "Words."\ncite = "{cite}"\n')
    assert any(message in p.message for p in check_lesson(lesson))


@pytest.mark.skipif(not BOOKS_HERE, reason="the books' transcriptions are not on this machine")
def test_every_known_section_starts_where_the_registry_says() -> None:
    for book, sections in sources.SECTIONS.items():
        for name in sections:
            cite = f"{book} {name}" if name.startswith(("law ", "#")) else f"{book}, {name}"
            if book == "Hoyle":
                cite = f"Hoyle's rules for setting out {name}"
            assert sources.check(cite) == [], cite


def test_citations_carry_the_books_years() -> None:
    assert sources.with_years("Crawley, Hints 6; Foster law 12") == (
        "Crawley, Hints 6; Foster law 12 (Crawley 1858; Foster 1897)"
    )
    assert sources.with_years("Parker, Optional Doubling").endswith("(Parker, undated)")


# -- every play a step names, rated by GNU Backgammon --------------------------------------


def _reference_here() -> bool:
    from kiosk.tutor.evaluators.gnubg_external import find_program
    from kiosk.tutor.evaluators.gnubg_nn import load_module

    return load_module() is not None or find_program() is not None


needs_gnubg = pytest.mark.skipif(not _reference_here(), reason="GNU Backgammon is not installed")


def _check_copy(path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """``kiosk lesson check`` of ``text`` written to ``path``."""
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "lesson", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@needs_gnubg
def test_a_broken_copy_of_a_lesson_fails_the_check(tmp_path) -> None:
    # Lesson 3 once accepted only bar/22 24/18 for Black's 6-3 (0.249 behind bar/22 13/7).
    text = (lesson_files()[0].parent / "03-hitting.toml").read_text(encoding="utf-8")
    broken = text.replace('accept = ["bar/22 13/7"]', 'accept = ["bar/22 24/18"]')
    assert broken != text
    done = _check_copy(tmp_path / "03-hitting.toml", broken)
    assert done.returncode == 1, done.stdout
    assert "accepts bar/22 24/18, 0.249 in equity behind the best, bar/22 13/7" in done.stdout
    assert "refuses bar/22 13/7, the best" in done.stdout


@needs_gnubg
def test_every_legal_play_is_rated_not_only_those_the_move_filter_keeps(tmp_path) -> None:
    # Lesson 17's 6-5 once refused four plays within 0.03 of the best (9/3 8/3 is 0.006
    # behind); GNU Backgammon's move filter drops them, so the check must rate them itself.
    text = (lesson_files()[0].parent / "17-doubling.toml").read_text(encoding="utf-8")
    broken = text.replace('\n    "9/3 8/3", "9/3 6/1", "8/2 6/1", "7/1 6/1",', "")
    assert broken != text
    done = _check_copy(tmp_path / "17-doubling.toml", broken)
    assert done.returncode == 1, done.stdout
    for refused in ("9/3 8/3", "9/3 6/1", "8/2 6/1", "7/1 6/1"):
        assert f"step 7: 'plays': wrong: refuses {refused}, only " in done.stdout, done.stdout


def _plays(tmp_path, play: str):
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "play"\nposition = "standard"\ndice = [3, 1]\ntext = "Play."\n'
        f'cite = "Cady, Tactics I"\n{play}\n',
    )
    return [p.message for p in check_lesson(lesson) if p.fact == "plays"]


@needs_gnubg
@pytest.mark.parametrize(
    ("play", "message"),
    [
        ('accept = ["24/21 24/23"]', "accepts 24/23 24/21, "),
        ('accept = ["8/5 6/5"]\ngood = ["13/9"]', "calls 13/9 sound, "),
        ('accept = ["13/10 6/5"]', "refuses 8/5 6/5, the best"),
        ('accept = ["8/5 6/5"]\ngood = ["8/5 6/5"]', ""),
        (
            'accept = ["8/5 6/5"]\n'
            'books = [{ book = "Cady", hit = "13/9", cite = "Cady, Tactics I" }]',
            "sets Cady's play for a hit, 13/9, beside today's without its loss",
        ),
    ],
)
def test_each_kind_of_wrong_play_is_reported(tmp_path, play, message) -> None:
    found = _plays(tmp_path, play)
    if message:
        assert any(m.startswith(message) for m in found), found
    else:
        assert found == []


@needs_gnubg
def test_a_books_play_may_be_shown_with_its_loss_said(tmp_path) -> None:
    found = _plays(
        tmp_path,
        'accept = ["8/5 6/5"]\nfacts = ["rating 13/9 = very bad"]\n'
        'books = [{ book = "Cady", hit = "13/9", cite = "Cady, Tactics I" }]',
    )
    assert found == []


def test_a_bear_off_is_rated_in_throws(tmp_path) -> None:
    # Hoffmann's example: the 3 played 4/1 heaps men on the ace point (0.16 throws worse).
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "play"\ndice = [4, 3]\ntext = "Play."\n'
        'cite = "Hoffmann, Bearing off the Men"\n'
        "position = { white = { 5 = 5, 4 = 3, 2 = 3, 1 = 4 }, black = { 1 = 3, 2 = 3 } }\n"
        'accept = ["4/off 4/1"]\n',
    )
    found = [p.message for p in check_lesson(lesson) if p.fact == "plays"]
    assert found == [
        "accepts 4/1 4/off, 0.160 throws behind the best, 5/2 4/off (the bear-off count)",
        "refuses 5/2 4/off, the best (the bear-off count)",
    ]


def test_without_gnubg_the_play_check_is_skipped_not_failed(tmp_path) -> None:
    from kiosk.tutor.lessons.ratings import Judge

    judge = Judge()
    judge._looked = True  # as on a machine with neither gnubg-nn nor the gnubg program
    lesson = _lesson(
        tmp_path,
        '[[step]]\nkind = "play"\nposition = "standard"\ndice = [3, 1]\ntext = "Play."\n'
        'cite = "Cady, Tactics I"\naccept = ["8/5 6/5"]\n',
    )
    problems = check_lesson(lesson, judge)
    assert [p.skipped for p in problems] == [True]
    assert "not installed" in problems[0].message


@pytest.mark.skipif(
    __import__("kiosk.tutor.evaluators.gnubg_nn", fromlist=["x"]).load_module() is None,
    reason="gnubg-nn is not installed",
)
def test_the_bear_off_count_is_gnu_backgammons_database() -> None:
    import gnubg_nn

    from kiosk.tutor.evaluators.bearoff import expected_throws

    for home in [(4, 3, 0, 3, 5, 0), (0, 2, 0, 0, 1, 3), (1, 0, 0, 0, 0, 0)]:
        chances = gnubg_nn.bearoff_probabilities(home)
        theirs = sum((n + 1) * c for n, c in enumerate(chances))
        assert abs(expected_throws(home) - theirs) < 1e-3


def test_every_play_step_has_its_plays_stored_with_their_ratings() -> None:
    # What the table says a learner's wrong play costs comes from the stored ratings:
    # every legal play of every play step of every installed lesson must be there, for
    # this very position and roll (kiosk lesson check compares the losses with GNU
    # Backgammon's and fails while they are out of date).
    from kiosk.tutor.lessons.model import PlayStep
    from kiosk.tutor.lessons.ratings import stored_step

    for path in lesson_files():
        lesson = read_lesson(path)
        for step in lesson.steps:
            if not isinstance(step, PlayStep):
                continue
            entry = stored_step(lesson.id, step)
            assert entry is not None, f"{lesson.id} step {step.number}"
            legal = {p.result.position_id() for p in step.start.legal_plays(*step.dice)}
            assert set(entry["losses"]) == legal, f"{lesson.id} step {step.number}"
            assert min(entry["losses"].values()) == 0.0


def test_a_wrong_play_in_a_lesson_is_answered_with_its_cost_and_what_it_does_wrong() -> None:
    # Lesson 11, 6-6: the simulated learner's wrong play is rated before the wanted play
    # is shown (issue 33: the learner's own play was never rated).
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "lesson", "run", "openings", "--learner", "wrong"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    import json

    wrong = [
        e
        for e in map(json.loads, done.stdout.splitlines())
        if e.get("event") == "lesson-result" and e.get("correct") is False and "move" in e
    ]
    assert wrong
    for event in wrong:
        text = event["text"]
        assert text.startswith(f"You played {event['move']}, "), text
        assert " points a game on average." in text, text
        assert text.index("You played") < text.index("The play wanted is"), text
    # the opening 6-6 played 24/22(2): it misses the points the wanted play makes
    sixes = [e["text"] for e in wrong if "Misses the chance to make" in e["text"]]
    assert sixes, [e["text"] for e in wrong]


def test_out_of_date_stored_ratings_fail_the_check() -> None:
    from dataclasses import replace

    from kiosk.tutor.lessons.model import PlayStep, load_lesson
    from kiosk.tutor.lessons.ratings import Rated, stored_problem, stored_step

    lesson = load_lesson("saving-the-gammon")
    step = next(s for s in lesson.steps if isinstance(s, PlayStep))
    entry = stored_step(lesson.id, step)
    assert entry is not None
    losses = dict(entry["losses"])
    best = step.plays[step.accept[0]]
    fresh = Rated(best, losses, entry["unit"], entry["judge"])
    assert stored_problem(lesson.id, step, fresh) is None
    worse = next(k for k, v in losses.items() if v > 0)
    drifted = Rated(best, {**losses, worse: losses[worse] + 0.02}, entry["unit"], entry["judge"])
    assert "away from GNU Backgammon's" in (stored_problem(lesson.id, step, drifted) or "")
    moved = replace(step, dice=(2, 1))
    assert "no stored ratings" in (stored_problem(lesson.id, moved, fresh) or "")


#: Lesson 16's steps 7 and 8 as they once read: Cady "warns" to run and never wait, while
#: his Tactics XIV, as printed, ends by telling the player to wait for a blot.
OLD_16_STEPS_7_AND_8 = '''
[[step]]
kind = "explain"
facts = [
    "quote Crawley 630: it is your interest to leave a man upon the adversary’s ace point",
    "quote Crawley 630: never wait for a blot, because the odds are greatly against hitting it",
    "quote Cady 628: it is well to leave a blot there, thus preventing him from bearing his men to the greatest advantage",
    "quote Cady 630: he should wait for a blot",
]
text = """Running to save a gammon with men still on his ace point: Crawley and Cady both
advise keeping a man back there while you bring the others round. It spoils his bearing
off and keeps the chance that he leaves you a shot. But both add a warning: once you
can count that running saves the gammon, run, and do not wait for a shot that will
probably never come."""
cite = "Crawley, Directions 7; Cady, Tactics XIV"

[[step]]
kind = "question"
facts = [
    "quote Crawley 630: But if, upon calculation, you find you have a throw, or a probability of saving your gammon, never wait for a blot",
    "quote Crawley 630: suppose you should have two men upon his ace point",
]
text = """You have two men on his ace point and are running to save the gammon. Your
count says that if you run now you will very likely get a man off in time. What do the
books advise?"""
choices = ["Keep a man back anyway and wait for a shot", "Run: never wait for a shot when running saves the gammon", "Leave both men back"]
answer = 1
explain = """Holding a man back is for when the gammon cannot be saved by running. When
it can, the shot you wait for is unlikely, and a gammon is a heavy price."""
cite = "Crawley, Directions 7; Cady, Tactics XIV"
'''  # noqa: E501


def test_a_quote_backs_a_book_only_when_it_says_what_the_step_says(tmp_path) -> None:
    if not BOOKS_HERE:
        pytest.skip("the books' transcriptions are not on this machine")
    problems = [str(p) for p in check_lesson(_lesson(tmp_path, OLD_16_STEPS_7_AND_8))]
    assert problems == [
        "step 1: wrong: states Cady but its quote of Cady says the opposite (the book says "
        "wait, the step says not wait)",
        "step 2: 'cite': wrong: cites Cady, Tactics XIV [000:628] but the step forbids wait, "
        "which the cited section advises",
    ], problems
    # the same steps as they read now, saying what each book says, pass
    lesson = load_lesson("home-and-off")
    for step in lesson.steps[6:8]:
        assert unbacked(step) == [] and cited_against(step) == [], step.number


def test_no_installed_lesson_quotes_or_cites_a_book_against_its_words() -> None:
    if not BOOKS_HERE:
        pytest.skip("the books' transcriptions are not on this machine")
    for path in lesson_files():
        for step in read_lesson(path).steps:
            assert cited_against(step) == [], (path.name, step.number)
            assert [c for c in unbacked(step) if c.kind == "book"] == [], (path.name, step.number)


_CITES = {
    "Crawley": "Crawley, Directions 7",
    "Parker": "Parker, Bearing",
    "Cady": "Cady, Tactics XIV",
}


@pytest.mark.parametrize(
    ("text", "quote", "opposite"),
    [
        # the book forbids what the step has it advise
        (
            "Crawley tells you to wait for a blot.",
            "Crawley 630: never wait for a blot, because the odds are greatly against hitting it",
            "the book says not wait, the step says wait",
        ),
        # the step says the book's words its own way: not the opposite
        (
            "Crawley: rather than wait for a shot that will hardly come, run.",
            "Crawley 630: never wait for a blot, because the odds are greatly against hitting it",
            "",
        ),
        (
            "Parker lets you move a man instead of bearing it off.",
            "Parker 112: A player may at his option move a man instead of Bearing it",
            "",
        ),
        # another book's words in the same step are not this book's
        (
            "Crawley says run and never wait; Cady says wait for a blot.",
            "Cady 630: he should wait for a blot",
            "",
        ),
    ],
)
def test_a_quote_that_says_the_opposite_backs_nothing(tmp_path, text, quote, opposite) -> None:
    if not BOOKS_HERE:
        pytest.skip("the books' transcriptions are not on this machine")
    book = quote.split()[0]
    lesson = _lesson(
        tmp_path,
        f'[[step]]\nkind = "explain"\ntext = "{text}"\ncite = "{_CITES[book]}"\n'
        f'facts = ["quote {quote}"]\n',
    )
    said = [p.message for p in check_lesson(lesson) if p.message.startswith(f"states {book}")]
    if opposite:
        assert said == [f"states {book} but its quote of {book} says the opposite ({opposite})"]
    else:
        assert said == [], said
_PROGRAM = pytest.mark.skipif(
    __import__("kiosk.tutor.evaluators.gnubg_external", fromlist=["x"]).find_program() is None,
    reason="the gnubg program is not installed",
)


def _cube_step(tmp_path: Path, fact: str, text: str):
    return _lesson(
        tmp_path,
        '[[step]]\nkind = "setup"\nposition = "aNfgYASwZ8YHAA"\ntext = "Lay it out."\n'
        f'[[step]]\nkind = "question"\ntext = "{text}"\nchoices = ["Yes", "No"]\n'
        f'answer = 0\ncite = "GNU Backgammon, cube analysis"\nfacts = ["{fact}"]\n',
    )


@_PROGRAM
def test_a_cube_decision_is_checked_at_the_match_score_it_names(tmp_path) -> None:
    # For money GNU Backgammon keeps the cube; at 2-away each it doubles and he passes.
    money = check_lesson(_cube_step(tmp_path, "cube = double pass", "Double?"))
    assert any("GNU Backgammon says no-double take" == p.message for p in money), money
    ok = check_lesson(_cube_step(tmp_path, "cube 2 2 = double pass", "2-away, 2-away: double?"))
    assert ok == []
    wrong = check_lesson(_cube_step(tmp_path, "cube 2 2 = no-double take", "2-away each?"))
    assert any("says double pass at 2-away, 2-away" in p.message for p in wrong), wrong


@_PROGRAM
def test_the_crawford_flag_reaches_gnubg(tmp_path) -> None:
    # The same position after the Crawford game: at 2-away against 1-away the leader has
    # a free drop, at 3-away against 1-away he must take.
    position = "4HPFATCwZ/ABMA"
    for away, answer in ((2, "pass"), (3, "take")):
        fact = f"cube {away} 1 post-crawford"
        lesson = _lesson(
            tmp_path,
            f'[[step]]\nkind = "setup"\nposition = "{position}"\nturn = "black"\n'
            'text = "Lay it out."\n'
            f'[[step]]\nkind = "question"\ntext = "{away}-away, 1-away, post-Crawford."\n'
            'choices = ["Take", "Pass"]\nanswer = 0\ncite = "GNU Backgammon, cube analysis"\n'
            f'facts = ["{fact} = no-double {answer}"]\n',
        )
        assert check_lesson(lesson) == [], fact


@pytest.mark.parametrize(
    ("fact", "text", "message"),
    [
        ("cube 2 4 = double take", "Double?", "do not name the score (2-away, 4-away)"),
        ("cube 2 1 = double take", "2-away, 1-away", "say crawford or post-crawford"),
        ("cube 3 3 crawford = double take", "3-away each", "need a side 1 away"),
        ("cube 2 x = double take", "2-away", "write the score as"),
    ],
)
def test_a_cube_fact_must_name_a_score_it_can_be_checked_at(tmp_path, fact, text, message):
    problems = check_lesson(_cube_step(tmp_path, fact, text))
    assert any(message in p.message and not p.skipped for p in problems), problems
