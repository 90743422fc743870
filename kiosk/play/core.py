"""The game core: the one owner of the game on the table and of the referee judging it.

Between the referee and the application: a :class:`GameCore` holds the
:class:`~kiosk.rules.Game`, its :class:`~kiosk.referee.Referee`, the cube
(:class:`~kiosk.play.cube.CubeDealer`), the table's own side
(:class:`~kiosk.play.side.TableSide`), the session of several games
(:class:`~kiosk.play.sessions.PlaySession`) and a game of another variant played while
the game waits (:mod:`kiosk.play.variants`). It is the only thing that changes them
during play — a throw, Done, a double, a take or a pass, a play taken back, a restart
after a power cut — and it publishes what happens as typed events. The application's
modes and ``kiosk scenario`` both drive it; neither touches the game or a referee.

The table is read once, at the edge: every settled frame becomes a
:class:`~kiosk.table.TableReading` (the men at each location; their colours only where
the table senses them) handed to :meth:`GameCore.sense`, which passes it to the referee of
whoever has the table (:attr:`GameCore.owner`: the game, a lesson, a Russian game, or a
replay, which judges nothing). The board as that referee judges it
(:attr:`GameCore.board`) is what the display, "press Done" and the lessons use.

The table changes hands only through :meth:`GameCore.take` (and :meth:`resume_game`, the
game taking it back). Each new owner starts from the board as the last one judged it: on
a table that senses only where men are, men nobody judges keep the colours they had when
the table was handed over, never those of the waiting game.

>>> from kiosk.table import TableLayout, project
>>> events = []
>>> core = GameCore(TableLayout(), events.append)
>>> core.new_game()
[]
>>> core.sense(TableReading.of(project(Position.standard(), core.layout), "occupancy"), 0)
>>> core.tick(400)
>>> [e.name for e in events], core.board["6"], core.board["19"]
(['setup-ok'], (5, 0), (0, 5))
>>> core.throw(3, 1)
>>> events[-1].name, events[-1].starter
('opening', <Colour.WHITE: 0>)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kiosk.events import CrawfordGame, Event, GameOver, Kind, TakeBack
from kiosk.play.cube import CubeDealer
from kiosk.play.sessions import PlaySession, with_rules
from kiosk.play.side import TableSide
from kiosk.referee import Referee, RefereeConfig
from kiosk.referee.judge import Judge
from kiosk.referee.russian import RussianReferee
from kiosk.referee.variants import variant
from kiosk.rules import Colour, Game, GameError, Phase, Position, RuleProfile, Turn, get_profile
from kiosk.rules.chouette import Chouette
from kiosk.rules.russian import RussianPosition
from kiosk.rules.session import Session
from kiosk.table import DieReading, TableLayout, TableReading
from kiosk.table.sensing import Sensed, colour_in, project, true_counts
from kiosk.tutor.opponent import Opponent

Publish = Callable[[Event], None]
LayOut = Callable[[Sensed], None]  # the men of a board laid out (a simulated table)


class TooLate(GameError):
    """A play cannot be taken back: the game has gone on."""


@dataclass(frozen=True)
class Owner:
    """Who has the table: the game (judged by its own referee), a lesson (judged by the
    referee it hosts, if any; the dice wells not its concern), a game of another variant
    (its referee), or a replay (nothing judged).

    >>> Owner(Kind.LESSON).wells, Owner(Kind.GAME).wells
    (False, True)
    """

    kind: Kind
    judge: Judge | None = None  # the game's is always the core's current referee

    @property
    def wells(self) -> bool:
        """Whether the dice thrown into the wells are the owner's throws."""
        return self.kind is not Kind.LESSON


@dataclass(frozen=True)
class CoreSettings:
    """How the core plays: the referee's timing and strictness, the rules, the dice."""

    referee: RefereeConfig = field(default_factory=RefereeConfig)
    profile: str = "modern"  # the rule profile of a game outside a session
    dice_source: str = "wells"  # wells, buttons, digital, or Bluetooth dice: pixels, godice
    think_limit: float = 2.0  # seconds the table's evaluator has before its fallback answers


