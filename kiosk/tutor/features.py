"""What the books look at on a board, detected, and the reasons the coach gives with them.

:func:`board_features` reads one side's position the way the old books teach a player to
read it: blots and how many of the 36 rolls hit each (counted by playing every roll out),
points made (above all the five point and the bar point), men crowded on the low points,
men left behind, the race by pip count, and whether a forward or a backward game suits.

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

from kiosk.rules import Colour, Play, Position, all_rolls, generate

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

    def as_dict(self) -> dict[str, str]:
        """The citation as JSON-ready data."""
        return {"key": self.key, "book": self.book, "section": self.section}


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
    ("Fo-11", "Foster", "Suggestions for Good Play", "blots about six away are hit most"),
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

    @property
    def game_plan(self) -> str:
        """``race`` once the sides have passed, else ``forward`` ahead and ``backward`` behind."""
        if not self.contact:
            return "race"
        return "forward" if self.lead >= 0 else "backward"


def hits_by_roll(position: Position, colour: Colour) -> dict[tuple[int, int], frozenset[int]]:
    """For each of the 21 rolls, the points (``colour``'s numbering) of its blots the
    adversary can hit with some legal play of that roll."""
    attacker = colour.other
    board = position.with_turn(attacker)
    blots = {p for p in range(1, 25) if position.count(colour, p) == 1}
    answer: dict[tuple[int, int], frozenset[int]] = {}
    for d1, d2, _ways in all_rolls():
        hit: set[int] = set()
        if blots:
            for play in generate(board, d1, d2):
                hit.update(25 - s.dst for s in play.steps if s.hit and 25 - s.dst in blots)
        answer[(d1, d2)] = frozenset(hit)
    return answer


def has_contact(position: Position) -> bool:
    """Whether any man still has an adverse man ahead of it."""
    white, black = position.men
    rear_white = max((i + 1 for i, n in enumerate(white) if n), default=0)
    rear_black = max((i + 1 for i, n in enumerate(black) if n), default=0)
    # White's point p is black's point 25 - p.
    return rear_white + rear_black > 25


def board_features(position: Position, colour: Colour) -> BoardFeatures:
    """The features of ``colour``'s men in ``position`` (typically just after its play)."""
    other = colour.other
    counts = tuple(position.count(colour, p) for p in range(1, 25))
    by_roll = hits_by_roll(position, colour)
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


@dataclass(frozen=True)
class Reason:
    """One short explanation and the tactic it rests on."""

    text: str
    tactic: Tactic | None = None

    def __str__(self) -> str:
        return f"{self.text} ({self.tactic.cite()})" if self.tactic else self.text


def _blot_reasons(played: BoardFeatures, best: BoardFeatures | None) -> list[Reason]:
    reasons = []
    best_rolls = best.hit_rolls if best else None
    if played.hit_rolls and (best_rolls is None or played.hit_rolls > best_rolls):
        worst = max(played.blots, key=lambda b: b.shots)
        if played.adversary_bar and worst.point <= 6:
            tactic = TACTICS["Pa-2"]
        elif worst.shots <= 6:  # only combined dice reach it
            tactic = TACTICS["Fo-11"]
        else:
            tactic = TACTICS["C-VII"]
        text = f"Leaves a blot on {point_name(worst.point)} that {worst.shots} of the 36 rolls hit"
        if len([b for b in played.blots if b.shots]) > 1:
            text += f"; {played.hit_rolls} rolls hit one of your blots"
        if best_rolls == 0:
            text += ". The best play leaves no shot"
        elif best_rolls is not None:
            text += f". The best play leaves {best_rolls} rolls that hit"
        reasons.append(Reason(text, tactic))
    elif best is not None and best.hit_rolls > played.hit_rolls:
        reasons.append(
            Reason(
                f"Safe: {played.hit_rolls} of the 36 rolls hit you, against "
                f"{best.hit_rolls} after the best play",
                TACTICS["Ho-2"],
            )
        )
    return reasons


_KEY_POINTS = ((5, "C-I"), (7, "C-II"), (4, "C-III"), (20, "C-I"))


def _point_reasons(
    before: BoardFeatures, played: BoardFeatures, best: BoardFeatures | None
) -> list[Reason]:
    reasons = []
    for point, key in _KEY_POINTS:
        had, has = point in before.made, point in played.made
        could = best is not None and point in best.made
        name = point_name(point)
        if has and not had:
            reasons.append(Reason(f"Makes {name}", TACTICS[key]))
        elif had and not has:
            tactic = TACTICS["Cr-F7"] if before.adversary_bar and point <= 6 else TACTICS[key]
            reasons.append(Reason(f"Breaks {name}", tactic))
        elif could and not has and not had:
            reasons.append(Reason(f"Misses the chance to make {name}", TACTICS[key]))
    new_home = played.home_points - before.home_points
    if new_home > 0 and not any(r.text.startswith("Makes") for r in reasons):
        reasons.append(Reason("Makes a point in your home board", TACTICS["Ho-1"]))
    if best is not None and best.home_points > played.home_points and not reasons:
        reasons.append(Reason("The best play makes another home point", TACTICS["Ho-1"]))
    return reasons


def _men(n: int) -> str:
    return "1 man" if n == 1 else f"{n} men"


def _shape_reasons(played: BoardFeatures, best: BoardFeatures | None) -> list[Reason]:
    reasons = []
    if best is None:
        return reasons
    if played.low_men > best.low_men and played.low_men >= 5:
        reasons.append(
            Reason(
                f"Crowds {played.low_men} men onto your ace, deuce and trey points, "
                "where they are out of play",
                TACTICS["Cr-H2"],
            )
        )
    tall = [(p, n) for p, n in played.stacks if n >= 5 or (n >= 4 and p <= 3)]
    best_tall = dict(best.stacks)
    for point, men in tall:
        if best_tall.get(point, 0) < men:
            reasons.append(Reason(f"Piles {men} men on {point_name(point)}", TACTICS["C-VIII"]))
            break
    if played.contact and played.back_men > best.back_men:
        tactic = TACTICS["Cr-F4"] if played.adversary_home_points >= 2 else TACTICS["C-VI"]
        reasons.append(
            Reason(
                f"Leaves {_men(played.back_men)} back in his home board; the best play "
                f"leaves {best.back_men}",
                tactic,
            )
        )
    if played.off < best.off and not played.contact:
        reasons.append(Reason("Bears off fewer men than it could", TACTICS["Fo-10"]))
    return reasons


def _hit_reasons(play: Play, best: Play | None, played: BoardFeatures) -> list[Reason]:
    hits = sum(1 for s in play.steps if s.hit)
    best_hits = sum(1 for s in best.steps if s.hit) if best is not None else 0
    if hits:
        men = "a man" if hits == 1 else f"{hits} men"
        if played.blots and max(b.shots for b in played.blots) <= 6:
            return [
                Reason(
                    f"Hits, and only combined dice can hit back ({played.hit_rolls} rolls)",
                    TACTICS["C-X"],
                )
            ]
        return [Reason(f"Hits: sends {men} back to the bar", TACTICS["Pa-1"])]
    if best_hits and best is not None:
        return [Reason(f"Misses the hit {best}", TACTICS["Pa-1"])]
    return []


def _race_reason(played: BoardFeatures) -> Reason:
    you, him = played.pips, played.adversary_pips
    if played.lead > 0:
        standing = f"you lead the race by {played.lead} pips ({you} to {him})"
    elif played.lead < 0:
        standing = f"you trail the race by {-played.lead} pips ({you} to {him})"
    else:
        standing = f"the race is level at {you} pips"
    if played.game_plan == "race":
        return Reason(f"The men have passed: {standing}", TACTICS["Cr-H6"])
    if played.game_plan == "forward":
        return Reason(f"After the play {standing}: a forward game suits you", TACTICS["Fo-7"])
    return Reason(f"After the play {standing}: a backward game suits you", TACTICS["Fo-8"])


def explain(position: Position, play: Play, best: Play | None = None) -> list[Reason]:
    """Why ``play`` is better or worse than ``best`` in ``position``, as the books would say.

    The reasons come in order of weight: blots and shots, points made or broken, hits,
    crowding and men left behind, then the race and the game plan.
    """
    mover = position.turn
    before = board_features(position, mover)
    played = board_features(play.result, mover)
    best_features = (
        board_features(best.result, mover) if best is not None and best != play else None
    )
    reasons = _blot_reasons(played, best_features)
    reasons += _point_reasons(before, played, best_features)
    reasons += _hit_reasons(play, best if best != play else None, played)
    reasons += _shape_reasons(played, best_features)
    reasons.append(_race_reason(played))
    return reasons
