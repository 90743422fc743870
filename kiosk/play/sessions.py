"""Sessions of several games: a match, a money session, a rubber, a set or a chouette.

A :class:`PlaySession` holds one session (:class:`kiosk.rules.session.Session` or
:class:`kiosk.rules.chouette.Chouette`) and its match row in the store. Before each game it
gives the game's rules (no cube in the Crawford game), who throws first, the players' names
and what to say (the score, the Crawford game, gammons that cannot matter, who plays whom in
a chouette); after each game it counts the result into the ``game-over`` event (the
session's ``score``, a match's ``match_over``, the ``points`` the session counts), saves
the session at once (so a power cut loses nothing) and says the new score.
:meth:`PlaySession.shown` is the score band's event. The application and ``kiosk
scenario`` both hold their session in this class, through :class:`~kiosk.play.GameCore`.

>>> from kiosk.events import GameOver
>>> from kiosk.rules import Position, WHITE
>>> table = PlaySession(None, Session.match(3, players=("Ann", "Bob")))
>>> rules, starter, lines = table.plan()
>>> rules.doubling, starter, lines[0]
(True, None, 'Match to 3: Ann 0, Bob 0.')
>>> over = GameOver(winner=WHITE, result="gammon", points=2)
>>> counted, said = table.finished(over, Position.standard(), cube=1)
>>> counted.score, counted.match_over, said[:2]
((2, 0), False, ['Ann wins a gammon game.', 'Match to 3: Ann 2, Bob 0.'])
>>> table.plan()[0].doubling, table.shown().crawford
(False, True)
"""

from __future__ import annotations

import random
from dataclasses import replace

from kiosk.events import MISSING, ChouetteSeating, GameOver, SessionShown
from kiosk.rules import WHITE, Colour, Game, Phase, Position, Result, RuleProfile
from kiosk.rules.chouette import Chouette, ChouetteError, ThrowOff
from kiosk.rules.met import kazaross_xg2
from kiosk.rules.session import Kind, Session, SessionError
from kiosk.rules.stranded import StrandedCount
from kiosk.store.sessions import keep_session, resume_session, start_session
from kiosk.table.sensing import location