class GameCore:
    """The game on the table (see the module docstring), publishing to ``publish``.

    ``lay_out`` is told every board the players are asked to lay out (a simulated table
    lays its men out itself); ``keeper`` (the store) keeps sessions.
    """

    def __init__(
        self,
        layout: TableLayout,
        publish: Publish,
        settings: CoreSettings | None = None,
        *,
        lay_out: LayOut | None = None,
        keeper: object | None = None,
    ) -> None:
        self.layout = layout
        self.settings = settings or CoreSettings()
        self._publish = publish
        self._lay_out = lay_out
        self.keeper = keeper
        self.sensing = layout.sensing
        self.now = 0
        self.reading: TableReading | None = None
        self.profile: RuleProfile = get_profile(self.settings.profile)
        self.cube = CubeDealer(self)
        self.side: TableSide | None = None
        self.session: PlaySession | None = None
        self.owner = Owner(Kind.GAME)  # who has the table
        self._given: Sensed | None = None  # the board as judged when the table changed hands
        self.game_serial = 0  # counts the games started or resumed
        self.start = Position.standard()  # where the game began (a restart replays from it)
        self.game = Game(self.profile, self.start)
        self.referee = self.make_referee(self.game, self._from_referee)
        self._dice_held = False  # dice read while the table's side decided its cube
        self._told: tuple[DieReading, DieReading] | None = None  # Bluetooth dice's last word

    # -- the table --------------------------------------------------------------------------

    def connected(self, sensing: str, again: bool) -> None:
        """The table said who it is (``sensing``: how it senses its men); ``again``: after a
        pulled cable or a restart of the table, whose board is checked against the game."""
        self.sensing = sensing
        judge = self.judge
        if again and judge is not None:
            judge.reconnected()

    def sense(self, reading: TableReading, now: int) -> None:
        """A settled reading of the table, to the active referee (and the dice wells, where
        the dice are thrown into them and the referee throws for the game)."""
        self.now = now
        self.reading = reading
        judge = self.judge
        if judge is None:
            self._given = self._unjudged(reading)  # each reading coloured from the last
            return
        judge.sense(reading, now)
        self._judge_dice(now)

    def dice(self, dice: tuple[DieReading, DieReading], now: int) -> None:
        """What dice that read themselves say (Bluetooth dice reporting their face, die 1
        first): judged as the wells' readings are, whenever they change."""
        self.now = now
        self._told = dice
        self._judge_dice(now)

    def _judge_dice(self, now: int) -> None:
        """The dice as read now, to the active referee where they are its throws (not while
        the table's side decides its cube: those count once it has decided)."""
        self._dice_held = self.holding
        judge, dice = self.judge, self.read_dice
        if judge is not None and dice is not None and self.owner.wells and not self.holding:
            judge.dice(dice, now)

    @property
    def read_dice(self) -> tuple[DieReading, DieReading] | None:
        """The dice as last read: in the wells, or as the Bluetooth dice said; ``None``
        while the dice are entered with the buttons or drawn (or not yet read)."""
        source = self.settings.dice_source
        if source == "wells":
            return self.reading.dice if self.reading is not None else None
        return None if source in ("buttons", "digital") else self._told

    @property
    def board(self) -> Sensed | None:
        """The board on the table as the owner's referee judges it (with nothing judged:
        the colours the table senses, else its counts coloured from the board as it was
        when the table changed hands)."""
        judge = self.judge
        seen = judge.seen if judge is not None else None
        if seen is not None:
            return seen
        reading = self.reading
        return self._unjudged(reading) if reading is not None else None

    def _unjudged(self, reading: TableReading) -> Sensed:
        """``reading`` as nobody judges it: its colours, or its counts coloured from the
        board last given (the game's position before the table ever changed hands)."""
        if reading.colours is not None:
            return dict(reading.colours)
        given = self._given or project(self.game.position, self.layout)
        return colour_in(reading.counts, given, self.game.turn)[0]

    @property
    def holding(self) -> bool:
        """Whether the table's side is deciding its cube: nobody throws for it yet."""
        return self.side is not None and self.side.deciding_cube

    def tick(self, now: int) -> None:
        """Time passes: the referee judges what has settled; the table's side acts on what
        it has thought (never waiting for it)."""
        self.now = now
        judge = self.judge
        if judge is not None:
            judge.tick(now)
        if self.side is not None and self.owner.kind is Kind.GAME:
            self.side.poll()
            self._release_dice()

    def _release_dice(self) -> None:
        """The table's side has decided its cube: dice thrown meanwhile count now."""
        dice = self.read_dice
        if self._dice_held and not self.holding and dice is not None:
            self._dice_held = False
            self.referee.dice(dice, self.now)

    def settle(self) -> None:
        """Wait for the table's side to finish thinking, and act on it (a script)."""
        if self.side is not None and self.owner.kind is Kind.GAME:
            self.side.settle()
            self._release_dice()

    # -- referees ---------------------------------------------------------------------------

    def make_referee(self, game: Game, emit: Publish) -> Referee:
        """A referee for ``game`` with the core's layout and settings, reporting to ``emit``."""
        return Referee(game, self.layout, self.settings.referee, emit=emit)

    @property
    def judge(self) -> Judge | None:
        """The referee the table's readings go to now (the owner's)."""
        return self.referee if self.owner.kind is Kind.GAME else self.owner.judge

    @property
    def variant(self) -> RussianReferee | None:
        """The referee of a game of another variant, while one has the table."""
        judge = self.owner.judge
        return judge if isinstance(judge, RussianReferee) else None

    def take(self, kind: Kind, judge: Judge | None = None) -> None:
        """``kind`` takes the table (judged by ``judge``, or by nobody); the game waits. It
        starts from the board as it is judged now, on either sensing; :meth:`resume_game`
        hands the table back to the game."""
        self._given = self.board
        self.owner = Owner(kind, judge)
        if judge is not None and self.reading is not None:
            judge.sense(self.reading, self.now)

    def host(self, game: Game, emit: Publish) -> Referee:
        """A referee for ``game`` (a lesson's) judges the table from the board it shows now;
        the dice wells are not its concern."""
        referee = self.make_referee(game, emit)
        self.take(Kind.LESSON, referee)
        return referee

    def host_variant(self, name: str, position: RussianPosition, emit: Publish) -> RussianReferee:
        """A referee of another variant (``russian-cady``...) for a lesson's throw from
        ``position``: it judges the table from the board it shows now, the players lay the
        position out, and the dice wells are not its concern."""
        judge = variant(name).new_game(self.layout, self.settings.referee, emit)
        judge.set_up(position)
        self.take(Kind.LESSON, judge)
        if self._lay_out is not None and judge.wanted is not None:
            self._lay_out(judge.wanted)
        return judge

    def resume_game(self) -> None:
        """The game takes the table back (after a lesson, a replay or another variant): the
        players lay its men out again, as they stood."""
        self._given = self.board
        self.owner = Owner(Kind.GAME)
        self.set_up(self.game.position, restoring=True)

    # -- a game ----------------------------------------------------------------------------

    @property
    def setting_up(self) -> bool:
        """Whether the players are laying the game's men out."""
        return self.referee.setting_up

    def new_game(
        self, position: Position | None = None, starter: Colour | None = None, set_up: bool = True
    ) -> list[str]:
        """A new game from ``position`` (the standard one by default) under the session's
        rules (no cube in a match's Crawford game) or the core's profile: laid out (unless
        ``set_up`` is false: the table is judged as it stands), then the opening throw
        (``starter``, or the session's rules, says who throws first). Returns what the
        session says before the game."""
        profile, lines = self.profile, list[str]()
        if self.session is not None and self.session.over:
            self.session = None
        if self.session is not None:
            profile, planned, lines = self.session.plan()
            starter = planned or starter
        position = position or Position.standard()
        if starter is not None:
            position = position.with_turn(starter)
        game = Game(profile, position)
        if starter is not None:
            game.start_with(starter)
        self.start = position
        self._begin(game)
        if self.session is not None and self.session.crawford:
            self.publish(CrawfordGame())
        if set_up:
            self.set_up(game.position, restoring=False)
        return lines

    def set_turn(self, colour: Colour) -> None:
        """Before the first throw: ``colour`` is the side on roll (a position set up)."""
        if self.game.turns or self.game.phase not in (Phase.OPENING, Phase.ROLL):
            raise GameError("the side on roll is chosen before the first throw only")
        self.game.set_turn(colour)

    def skip_opening(self, colour: Colour) -> None:
        """No opening throw: ``colour`` throws first (a position set up to be played on)."""
        if self.game.phase == Phase.OPENING:
            self.game.start_with(colour)

    def judge_again(self) -> None:
        """A fresh referee for the game (the settings changed), shown the table as it is."""
        target = self.referee.target
        self.referee = self.make_referee(self.game, self._from_referee)
        if target is not None:
            self.referee.set_up(target)
        self._show_table(self.referee)

    def restore(self, game: Game) -> None:
        """A game read back after a restart (a power cut): judged from where it was, the
        players asked to lay its men out as they stood (those already moved for the throw
        may stay), a double on offer still on offer."""
        if self.session is not None:  # a Crawford game is played on without the cube
            rules = self.session.plan()[0]
            if rules != game.profile:
                game = with_rules(game, rules)
        self.start = game.turns[0].before if game.turns else game.position
        self._begin(game)
        self.set_up(game.position, restoring=True, in_play=True)

    def restart(self) -> None:
        """The kiosk restarts: the game as its record keeps it (its turns, the dice thrown)
        goes on, through :meth:`restore`."""
        self.restore(with_rules(self.game, self.game.profile))

    def _begin(self, game: Game) -> None:
        self.game = game
        self.game_serial += 1
        self.owner = Owner(Kind.GAME)
        self.referee = self.make_referee(game, self._from_referee)
        self._show_table(self.referee)

    def _show_table(self, referee: Referee) -> None:
        """A new referee starts from the table as it stands, the dice as read included."""
        if self.reading is not None:
            referee.sense(self.reading, self.now)
        dice = self.read_dice
        if dice is not None:
            referee.dice(dice, self.now)

    def set_up(self, position: Position, restoring: bool, in_play: bool = False) -> None:
        """Have the players lay ``position`` out (the referee guides them); ``in_play``: a
        game resumed in the middle of a turn, whose men moved so far may stay."""
        self.referee.set_up(position, restoring=restoring, in_play=in_play)
        self._show_table(self.referee)
        if self._lay_out is not None:
            self._lay_out(true_counts(position))

    def throw(self, d1: int, d2: int) -> None:
        """Dice thrown with the buttons or digitally, for whoever is to throw."""
        judge = self.judge
        if judge is not None and not self.holding:
            judge.throw(d1, d2, self.now)

    def press_done(self, colour: Colour | None) -> None:
        """A player's Done (``None``: whoever is on roll)."""
        judge = self.judge
        if judge is not None:
            judge.press_done(colour, self.now)

    def accept(self) -> None:
        """Laws mode: the adversary lets a wrong move stand."""
        self.referee.accept()

    def choose(self, index: int) -> None:
        """The player says which of the plays the switches cannot tell apart he made."""
        self.referee.choose(index)

    def take_back(self, number: int) -> Turn:
        """Take back play ``number`` (counted from 1), the last one: the men go back and the
        same dice are played again. Raises :class:`TooLate` once the game has gone on."""
        game = self.game
        if self.setting_up or game.phase != Phase.ROLL or len(game.turns) != number:
            raise TooLate("Too late to take that play back: the game has gone on.")
        turn = game.take_back()
        self.publish(
            TakeBack(
                player=turn.colour,
                dice=turn.dice,
                move=str(turn.play),
                position=turn.before.position_id(),
                number=number,
            )
        )
        self.set_up(turn.before, restoring=True)
        return turn

    # -- events ---------------------------------------------------------------------------

    def publish(self, event: Event) -> None:
        """An event of the game, to the core's listener."""
        self._publish(event)

    def _from_referee(self, event: Event) -> None:
        if isinstance(event, GameOver):
            self.game_over(event)
        else:
            self.publish(event)

    def game_over(self, event: GameOver) -> None:
        """The game is over: counted by the session being played, then published (a
        chouette's new seating after it)."""
        session = self.session
        if session is None:
            self.publish(event)
            return
        game = self.game
        counted, session.said = session.finished(event, game.position, game.cube.value)
        self.publish(counted)
        seating = session.seating()
        if seating is not None:
            self.publish(seating)

    # -- the table's own side --------------------------------------------------------------

    def play_against(
        self,
        colour: Colour,
        opponent: Opponent,
        level: str,
        say: Callable[[str, str], None] | None = None,
        apart: bool = False,
    ) -> TableSide:
        """The table plays ``colour`` (``opponent`` at ``level``) from now on; ``apart``:
        it thinks in a process of its own (``opponent``, built from its level alone, is
        rebuilt there), so its thinking never holds up the caller's threads."""
        self.no_side()
        limit = self.settings.think_limit
        self.side = TableSide(
            self, self.cube, colour, opponent, level, time_limit=limit, say=say, apart=apart
        )
        return self.side

    def no_side(self) -> None:
        """Nobody plays for the table any more (two players at the table)."""
        if self.side is not None:
            self.side.close()
            self.side = None

    # -- sessions -------------------------------------------------------------------------

    def start_session(self, session: Session | Chouette) -> PlaySession:
        """A session of several games from now on (kept by the keeper, if there is one);
        the next :meth:`new_game` is its first game."""
        self.session = PlaySession.start(self.keeper, session)
        return self.session

    def keep_session(self, session: PlaySession | None) -> None:
        """Play on in ``session`` (one resumed after a restart), or in none."""
        self.session = session

    # -- another variant, while the game waits ---------------------------------------------

    def play_variant(self, name: str) -> RussianReferee:
        """A game of another variant (``russian-cady``...) takes the table; the game waits
        (:meth:`resume_game` brings it back). Its men are laid out for its start."""
        game = variant(name).new_game(self.layout, self.settings.referee, self._from_variant)
        self.take(Kind.RUSSIAN, game)
        if self._lay_out is not None and game.wanted is not None:
            self._lay_out(game.wanted)
        return game

    def _from_variant(self, event: Event) -> None:
        self.publish(event)  # another variant's games are not counted nor kept

    def close(self) -> None:
        """Stop the table's side (its worker and evaluator)."""
        self.no_side()
