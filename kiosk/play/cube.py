"""The doubling cube at the table: a double offered, taken, passed, or declined by a partner.

:class:`CubeDealer` is the one place the cube changes during play, for the application's
menus and buttons, for the table's own side and for ``kiosk scenario`` alike. Each change
is a :class:`~kiosk.events.CubeMoved` event; a pass ends the game (``game-over`` with
``"passed": true``, counted by the session being played); a chouette settles a double at
once (Parker), the partners who declined it by themselves first.
"""

from __future__ import annotations

from kiosk.errors import TableError
from kiosk.events import CubeMoved, GameOver
from kiosk.play.holder import Holder
from kiosk.rules import CubeAction, Game, GameError, Phase
from kiosk.rules.chouette import ChouetteError
from kiosk.rules.session import SessionError


class CubeError(TableError, ValueError):
    """A cube action that cannot be taken now; the message says why, in words."""


def cube_json(game: Game) -> tuple[int, str | None]:
    """The cube as events carry it: (value, owner or None)."""
    owner = game.cube.owner
    return (game.cube.value, None if owner is None else str(owner))


class CubeDealer:
    """The cube of the game ``core`` holds."""

    def __init__(self, core: Holder) -> None:
        self.core = core

    @property
    def may_double(self) -> bool:
        """Whether the player on roll may offer a double now."""
        core = self.core
        return not core.setting_up and CubeAction.DOUBLE in core.game.legal_cube_actions()

    def double(self) -> None:
        """The player on roll doubles; raises :class:`CubeError` if the rules do not allow it."""
        core = self.core
        game = core.game
        if core.setting_up:
            raise CubeError("no double now: lay the men out first")
        try:
            game.double()
        except GameError as err:
            if core.session is not None and core.session.crawford:
                raise CubeError(
                    "no double now: the Crawford game is played without the cube"
                ) from None
            raise CubeError(f"no double now: {err}") from None
        core.publish(CubeMoved(action="double", player=game.turn, cube=cube_json(game)))

    def answer(self, take: bool) -> None:
        """The side not on roll takes the double (and owns the cube) or passes (and loses
        the game at the cube's value); raises :class:`CubeError` with no double on offer."""
        core = self.core
        game = core.game
        if game.phase != Phase.DOUBLE_OFFERED:
            raise CubeError("no double is on offer")
        doubler, taker = game.turn, game.turn.other
        if core.session is not None:
            try:
                core.session.cube_answered(doubler, take)
            except (SessionError, ChouetteError) as err:
                raise CubeError(str(err)) from None
        if take:
            game.take()
            core.publish(CubeMoved(action="take", player=taker, cube=cube_json(game)))
            return
        game.pass_()
        core.publish(CubeMoved(action="pass", player=taker, cube=cube_json(game)))
        core.game_over(
            GameOver(winner=doubler, result="single", points=game.cube.value, passed=True)
        )

    def decline(self, partner: str) -> None:
        """A chouette's partner declines the box's double by himself, before the captain
        answers; raises :class:`CubeError` where that cannot be."""
        core = self.core
        if core.game.phase != Phase.DOUBLE_OFFERED:
            raise CubeError("no double is on offer")
        if core.session is None:
            raise CubeError("a partner declines the box's double in a chouette only")
        try:
            core.session.decline(partner)
        except SessionError as err:
            raise CubeError(str(err)) from None
