"""Spoken messages: a queue of sentences that espeak-ng says in its own thread.

Speaking never blocks the game: ``follow(event)`` only queues a sentence, and when
the queue backs up the oldest sentences give way to the newest. Without espeak-ng
(or with speech switched off) the speaker stays silent and says why in ``problem``.
"""

from __future__ import annotations

import collections
import queue
import shutil
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.config import SpeechSection
from kiosk.events import (
    Choose,
    CoachVerdict,
    Cocked,
    CubeMoved,
    Dice,
    Event,
    GameOver,
    Illegal,
    LessonEvent,
    Message,
    Opening,
    OpponentPlayShown,
    PartToPlay,
    Setup,
    TableStatus,
    ThrowAgain,
    WrongMove,
    from_json,
)

MAX_WAITING = 3  # sentences queued before older ones are dropped
KEEP_SPOKEN = 50  # the latest sentences said, kept to look at (not every one, for months)


def sentence(event: Event | Mapping[str, Any]) -> str | None:
    """What to say for an event (or its JSON), or ``None`` for events spoken by nobody."""
    if isinstance(event, Mapping):
        event = from_json(event)
    match event:
        case Dice(player=player, dice=(d1, d2)):
            return f"{str(player).capitalize()} threw {d1} {d2}."
        case Illegal(message=m) | Cocked(message=m) | Setup(message=m) | Opening(message=m):
            return m or None
        case WrongMove(message=m) | Choose(message=m):
            return m or None
        case GameOver(winner=winner, passed=True):
            return f"{str(winner.other).capitalize()} passes: {winner} wins."
        case GameOver(winner=winner, result=result):
            return f"{str(winner).capitalize()} wins a {result} game."
        case TableStatus(status=status) if status != "connected":
            return "The table is not connected."
        case Message(text=text, speak=speak) if speak is not False:
            return text or None
        case PartToPlay(message=m):
            return m
        case ThrowAgain(player=player):
            return f"{str(player).capitalize()}, throw again."
        case CubeMoved(action="double", player=player, cube=cube):
            return f"{str(player).capitalize()} doubles to {2 * int(cube[0])}."
        case CubeMoved(action="take", player=player):
            return f"{str(player).capitalize()} takes."
        case OpponentPlayShown(move=move, text=text):
            return text or f"I play {move}."
        case LessonEvent(inner=inner) if inner is not None:
            return sentence(inner)
        case CoachVerdict(data=data) | LessonEvent(data=data):
            spoken = data.get("event") in ("coach", "lesson", "lesson-result", "lesson-end")
            if spoken and data.get("speak", True):
                return str(data.get("text", "")) or None
    return None


class Speaker:
    """Says sentences with espeak-ng in a background thread.

    ``record_dir``: write each sentence to a numbered WAV file there instead of playing
    it (to check the voice on a machine without speakers).
    """

    def __init__(
        self, config: SpeechSection, program: str = "espeak-ng", record_dir: Path | None = None
    ) -> None:
        self.config = config
        self.record_dir = record_dir
        self._program = shutil.which(program)
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.spoken: collections.deque[str] = collections.deque(maxlen=KEEP_SPOKEN)  # latest last
        self.said = 0  # how many sentences espeak-ng has said
        self.failure = ""  # why the last sentence could not be said

    @property
    def problem(self) -> str:
        """Why nothing is spoken ("" when speech works)."""
        if not self.config.enabled:
            return "speech is switched off in the configuration ([speech] enabled)"
        if self._program is None:
            return "espeak-ng is not installed (sudo apt install espeak-ng)"
        return self.failure

    def follow(self, event: Event) -> None:
        """Event-bus subscriber: queue what the event says."""
        text = sentence(event)
        if text:
            self.say(text)

    def say(self, text: str) -> None:
        """Queue a sentence; returns at once."""
        if not self.config.enabled or self._program is None:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()
        while self._queue.qsize() >= MAX_WAITING:
            try:
                self._queue.get_nowait()
                self._queue.task_done()
            except queue.Empty:
                break
        self._queue.put(text)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until every queued sentence has been said; ``False`` on timeout."""
        done = threading.Event()

        def said() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=said, daemon=True).start()
        return done.wait(timeout)

    def close(self) -> None:
        """Stop once the sentence being said is finished."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(5)
            self._thread = None

    def _run(self) -> None:
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                self._speak(text)
            finally:
                self._queue.task_done()

    def _speak(self, text: str) -> None:
        assert self._program is not None
        command = [self._program, "-v", self.config.voice, "-s", str(self.config.rate)]
        command += ["-a", str(self.config.volume)]
        if self.record_dir is not None:
            self.record_dir.mkdir(parents=True, exist_ok=True)
            command += ["-w", str(self.record_dir / f"{self.said + 1:04d}.wav")]
        try:
            result = subprocess.run(command + ["--", text], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as err:
            self.failure = f"espeak-ng failed: {err}"
            return
        errors = [
            line
            for line in result.stderr.decode(errors="replace").splitlines()
            if line.startswith("error") or "cannot" in line
        ]
        if result.returncode != 0 or errors:
            why = errors[-1] if errors else f"exit status {result.returncode}"
            self.failure = f"espeak-ng cannot play sound ({why}); check the speaker and aplay -l"
            return
        self.failure = ""
        self.said += 1
        self.spoken.append(text)
