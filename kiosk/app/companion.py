"""The class companion at the table: :class:`AppTable` is the
:class:`~kiosk.companion.control.TableControl` over today's :class:`~kiosk.app.main.App`,
and :class:`Companion` is what the application holds while the companion is on.

The companion's web server runs on its own thread (:mod:`kiosk.companion.server`). The app
hands it every event from its bus (the subscriber only queues them) and, once a turn of its
loop, runs the commands the teacher's page sent (:meth:`Companion.poll`): a lesson at a
step, a position to lay out with its dice, the class's game against the teacher.

A class is somebody at the table: while a class is open, and whenever the teacher acts on
the teacher's page, the table's idle clock starts again, so it neither invites visitors nor
warns that the game will be put away over the class's game; the teacher's page says when
the table would.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kiosk.app.coaching import CoachOnFirstUse, coach_config
from kiosk.app.modes.attract import WARN_MS, AttractMode
from kiosk.companion.control import Candidate, Ranking
from kiosk.companion.health import COUNTERS
from kiosk.companion.server import CompanionError, CompanionServer
from kiosk.config import HintBudget
from kiosk.display.view import play_arrows
from kiosk.events import Event
from kiosk.rules import Colour, Position
from kiosk.store.store import log_files

if TYPE_CHECKING:
    from kiosk.app.modes import Host as App  # kiosk.app.main.App, which holds the companion
    from kiosk.referee import Referee

log = logging.getLogger(__name__)


class AppTable:
    """The table as the companion steers it (see :class:`~kiosk.companion.control.TableControl`)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.started = time.monotonic()
        # the best plays, rated by a coach set up as the table's own (made when first asked)
        self._coach = CoachOnFirstUse(coach_config(app.config.tutor), app.config.rules.profile)
        self._pending: tuple[Referee, tuple[int, int]] | None = None  # dice after the set-up
        self._findings = _commissioning(app)

    # -- commands (the loop's thread) --------------------------------------------------------

    def start_lesson(self, lesson_id: str, step: int | None, learner: str) -> str | None:
        """The lesson on the table for ``learner`` (its progress kept under that name)."""
        app = self.app
        engine = app.lesson
        if engine is None or engine.lesson.id != lesson_id or engine.slot != learner:
            app.start_lesson(lesson_id, learner)
            engine = app.lesson
            if engine is None or engine.lesson.id != lesson_id:
                return "That lesson could not be started: the table's screen says why."
        if step is not None:
            try:
                engine.go_to(step)
            except ValueError as err:
                return str(err)
        return None

    def set_learner_hints(self, learner: str, hints: str | None) -> str | None:
        """Keep ``learner``'s own hint budget (None: as the table is set), as the learner
        may in the Lessons menu (:class:`kiosk.app.learners.Learners`)."""
        budget = None if hints is None else HintBudget.parse(hints)
        return self.app.learners.set_hints(learner, budget)

    def leave_lesson(self) -> str | None:
        """Leave the lesson as its Menu button does (progress kept; the Lessons menu shows)."""
        engine = self.app.lesson
        if engine is None:
            return "No lesson is on the table."
        engine.on_event({"event": "button", "name": "menu"})
        return None

    def show_position(self, position: Position, dice: tuple[int, int]) -> str | None:
        """A new game from ``position`` with the coach on; ``dice`` are thrown for the side on
        roll once the men are laid out."""
        app = self.app
        app.core.no_side()
        app.core.keep_session(None)
        app.new_game(position, tutor=True)
        app.core.skip_opening(position.turn)
        self._pending = (app.core.referee, dice)
        return None

    def class_game(self, class_side: Colour) -> str | None:
        """A new game with the coach on (the companion knows which side the class plays)."""
        app = self.app
        app.play_friends(tutor=True)
        return None

    def throw_when_set(self) -> None:
        """Throw a position's dice once its men are laid out (a turn of the loop)."""
        if self._pending is None:
            return
        referee, (d1, d2) = self._pending
        app = self.app
        if app.core.referee is not referee or app.lesson is not None:
            self._pending = None  # another game or a lesson took the table
        elif not app.core.setting_up:
            self._pending = None
            app.core.throw(d1, d2)

    def present(self) -> None:
        """Somebody is with the table though no button is pressed (the class, its teacher):
        the idle clock starts again; the invitation or a warning goes (nothing opens)."""
        self.app.transitions.present()

    def awake(self, class_open: bool) -> str:
        """When the table would invite visitors or warn about the game on it, in words for
        the teacher."""
        app = self.app
        settings = app.config.display
        idle_ms, abandon_ms = settings.invite_after_s * 1000, settings.put_away_after_s * 1000
        if class_open:
            return (
                "The class is open: the table stays awake. With the class ended it invites "
                f"visitors after {_minutes(idle_ms)} with nobody at it or acting here."
            )
        idle = app.now - app.idle_since
        if app.modes.find(AttractMode) is not None:
            return (
                "The table is inviting visitors: nobody has touched it or acted here for "
                f"{_minutes(idle)}. Anything you do here wakes it."
            )
        words = f"The table invites visitors in {_minutes(idle_ms - idle)}"
        if app.worth_keeping():
            words += f" and puts the game away in {_minutes(abandon_ms - idle + WARN_MS)}"
        return words + " unless somebody touches it or acts here (or you open a class)."

    # -- questions (the companion's worker thread) ------------------------------------------

    def ranked_plays(self, position: Position, dice: tuple[int, int], count: int) -> Ranking:
        """The best plays of ``dice``, rated by a coach set up as the table's own."""
        coach = self._coach.made()
        ratings = coach.ranked(position, dice, count)
        d1, d2 = dice
        candidates = []
        for rating in ratings:
            play = position.parse_play(d1, d2, rating.move, coach.profile)
            candidates.append(
                Candidate(
                    move=rating.move,
                    equity=rating.equity,
                    loss=rating.equity_loss,
                    rating=rating.rating,
                    reasons=tuple(rating.reasons),
                    arrows=play_arrows(play, position.turn),
                )
            )
        judge = ratings[0].evaluator if ratings else "rules"
        legal = sorted({str(p) for p in position.legal_plays(d1, d2, coach.profile)})
        return Ranking(tuple(candidates), judge, tuple(legal))

    def health(self) -> dict[str, Any]:
        """The facts of the health page."""
        app = self.app
        link = app.link
        info = link.info
        counters = link.counters()
        facts: dict[str, Any] = {
            "link": {
                "connected": link.connected,
                "simulated": app.simulator is not None,
                "port": str(getattr(link, "port", "") or ""),
            },
            "counters": {name: getattr(counters, name) for name in COUNTERS},
            "table_counters": dict(counters.table),
            "commissioning": self._findings,
            "uptime_s": time.monotonic() - self.started,
        }
        if info is not None:
            facts["firmware"] = {
                "version": info.firmware,
                "protocol": info.protocol,
                "runtime": info.runtime,
                "board_id": info.board_id,
                "reset_cause": info.reset_cause,
                "sensing": info.layout.sensing,
            }
        store = app.store
        database: dict[str, Any] = {"ok": store is not None, "problem": app.store_problem}
        if store is not None:
            path = store.path
            wal, _index = log_files(path)
            database["bytes"] = sum(p.stat().st_size for p in (path, wal) if p.exists())
            facts["disk_free_bytes"] = shutil.disk_usage(path.parent).free
            midnight = (
                datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
            )
            try:
                games, lessons = store.activity_since(midnight.astimezone(UTC).isoformat())
                facts["games_today"], facts["lessons_today"] = games, lessons
            except Exception as err:  # the store says what is wrong in words
                database["ok"], database["problem"] = False, str(err)
        facts["database"] = database
        speaker, speech = app.speaker, app.config.speech
        problem = speaker.problem if speaker is not None else "no speech engine"
        facts["speech"] = {
            "enabled": speech.enabled,
            "problem": problem if speech.enabled else "",
            "ok": not speech.enabled or not problem,
        }
        return facts

    def close(self) -> None:
        """Release the ranking coach's evaluator."""
        self._coach.close()


