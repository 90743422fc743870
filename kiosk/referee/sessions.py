"""Sessions of several games in a scripted run: matches, money with stranded-men scoring,
rubbers and sets (:class:`kiosk.rules.session.Session`), as ``kiosk scenario`` plays them.

The runner asks :class:`ScriptSession` how each new game is played (the Crawford game
without the cube, who throws first), and hands it every ``game-over`` event, which comes
back with the session's ``score`` (``[white, black]``), ``match_over`` in a match, and the
``points`` the session counts (under stranded-men scoring, the count by that option).
"""

from __future__ import annotations

from kiosk.rules import Colour, Position, Result, RuleProfile
from kiosk.rules.session import Kind, Scoring, Session, SessionError

SCORINGS = tuple(s.value for s in Scoring)


class ScriptSession:
    """The session a script plays, if any, and its scoring options."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.scoring = Scoring.GAMES
        self.multiply = False
        self.crawford = False  # the game being played is the Crawford game

    def match(self, length: int, profile: RuleProfile) -> None:
        """A match to ``length`` points from 0-0."""
        if length < 1:
            raise SessionError(f"a match is played to 1 point or more, not {length}")
        self.session = Session.match(length, profile)

    def kind(self, kind: str, profile: RuleProfile) -> None:
        """A rubber (Hoffmann) or a set (Cady) from 0-0."""
        self.session = Session.rubber(profile) if kind == "rubber" else Session.set(profile)

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
