"""What the books look at on a board, detected, and the reasons the coach gives with them.

:func:`board_features` reads one side's position the way the old books teach a player to
read it: blots and how many of the 36 rolls hit each (counted by playing every roll out),
points made (above all the five point and the bar point), men crowded on the low points,
men left behind, and the race by pip count.

:func:`explain` compares the position a play left with the one the best play would have
left and says what differs, each reason citing the tactic from the books (catalogue
section 4; the wording here is ours).

>>> from kiosk.rules import Position, WHITE
>>> after = Position.standard().parse_play(3, 1, '8/5 6/5').result
>>> f = board_features(after, WHITE)
>>> sorted(f.made)
[5, 6, 8, 13, 24]
>>> f.blots
()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.books.sources import BOOKS
from kiosk.rules import Colour, Play, Position, all_rolls, hit_points
from kiosk.tutor.evaluators.builtin_features import reach_masks, sides

# -- the tactics cited ----------------------------------------------------------------


@dataclass(frozen=True)
class Tactic:
    """A piece of advice from one of the books, with where it is found."""

    key: str  # the catalogue's id, e.g. "C-VII"
    book: str
    section: str
    advice: str  # in our own words

    def cite(self) -> str:
        """``Book, Section`` for a message."""
        return f"{self.book}, {self.section}"

    def as_dict(self) -> dict[str, object]:
        """The citation as JSON-ready data, with the book's year."""
        return {
            "key": self.key,
            "book": self.book,
            "section": self.section,
            "year": BOOKS[self.book].year,
        }


def _tactics(*rows: tuple[str, str, str, str]) -> dict[str, Tactic]:
    return {key: Tactic(key, book, section, advice) for key, book, section, advice in rows}


#: The tactics the coach cites (catalogue section 4), keyed by the catalogue's ids.
TACTICS: dict[str, Tactic] = _tactics(
    ("C-I", "Cady", "Tactics I", "the five points are the prize points early on"),
    ("C-II", "Cady", "Tactics II", "after the five point, your bar point is next best"),
    ("C-III", "Cady", "Tactics III", "then prefer your own four point"),
    ("C-VI", "Cady", "Tactics VI", "when spreading is unwise, run a back man"),
    ("C-VII", "Cady", "Tactics VII", "when a blot must be left, leave it where it is hit least"),
    ("C-VIII", "Cady", "Tactics VIII", "do not pile men on a point, least of all the low points"),
    ("C-X", "Cady", "Tactics X", "hitting is often right if only combined dice hit back"),
    ("Cr-H2", "Crawley", "Hints 2", "men on the deuce and trey points are out of play"),
    ("Cr-H6", "Crawley", "Hints 6", "count who is forwardest before running"),
    ("Cr-F4", "Crawley", "Further Rules and Hints", "do not linger in his home board"),
    ("Cr-F7", "Crawley", "Further Rules and Hints", "keep your six and five points late on"),
    ("Ho-1", "Hoffmann", "Hints for Play", "make points whenever you reasonably can"),
    ("Ho-2", "Hoffmann", "Hints for Play", "avoid blots where they are likely to be hit"),
    ("Fo-7", "Foster", "The Forward Game", "ahead: hurry home without needless blots"),
    ("Fo-8", "Foster", "The Backward Game", "behind: hold points in his board, spread catchers"),
    ("Fo-10", "Foster", "Throwing Off", "bear a man off whenever you can"),
    ("Fo-11", "Foster", "Chances", "blots about six away are hit most"),
    ("Pa-1", "Parker", "How to Play", "capture his men and make points at home"),
    ("Pa-2", "Parker", "Capture", "a blot in your home board is exposed to a man entering"),
)

#: Names the books give the points, from the player's side.
POINT_NAMES = {1: "ace point", 5: "five point", 7: "bar point", 18: "his bar point"}


def point_name(point: int) -> str:
    """A point as a player would say it: ``your five point``, ``your 9 point``, ``his 4 point``."""
    if point in POINT_NAMES:
        name = POINT_NAMES[point]
        return name if name.startswith("his") else f"your {name}"
    if point > 18:
        return f"his {25 - point} point"
    return f"your {point} point"


