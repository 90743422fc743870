"""Sessions of several games in a scripted run: matches, money with stranded-men scoring,
rubbers and sets (:class:`kiosk.rules.session.Session`), as ``kiosk scenario`` plays them.

The runner asks :class:`ScriptSession` how each new game is played (the Crawford game
without the cube, who throws first), and hands it every ``game-over`` event, which comes
back with the session's ``score`` (``[white, black]``), ``match_over`` in a match, and the
``points`` the session counts (under stranded-men scoring, the count by that option).

A chouette (Parker) of N players starts with a throw-off, one die a player; the box plays
white, the captain black. Its ``game-over`` events carry ``score``, each player's tally in
the order they were entered, and ``{"event": "chouette", "box", "captain", "order"}``
follows each seating (after the throw-off and after each game's rotation).
"""

from __future__ import annotations

from kiosk.events import ChouetteSeating
from kiosk.rules import Colour, Position, Result, RuleProfile
from kiosk.rules.chouette import Chouette, ChouetteError, ThrowOff, player_names
from kiosk.rules.session import Kind, Scoring, Session, SessionError

SCORINGS = tuple(s.value for s in Scoring)


class ScriptSession:
    """The session a script plays, if any, and its scoring options."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.scoring = Scoring.GAMES
        self.multiply = False
        self.crawford = False  # the game being played is the Crawford game
        self.throw_off: ThrowOff | None = None
        self.chouette: Chouette | None = None
        self.declines: list[str] = []  # partners declining the box's double on offer

    def match(self, length: int, profile: RuleProfile) -> None:
        """A match to ``length`` points from 0-0."""
        if length < 1:
            raise SessionError(f"a match is played to 1 point or more, not {length}")
        self.session = Session.match(length, profile)

    def kind(self, kind: str, profile: RuleProfile) -> None:
        """A rubber (Hoffmann) or a set (Cady) from 0-0."""
        self.session = Session.rubber(profile) if kind == "rubber" else Session.set(profile)

    def start_chouette(self, players: int) -> None:
        """A chouette of ``players`` (3 to 8): the throw-off comes first."""
        if not 3 <= players <= 8:
            raise SessionError(f"a chouette has 3 to 8 players, not {players}")
        self.session, self.chouette = None, None
        self.throw_off = ThrowOff(player_names(players))

    def throw(self, player: int, die: int, profile: RuleProfile) -> dict | None:
        """One player's die in the throw-off; the seating event once it is done."""
        if self.throw_off is None:
            raise SessionError("throw P D is the throw-off of a chouette: chouette N first")
        try:
            self.throw_off.throw(player, die)
        except (ChouetteError, ValueError) as err:
            raise SessionError(str(err)) from None
        if not self.throw_off.done:
            return None
        self.chouette = Chouette.seated(self.throw_off, profile=profile)
        self.throw_off = None
        return self.seating()

    def seating(self) -> dict:
        """Who is in the box, who is captain, and the order of the others."""
        assert self.chouette is not None
        c = self.chouette
        return ChouetteSeating(box=c.box, captain=c.captain, order=tuple(c.order)).to_json()

    def decline(self, player: int) -> None:
        """A partner declines the box's double by himself (before the captain's answer)."""
        if self.chouette is None:
            raise SessionError("a partner declines the box's double in a chouette only")
        players = self.chouette.players
        name = players[player - 1] if 1 <= player <= len(players) else ""
        if name not in self.chouette.partners or name == self.chouette.captain:
            raise SessionError(f"player {player} is not a partner who may decline by himself")
        self.declines.append(name)

    def cube_answered(self, doubler: Colour, take: bool) -> None:
        """A double taken or passed, as the chouette counts it (the box plays white)."""
        c = self.chouette
        if c is None:
            return
        try:
            if doubler == c.box_colour:
                c.box_doubles(self.declines, captain_takes=take)
            else:
                c.partners_double(box_takes=take)
        except ChouetteError as err:
            raise SessionError(str(err)) from None
        finally:
            self.declines = []

    def set_scoring(self, word: str, profile: RuleProfile) -> None:
        """``games`` or Parker's ``stranded1``-``stranded3``; stranded men score a money
        session (a match, a rubber and a set are counted in games)."""
        if word not in SCORINGS:
            raise SessionError(f"scoring is one of {', '.join(SCORINGS)}, not {word!r}")
        self.scoring = Scoring(word)
        session = self.session
        if session is not None and session.kind != Kind.MONEY and self.scoring != Scoring.GAMES:
            raise SessionError(f"a {session.kind.value} is counted in games, not by stranded men")
        if session is None or session.kind == Kind.MONEY:
            self.session = Session.money(
                profile, scoring=self.scoring, stranded_multiply=self.multiply
            )

    def set_multiply(self, on: bool) -> None:
        """Stranded-men counts doubled for a gammon and tripled for a backgammon, or not."""
        self.multiply = on
        if self.session is not None:
            self.session.stranded_multiply = on

    def next_game(self, profile: RuleProfile) -> tuple[RuleProfile, Colour | None]:
        """The rules of the next game (no cube in the Crawford game) and who throws first
        (``None``: the opening throw decides)."""
        self.crawford = False
        if self.session is None or self.session.over:
            return profile, None
        plan = self.session.next_game()
        self.crawford = plan.crawford
        if plan.doubling or not profile.doubling:
            return profile, plan.starter
        return profile.replace(doubling=False), plan.starter

    def game_over(self, event: dict, position: Position, cube: int) -> dict:
        """A ``game-over`` event with the session's count and score added."""
        if self.chouette is not None:
            if not event.get("passed"):  # a pass was settled when it was answered
                self.chouette.finish(event["winner"], Result(event["result"]))
            return {**event, "score": list(self.chouette.score)}
        session = self.session
        if session is None or session.over:
            return event
        session.record(
            event["winner"],
            Result(event["result"]),
            cube,
            position=position,
            passed=bool(event.get("passed")),
        )
        return {**event, "points": session.games[-1].points, **session.game_over_fields()}