class Companion:
    """The companion of one table: its web server while it is on, and the table it steers."""

    def __init__(
        self, app: App, table: AppTable, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.app = app
        self.table = table
        self.clock = clock
        self.server: CompanionServer | None = None
        self._acted = 0  # the teacher's actions seen so far

    def start(self) -> str:
        """Start the web server; its address (:class:`CompanionError` in words if it cannot).
        Started again, it is the one already serving: one server a table."""
        if self.server is not None:
            return self.server.url
        server = CompanionServer(
            self.app.config.companion, self.table, store=self.app.store, clock=self.clock
        )
        url = server.start()
        self.server = server
        log.info("the class companion is at %s (the teacher: %s/teacher)", url, url)
        return url

    def follow(self, event: Event) -> None:
        """The bus's subscriber: the event is queued for the server, nothing more."""
        server = self.server
        if server is not None:
            server.follow(event)

    def poll(self) -> None:
        """A turn of the loop: run the teacher's commands, throw a laid-out position's dice."""
        server = self.server
        if server is None:
            return
        ran = server.commands.run(self.table)
        self.table.throw_when_set()
        class_open = bool(server.room.join.class_id)
        if ran or class_open or server.acted != self._acted:
            self._acted = server.acted
            self.table.present()
        words = self.table.awake(class_open)
        if words != server.room.awake:
            server.room.awake = words
            server.touch()

    def close(self) -> None:
        """Stop the server (the table goes on)."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()
        self.table.close()


def attach(app: App, clock: Callable[[], float] = time.monotonic) -> Companion | None:
    """Start the companion if ``[companion] enabled`` (a problem is said on the screen too);
    None when it is off or cannot listen. ``clock`` is the companion's (seconds)."""
    if not app.config.companion.enabled:
        return None
    return _started(app, clock)


def _started(app: App, clock: Callable[[], float] = time.monotonic) -> Companion | None:
    companion = app.companion or Companion(app, AppTable(app), clock)
    try:
        companion.start()
    except CompanionError as err:
        log.error("companion: %s", err)
        app.say("both", f"The class companion is off: {err}", warning=True)
        return None
    if app.companion is None:
        app.companion = companion
        app.bus.subscribe(companion.follow)
    return companion


def switch(app: App) -> str:
    """The installer's settings: the companion on or off (saved with the settings)."""
    settings = app.config.companion
    companion = app.companion
    if companion is not None and companion.server is not None:
        companion.close()
        settings.enabled = False
        return "The class companion is off."
    if not settings.teacher_pin:
        return "Set [companion] teacher_pin in the configuration file first."
    started = _started(app)
    if started is None or started.server is None:
        return "The class companion could not start: the table's log says why."
    settings.enabled = True
    return f"The class companion is on: {started.server.url}"


def _commissioning(app: App) -> list[str]:
    """The slots ``kiosk commission`` left out, in words (read once)."""
    from kiosk.display.calibration import calibration_path
    from kiosk.link.commission import commission_path, load

    try:
        if app.config_file is None and not app.config.display.calibration:
            return []
        cal = app.config.display.calibration or calibration_path(app.config_file)
        findings = load(commission_path(cal))
    except (OSError, ValueError) as err:
        return [str(err)]
    return [f"{f.step.name()} ({f.reason})" if f.reason else f.step.name() for f in findings]


def _minutes(ms: int) -> str:
    """A time in whole minutes (at least one), as the teacher's page says it."""
    minutes = max(1, -(-ms // 60_000))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