# -- features ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Blot:
    """A lone man, and how many of the adversary's 36 rolls hit it."""

    point: int  # in the owner's numbering
    shots: int


@dataclass(frozen=True)
class BoardFeatures:
    """One side's position read as the books read it (points in that side's numbering)."""

    blots: tuple[Blot, ...]
    hit_rolls: int  # rolls of the 36 that hit at least one of the blots
    made: frozenset[int]  # points held with two or more men
    counts: tuple[int, ...]  # men on points 1..24 (index 0 is point 1)
    low_men: int  # men on the ace, deuce and trey points
    stacks: tuple[tuple[int, int], ...]  # (point, men) where four or more stand
    back_men: int  # men in the adversary's home board or on the bar
    bar: int
    adversary_bar: int
    pips: int
    adversary_pips: int
    contact: bool
    off: int
    home_points: int = field(default=0)
    adversary_home_points: int = field(default=0)

    @property
    def lead(self) -> int:
        """Pips ahead in the race (negative: behind)."""
        return self.adversary_pips - self.pips


def hits_by_roll(position: Position, colour: Colour) -> dict[tuple[int, int], frozenset[int]]:
    """For each of the 21 rolls, the points (``colour``'s numbering) of its blots the
    adversary can hit with some legal play of that roll.

    Every roll that might hit (by :func:`~kiosk.tutor.evaluators.builtin_features.
    reach_masks`, which never misses a hit) is played out by the rules engine
    (:func:`~kiosk.rules.hit_points`); the others cannot hit.
    """
    attacker = colour.other
    board = position.with_turn(attacker)
    answer: dict[tuple[int, int], frozenset[int]] = {
        (d1, d2): frozenset() for d1, d2, _ in all_rolls()
    }
    for d1, d2, _ways, reach in reach_masks(*sides(board)):
        if reach:
            answer[(d1, d2)] = frozenset(25 - t for t in hit_points(board, d1, d2))
    return answer


def has_contact(position: Position) -> bool:
    """Whether any man still has an adverse man ahead of it."""
    white, black = position.men
    rear_white = max((i + 1 for i, n in enumerate(white) if n), default=0)
    rear_black = max((i + 1 for i, n in enumerate(black) if n), default=0)
    # White's point p is black's point 25 - p.
    return rear_white + rear_black > 25


def board_features(position: Position, colour: Colour, shots: bool = True) -> BoardFeatures:
    """The features of ``colour``'s men in ``position`` (typically just after its play);
    without ``shots`` the blots are listed with no shots counted (and ``hit_rolls`` 0)."""
    other = colour.other
    counts = tuple(position.count(colour, p) for p in range(1, 25))
    by_roll = hits_by_roll(position, colour) if shots else {}
    ways = {(d1, d2): w for d1, d2, w in all_rolls()}
    blots = tuple(
        Blot(p, sum(ways[r] for r, hit in by_roll.items() if p in hit))
        for p in range(1, 25)
        if counts[p - 1] == 1
    )
    made = frozenset(p for p in range(1, 25) if counts[p - 1] >= 2)
    return BoardFeatures(
        blots=blots,
        hit_rolls=sum(ways[r] for r, hit in by_roll.items() if hit),
        made=made,
        counts=counts,
        low_men=sum(counts[:3]),
        stacks=tuple((p, counts[p - 1]) for p in range(1, 25) if counts[p - 1] >= 4),
        back_men=sum(counts[18:]) + position.bar(colour),
        bar=position.bar(colour),
        adversary_bar=position.bar(other),
        pips=position.pips(colour),
        adversary_pips=position.pips(other),
        contact=has_contact(position),
        off=position.off[colour],
        home_points=sum(1 for p in range(1, 7) if p in made),
        adversary_home_points=sum(1 for p in range(1, 7) if position.count(other, p) >= 2),
    )


# -- reasons -------------------------------------------------------------------------------