class PlaySession:
    """One session played at the table, kept in ``store`` (``None``: not saved)."""

    def __init__(
        self, store: object | None, session: Session | Chouette, match_id: int | None = None
    ) -> None:
        self.store = store
        self.session = session
        self.match_id = match_id
        self.crawford = False  # the game being played is the Crawford game
        self.stranded: StrandedCount | None = None  # the last game's count, zone by zone
        self.loser: Colour | None = None  # whose men the count was made under
        self.declines: list[str] = []  # a chouette's partners declining the box's double
        self.said: list[str] = []  # what was said when the last game was counted

    @classmethod
    def start(cls, store: object | None, session: Session | Chouette) -> PlaySession:
        """A new session, its match row opened in the store (if there is one)."""
        match_id = None
        if store is not None:
            match_id, session = start_session(store, session)  # type: ignore[arg-type]
        return cls(store, session, match_id)

    @classmethod
    def resume(cls, store: object, last_match: int | None) -> PlaySession | None:
        """The session still going on whose match the last game played here belongs to."""
        kept = resume_session(store)  # type: ignore[arg-type]
        if kept is None or kept[0] != last_match:
            return None
        return cls(store, kept[1], kept[0])

    @property
    def over(self) -> bool:
        """Whether the session has been decided (a chouette goes on until it is left)."""
        return isinstance(self.session, Session) and self.session.over

    @property
    def length(self) -> int:
        """The match length (0: not a match)."""
        s = self.session
        return s.length if isinstance(s, Session) and s.kind == Kind.MATCH else 0

    @property
    def profile(self) -> RuleProfile:
        """The rules the session is played under."""
        return self.session.profile

    def players(self) -> tuple[str, str]:
        """White's and black's players by name (a chouette: the box and the captain)."""
        s = self.session
        if isinstance(s, Chouette):
            box, captain = s.box, s.captain
            return (box, captain) if s.box_colour == WHITE else (captain, box)
        return s.players

    # -- before a game ---------------------------------------------------------------------

    def plan(self) -> tuple[RuleProfile, Colour | None, list[str]]:
        """The next game's rules, who throws first (``None``: the opening throw decides),
        and what the screen says before it."""
        s = self.session
        self.stranded, self.loser, self.crawford = None, None, False
        if isinstance(s, Chouette):
            return s.profile, None, [s.who_plays(), *s.seating()]
        lines = s.notes()
        if s.over:
            return s.profile, None, lines
        plan = s.next_game()
        self.crawford = plan.crawford
        rules = s.profile if plan.doubling else s.profile.replace(doubling=False)
        return rules, plan.starter, lines

    # -- after a game ----------------------------------------------------------------------

    def finished(self, over: GameOver, position: Position, cube: int) -> tuple[GameOver, list[str]]:
        """Count a finished game and save the session: the ``game-over`` event with the
        session's count in it, and what is said (the result, the new score)."""
        s = self.session
        winner, result = over.winner, Result(over.result)
        passed = over.passed is not MISSING and bool(over.passed)
        name = dict(zip((WHITE, WHITE.other), self.players(), strict=True))[winner]
        name = name[:1].upper() + name[1:]
        won = f"{name} wins: the double was passed." if passed else f"{name} wins a {result} game."
        try:
            if isinstance(s, Chouette):
                paid = {} if passed else s.finish(winner, result)
                lines = [", ".join(f"{n} {v:+d}" for n, v in paid.items())] if paid else []
                lines += [s.who_plays(), *s.seating()]
                counted = replace(over, score=tuple(s.score))
            else:
                if s.over:  # a session already decided counts no more games
                    return over, [won]
                if s.scoring.option is not None and not passed:
                    self.stranded = s.count_stranded(position, winner.other, result)
                    self.loser = winner.other
                s.record(winner, result, cube, position=position, passed=passed)
                self.crawford = not s.over and s.next_game().crawford  # the next game's
                lines = s.notes()
                if self.stranded is not None:
                    lines.insert(0, "Stranded men: " + "; ".join(self.stranded.lines()) + ".")
                fields = s.game_over_fields()
                if fields.get("match_over"):  # the match's end said on the line, not the detail
                    mine, theirs = sorted(fields["score"], reverse=True)
                    how = ": the double was passed." if passed else f" with a {result} game."
                    won = f"{name} wins the match {mine}-{theirs}{how}"
                counted = replace(
                    over,
                    points=s.games[-1].points,
                    score=tuple(fields["score"]),
                    match_over=fields.get("match_over", MISSING),
                )
        except (SessionError, ChouetteError, ValueError) as err:
            return over, [won, f"This game cannot be counted in the session: {err}"]
        self.keep()
        return counted, [won, *lines]

    def cube_answered(self, doubler: Colour, take: bool) -> None:
        """A double taken or passed, as a chouette counts it at once (the partners who
        declined the box's double by themselves, in :attr:`declines`, settle now)."""
        s = self.session
        if not isinstance(s, Chouette):
            return
        try:
            if doubler == s.box_colour:
                s.box_doubles(self.declines, captain_takes=take)
            else:
                s.partners_double(box_takes=take)
        finally:
            self.declines = []
        self.keep()

    def decline(self, name: str) -> None:
        """A partner declines the box's double by himself, before the captain answers."""
        if name not in self.may_decline():
            raise SessionError(f"{name} is not a partner who may decline the box's double")
        self.declines.append(name)

    def may_decline(self) -> list[str]:
        """The partners who may still decline the box's double by themselves."""
        s = self.session
        if not isinstance(s, Chouette):
            return []
        return [p for p in s.partners[1:] if s.shares.get(p) and p not in self.declines]

    def keep(self) -> None:
        """Save the session's state now."""
        if self.store is not None and self.match_id is not None:
            keep_session(self.store, self.match_id, self.session)  # type: ignore[arg-type]

    # -- what the display shows ------------------------------------------------------------

    def seating(self) -> ChouetteSeating | None:
        """A chouette's seats after the throw-off or a game (None for other sessions)."""
        s = self.session
        if not isinstance(s, Chouette):
            return None
        return ChouetteSeating(box=s.box, captain=s.captain, order=tuple(s.order))

    def shown(self) -> SessionShown:
        """The score band's line: the kind, the score, the Crawford game, the chances."""
        s = self.session
        if isinstance(s, Chouette):
            return SessionShown(
                kind="chouette",
                title=f"Chouette of {len(s.players)}",
                score=tuple(s.score),
                names=tuple(s.players),
                order=tuple(s.order),
            )
        titles = {
            Kind.MATCH: f"Match to {s.length}",
            Kind.MONEY: s.title,
            Kind.RUBBER: "Rubber (Hoffmann)",
            Kind.SET: "Set (Cady)",
        }
        chances, source, length = MISSING, MISSING, MISSING
        if s.kind == Kind.MATCH:
            chances, source = s.equity(), kazaross_xg2().name.split(" 25")[0]
            length = s.length
        return SessionShown(
            kind=s.kind.value,
            title=titles[s.kind],
            score=s.tally if s.kind == Kind.MONEY else s.score,
            names=s.players,
            length=length,
            crawford=self.crawford,
            chances=chances,
            source=source,
            stranded=self._stranded(),
        )

    def _stranded(self) -> tuple[tuple[str, int, int], ...]:
        """The last game's stranded count under the loser's men, zone by zone."""
        if self.stranded is None or self.loser is None:
            return ()
        out = []
        for zone in self.stranded.zones:
            if zone.men:
                out.append((location(self.loser, zone.held[0]), zone.men, zone.each))
        return tuple(out)


def with_rules(game: Game, rules: RuleProfile) -> Game:
    """``game`` played so far under other rules (a Crawford game resumed after a restart:
    the store keeps the profile's name, not the cube switched off)."""
    start = game.turns[0].before if game.turns else game.position
    again = Game(rules, start)
    if not game.turns and game.phase == Phase.ROLL:
        again.start_with(game.turn)
    for turn in game.turns:
        again.record_play(turn.colour, turn.dice, turn.play)
    if game.phase == Phase.PLAY and game.dice is not None:
        again.record_throw(game.turn, game.dice)
    return again


def throw_off(names: list[str], rng: random.Random | None = None) -> tuple[ThrowOff, str]:
    """A chouette's throw-off thrown for the players (ties throw again among themselves):
    the finished throw-off and the throws in words.

    >>> throws, said = throw_off(["Ann", "Bob", "Cy"], random.Random(3))
    >>> throws.order, said
    (['Cy', 'Bob', 'Ann'], 'Ann 2, Bob 5, Cy 5; again: Bob 2, Cy 3')
    """
    rng = rng or random.Random()
    throws = ThrowOff(names)
    rounds: list[str] = []
    while not throws.done:
        thrown = []
        for name in throws.pending:
            die = rng.randint(1, 6)
            throws.throw(name, die)
            thrown.append(f"{name} {die}")
        rounds.append(", ".join(thrown))
    return throws, "; again: ".join(rounds)