#: The reason codes the coach gives, and what each one's facts mean. Points are always in
#: the mover's own numbering; ``shots`` counts the adversary's 36 throws (entering from the
#: bar and blocked points included) that hit a blot on one of ``points`` after the play.
REASON_CODES: dict[str, str] = {
    "best": "the play is the best of the roll",
    "only-play": "the only legal play of the roll (or none: the roll is lost)",
    "blot": "leaves blots on `points` that `shots` throws hit, more than after the best "
    "play (`best_shots`)",
    "new-blot": "leaves a blot on `points` that `shots` throws hit, where the best play "
    "leaves no man exposed",
    "safe": "leaves no blot any throw hits (`shots` 0) where the best play leaves `best_shots`",
    "fewer-shots": "leaves blots that `shots` throws hit, fewer than the best play's `best_shots`",
    "makes-point": "makes the key point(s) `points` (five, bar, four, his five)",
    "breaks-point": "gives up the key point(s) `points` held before the play, or home-board "
    "point(s) the best play keeps",
    "misses-point": "does not make `points`, which the best play makes",
    "breaks-outer-point": "gives up `points` outside the home board, held before the play, "
    "which the best play keeps",
    "home-point": "makes a point in the home board (`points`)",
    "best-home-point": "the best play makes a home-board point (`points`), not held before, "
    "that this play does not",
    "hits": "hits on `points` (sends `men` to the bar); `shots` throws hit back (`direct`: "
    "some with one die)",
    "misses-hit": "does not hit where the best play (`best`) hits on `points`",
    "crowds": "leaves `men` on the ace, deuce and trey points, more than before and than "
    "the best play, while the men are still in contact",
    "stacks": "piles `men` on point `points`, adding to it, more than the best play",
    "leaves-back": "leaves `men` back in the adversary's home board or on the bar, the best "
    "play `best_men`",
    "bears-off-fewer": "bears off `off` men in a race where the best play bears off `best_off`",
    "race": "the race after the play: `pips` to `adversary_pips` (`lead` ahead, negative "
    "behind), and whether the men have passed (`contact`)",
    "gives-up": "against the best play, by the evaluator's chances (fractions of 1, the "
    "mover's): `wins` fewer games won, `gammons` fewer gammons won, `backgammons` fewer "
    "backgammons won, `loses_gammons` more gammons lost, `loses_backgammons` more "
    "backgammons lost (only those of at least half a percent; for an error, the largest "
    "of them when no other reason names what is wrong)",
}

#: The codes that name something a play does wrong against the best play of the roll: an
#: error (a play that gives up 0.03 or more) always has at least one of them.
WRONG_CODES: frozenset[str] = frozenset(
    {
        "blot",
        "new-blot",
        "breaks-point",
        "breaks-outer-point",
        "misses-point",
        "best-home-point",
        "misses-hit",
        "crowds",
        "stacks",
        "leaves-back",
        "bears-off-fewer",
        "gives-up",
    }
)


@dataclass(frozen=True)
class Reason:
    """One reason: a code, the facts it rests on (from the positions before and after the
    play), its words, and the tactic from the books it rests on."""

    code: str
    text: str
    tactic: Tactic | None = None
    facts: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASON_CODES:
            raise ValueError(f"unknown reason code {self.code!r}")

    def __str__(self) -> str:
        return f"{self.text} ({self.tactic.cite()})" if self.tactic else self.text

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``code``, the facts, ``text`` (with its citation) and ``cite``."""
        out: dict[str, Any] = {"code": self.code, **self.facts, "text": str(self)}
        if self.tactic is not None:
            out["cite"] = self.tactic.as_dict()
        return out


def _throws(n: int) -> str:
    return "1 throw" if n == 1 else f"{n} throws"


def _points(points: list[int]) -> str:
    names = [point_name(p) for p in points]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def shots_at(position: Position, colour: Colour, points: list[int]) -> int:
    """How many of the 36 throws let the adversary hit a blot of ``colour`` on one of
    ``points`` (``colour``'s numbering), every throw played out by the rules engine."""
    wanted = set(points)
    ways = {(d1, d2): w for d1, d2, w in all_rolls()}
    return sum(ways[r] for r, hit in hits_by_roll(position, colour).items() if hit & wanted)


def _blot_reasons(
    played: BoardFeatures, best: BoardFeatures | None, best_text: str = ""
) -> list[Reason]:
    if best is None:
        return []
    named = f"the best play ({best_text})" if best_text else "the best play"
    exposed = sorted(b.point for b in played.blots if b.shots)
    if played.hit_rolls > best.hit_rolls:
        shots = played.hit_rolls
        worst = max(played.blots, key=lambda b: b.shots)
        if played.adversary_bar and worst.point <= 6:
            tactic = TACTICS["Pa-2"]
        elif worst.shots <= 6:  # only combined dice reach it
            tactic = TACTICS["Fo-11"]
        else:
            tactic = TACTICS["C-VII"]
        facts = {"points": exposed, "shots": shots, "best_shots": best.hit_rolls}
        where = _points(exposed)
        text = f"Leaves {'a blot' if len(exposed) == 1 else 'blots'} on {where} that "
        text += f"{_throws(shots)} of the 36 hit"
        text += (
            f"; {named} leaves no shot"
            if best.hit_rolls == 0
            else f"; {named} leaves {_throws(best.hit_rolls)} that hit"
        )
        return [Reason("blot", text, tactic, facts)]
    if played.hit_rolls < best.hit_rolls:
        if played.hit_rolls == 0:
            text = f"Safe: no throw hits you; {named} leaves {_throws(best.hit_rolls)}"
            facts = {"shots": 0, "best_shots": best.hit_rolls}
            return [Reason("safe", text, TACTICS["Ho-2"], facts)]
        text = (
            f"Fewer shots: {_throws(played.hit_rolls)} of the 36 hit you, against "
            f"{best.hit_rolls} after {named}"
        )
        facts = {"points": exposed, "shots": played.hit_rolls, "best_shots": best.hit_rolls}
        return [Reason("fewer-shots", text, TACTICS["Ho-2"], facts)]
    return []


_KEY_POINTS = ((5, "C-I"), (7, "C-II"), (4, "C-III"), (20, "C-I"))


def _point_reasons(
    before: BoardFeatures, played: BoardFeatures, best: BoardFeatures | None
) -> list[Reason]:
    reasons: list[Reason] = []
    if not played.contact:
        return reasons  # in a pure race points block nothing
    for point, key in _KEY_POINTS:
        had, has = point in before.made, point in played.made
        could = best is not None and point in best.made
        name = point_name(point)
        facts = {"points": [point]}
        if has and not had:
            reasons.append(Reason("makes-point", f"Makes {name}", TACTICS[key], facts))
        elif had and not has:
            # Crawley's advice to keep the six and five points late on fits the five only.
            late = before.adversary_bar and point == 5
            tactic = TACTICS["Cr-F7"] if late else TACTICS[key]
            reasons.append(Reason("breaks-point", f"Breaks {name}", tactic, facts))
        elif could and not has and not had:
            text = f"Misses the chance to make {name}"
            reasons.append(Reason("misses-point", text, TACTICS[key], facts))
    key_points = {point for point, _key in _KEY_POINTS}
    new_home = sorted(set(p for p in played.made if p <= 6) - before.made)
    if new_home and not any(r.code == "makes-point" for r in reasons):
        text = f"Makes {_points(new_home)} in your home board"
        reasons.append(Reason("home-point", text, TACTICS["Ho-1"], {"points": new_home}))
    if best is not None:
        broken = sorted(
            p
            for p in range(1, 7)
            if p in before.made and p not in played.made and p in best.made and p not in key_points
        )
        if broken:
            text = f"Breaks {_points(broken)}, which the best play keeps"
            reasons.append(Reason("breaks-point", text, TACTICS["Ho-1"], {"points": broken}))
        missing = sorted(
            set(p for p in best.made if p <= 6) - played.made - before.made - key_points
        )
        if missing and not reasons:
            text = f"The best play makes {_points(missing)} in your home board"
            reasons.append(Reason("best-home-point", text, TACTICS["Ho-1"], {"points": missing}))
    return reasons


def _men(n: int) -> str:
    return "1 man" if n == 1 else f"{n} men"


def _shape_reasons(
    before: BoardFeatures, played: BoardFeatures, best: BoardFeatures | None
) -> list[Reason]:
    reasons: list[Reason] = []
    if best is None:
        return reasons
    crowded = played.low_men > best.low_men and played.low_men > before.low_men
    if played.contact and crowded and played.low_men >= 5:
        reasons.append(
            Reason(
                "crowds",
                f"Crowds {played.low_men} men onto your ace, deuce and trey points, "
                "where they are out of play",
                TACTICS["Cr-H2"],
                {"points": [1, 2, 3], "men": played.low_men},
            )
        )
    best_tall = dict(best.stacks)
    for point, men in played.stacks:
        added = men > before.counts[point - 1]
        if (men >= 5 or (men >= 4 and point <= 3)) and added and best_tall.get(point, 0) < men:
            reasons.append(
                Reason(
                    "stacks",
                    f"Piles {men} men on {point_name(point)}",
                    TACTICS["C-VIII"],
                    {"points": [point], "men": men},
                )
            )
            break
    if played.contact and played.back_men > best.back_men:
        tactic = TACTICS["Cr-F4"] if played.adversary_home_points >= 2 else TACTICS["C-VI"]
        reasons.append(
            Reason(
                "leaves-back",
                f"Leaves {_men(played.back_men)} back in his home board; the best play "
                f"leaves {best.back_men}",
                tactic,
                {"men": played.back_men, "best_men": best.back_men},
            )
        )
    if played.off < best.off and not played.contact:
        reasons.append(
            Reason(
                "bears-off-fewer",
                f"Bears off {_men(played.off - before.off)} where the best play bears off "
                f"{best.off - before.off}",
                TACTICS["Fo-10"],
                {"off": played.off - before.off, "best_off": best.off - before.off},
            )
        )
    return reasons


def direct_shot(position: Position, colour: Colour) -> bool:
    """Whether the adversary can hit one of ``colour``'s blots with a single die: a man of
    his one to six points behind it, or on the bar when the blot is in ``colour``'s home."""
    other = colour.other
    for p in range(1, 25):
        if position.count(colour, p) != 1:
            continue
        if p <= 6 and position.bar(other):
            return True
        # His men move towards colour's higher points: colour's point q is his 25 - q.
        if any(position.count(other, 25 - (p - d)) for d in range(1, 7) if p - d >= 1):
            return True
    return False


def _hit_reasons(play: Play, best: Play | None, played: BoardFeatures) -> list[Reason]:
    hit = sorted({s.dst for s in play.steps if s.hit})
    if hit:
        men = sum(1 for s in play.steps if s.hit)
        direct = direct_shot(play.result, play.result.turn.other)
        facts = {"points": hit, "men": men, "shots": played.hit_rolls, "direct": direct}
        if played.hit_rolls and not direct:
            text = (
                f"Hits on {_points(hit)}, and only {_throws(played.hit_rolls)} of the 36 "
                "can hit back, none with a single die"
            )
            return [Reason("hits", text, TACTICS["C-X"], facts)]
        text = f"Hits on {_points(hit)}: sends {'a man' if men == 1 else _men(men)} to the bar"
        return [Reason("hits", text, TACTICS["Pa-1"], facts)]
    if best is not None and any(s.hit for s in best.steps):
        points = sorted({s.dst for s in best.steps if s.hit})
        text = f"Misses the hit {best}"
        return [Reason("misses-hit", text, TACTICS["Pa-1"], {"points": points, "best": str(best)})]
    return []


def _race_reason(played: BoardFeatures) -> Reason:
    you, him = played.pips, played.adversary_pips
    if played.lead > 0:
        standing = f"you lead the race by {played.lead} pips ({you} to {him})"
    elif played.lead < 0:
        standing = f"you trail the race by {-played.lead} pips ({you} to {him})"
    else:
        standing = f"the race is level at {you} pips"
    facts = {"pips": you, "adversary_pips": him, "lead": played.lead, "contact": played.contact}
    if not played.contact:
        return Reason("race", f"The men have passed: {standing}", TACTICS["Cr-H6"], facts)
    return Reason("race", f"After the play {standing}", TACTICS["Cr-H6"], facts)


def _exposure_reasons(
    played: BoardFeatures, best: BoardFeatures | None, best_text: str
) -> list[Reason]:
    """A blot the play leaves where the best play leaves none exposed, when the best play's
    other blots draw as many shots in all (fewer shots in all are no fault of the play)."""
    if best is None or played.hit_rolls < best.hit_rolls:
        return []
    exposed_after_best = {b.point for b in best.blots if b.shots}
    new = [b for b in played.blots if b.shots and b.point not in exposed_after_best]
    if not new:
        return []
    worst = max(new, key=lambda b: b.shots)
    named = f"the best play ({best_text})" if best_text else "the best play"
    text = (
        f"Leaves a blot on {point_name(worst.point)} that {_throws(worst.shots)} of the 36 "
        f"hit; {named} leaves no man exposed there"
    )
    tactic = TACTICS["Fo-11"] if worst.shots <= 6 else TACTICS["C-VII"]
    return [Reason("new-blot", text, tactic, {"points": [worst.point], "shots": worst.shots})]


def _outer_point_reasons(
    before: BoardFeatures, played: BoardFeatures, best: BoardFeatures | None
) -> list[Reason]:
    """Points outside the home board and the key points, held before the play and by the
    best play, that the play gives up; and such points the best play makes and it does not."""
    if best is None or not played.contact:
        return []
    keys = {point for point, _key in _KEY_POINTS}
    outer = [p for p in range(7, 25) if p not in keys]
    broken = [p for p in outer if p in before.made and p in best.made and p not in played.made]
    if broken:
        text = f"Breaks {_points(broken)}, which the best play keeps"
        return [Reason("breaks-outer-point", text, TACTICS["Ho-1"], {"points": broken})]
    missed = [p for p in outer if p in best.made and p not in before.made and p not in played.made]
    if missed:
        text = f"Misses the chance to make {_points(missed)}, which the best play makes"
        return [Reason("misses-point", text, TACTICS["Ho-1"], {"points": missed})]
    return []


def explain_error(position: Position, play: Play, best: Play) -> list[Reason]:
    """What ``play`` does wrong against ``best`` that :func:`explain`'s weightier reasons
    leave unsaid: a blot the best play does not leave exposed, or an outer point broken or
    not made. The coach adds these to an error that no other reason names."""
    mover = position.turn
    before = board_features(position, mover, shots=False)
    played = board_features(play.result, mover)
    best_features = board_features(best.result, mover)
    return _exposure_reasons(played, best_features, str(best)) + _outer_point_reasons(
        before, played, best_features
    )


def explain(position: Position, play: Play, best: Play | None = None) -> list[Reason]:
    """Why ``play`` is better or worse than ``best`` in ``position``, as the books would say.

    Every fact is computed from ``position`` (before), ``play.result`` and ``best.result``.
    The reasons come in order of weight: blots and shots, points made or broken, hits,
    crowding and men left behind, then the race.
    """
    mover = position.turn
    before = board_features(position, mover, shots=False)
    played = board_features(play.result, mover)
    best_features = (
        board_features(best.result, mover) if best is not None and best != play else None
    )
    reasons = _blot_reasons(played, best_features, str(best) if best_features else "")
    reasons += _point_reasons(before, played, best_features)
    reasons += _hit_reasons(play, best if best != play else None, played)
    reasons += _shape_reasons(before, played, best_features)
    reasons.append(_race_reason(played))
    return reasons


#: The evaluator's chances, in order, and the words for giving each up.
_CHANCE_WORDS = (
    ("wins", 0, 1, "wins {0} fewer of the games"),
    ("gammons", 1, 1, "wins {0} fewer gammons"),
    ("backgammons", 2, 1, "wins {0} fewer backgammons"),
    ("loses_gammons", 3, -1, "loses {0} more gammons"),
    ("loses_backgammons", 4, -1, "loses {0} more backgammons"),
)


def gives_up(
    mine: tuple[float, ...], best: tuple[float, ...], best_text: str, floor: float = 0.005
) -> Reason | None:
    """What a play gives up against the best play, by the evaluator's chances for the mover
    (win, win a gammon, win a backgammon, lose a gammon, lose a backgammon); None when it
    gives up less than ``floor`` (half a percent) of each."""
    facts: dict[str, float] = {}
    words = []
    for name, index, sign, phrase in _CHANCE_WORDS:
        lost = sign * (best[index] - mine[index])
        if lost >= floor and lost > 0:
            facts[name] = round(lost, 4)
            words.append(phrase.format(f"{lost:.0%}" if lost >= 0.01 else f"{lost:.1%}"))
    if not words:
        return None
    text = f"Against {best_text}, this play " + (
        words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    )
    return Reason("gives-up", text, None, facts)
