"""GNU Backgammon as a separate program, asked over its external-player socket.

Where the ``gnubg-nn`` wheel does not install (the Raspberry Pi among them), Debian's
``gnubg`` package does. One ``gnubg -t -q`` process is started and told ``external PATH``;
it then listens on a Unix socket at PATH and answers one line for each line it is sent.
PATH lies in a folder of the kiosk's own that only its user may enter (``0700``, made
afresh for each process), so no other user can reach gnubg or take its place (a TCP port
on localhost could be reached by any user of the machine, and taken between finding it
free and gnubg binding it). This module speaks its versioned interface (``version`` answers
``Interface: 2`` in GNU Backgammon 1.07):

* ``evaluation fibsboard board:...:... plies N cubeless`` answers the five outputs and the
  equity of the FIBS board line's position for the side on roll;
* ``board:...`` (a FIBS board line with dice) answers GNU Backgammon's move.

Nothing is read from gnubg's text console. The process stays up across ratings, is
started again if it dies, and every answer has a time limit.

>>> from kiosk.rules import Position
>>> fibs_board(Position.standard(), (3, 1))[:62]
'board:coach:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3'
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from typing import Any, TextIO

from kiosk.rules import Position
from kiosk.tutor.evaluators import EvaluatorError, PlyEvaluator
from kiosk.tutor.evaluators.gnubg_nn import tan_board

#: Where Debian installs the program.
GNUBG_PATHS = ("/usr/games/gnubg", "/usr/bin/gnubg")


def find_program() -> str | None:
    """The path of the ``gnubg`` program, if one is installed."""
    for path in GNUBG_PATHS:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("gnubg")


def fibs_board(position: Position, dice: tuple[int, int] = (0, 0)) -> str:
    """The FIBS ``board:`` line for ``position`` from the side on roll, money play, cube 1.

    Laid out as GNU Backgammon writes one (its ``FIBSBoard``): the side on roll moves
    from 24 down to 1 with positive counts, the adversary's men negative.
    """
    opp, me = tan_board(position)
    fields = ["board", "coach", "gnubg", "0", "0", "0", str(-opp[24])]
    for i in range(24):
        theirs = opp[23 - i]
        fields.append(str(-theirs if theirs else me[i]))
    fields.append(str(me[24]))
    fields.append("1")  # the side on roll is "you"
    d1, d2 = dice
    fields += [str(d1), str(d2), str(d1), str(d2)]
    fields += ["1", "1", "1", "0"]  # cube 1, both may double, not doubled
    fields += ["1", "-1", "0", "25"]  # colour, direction, home, bar
    fields += [str(position.off[position.turn]), str(position.off[position.turn.other])]
    fields += ["0", "0", "0", "0", "0", "0"]
    return ":".join(fields)


def evaluation_request(position: Position, plies: int) -> str:
    """The line that asks gnubg for the cubeless outputs of ``position`` (side on roll) at
    ``plies``: it answers the five chances and the equity."""
    return f"evaluation fibsboard {fibs_board(position)} plies {plies} cubeless"


class _ConnectionLost(EvaluatorError):
    """The socket to gnubg closed or broke (gnubg has probably died)."""


def private_socket_path() -> str:
    """A path for gnubg's socket in a new folder only this user may enter (``0700``),
    under ``$XDG_RUNTIME_DIR`` where there is one (the service's own), else the temp folder."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = runtime if runtime and os.path.isdir(runtime) else None
    folder = tempfile.mkdtemp(prefix="kiosk-gnubg-", dir=base)  # made 0700, a name nobody had
    return os.path.join(folder, "socket")


class GnubgExternalEvaluator(PlyEvaluator):
    """GNU Backgammon's evaluation at ``plies``, from one long-running ``gnubg`` process."""

    name = "gnubg"
    evaluates_elsewhere = True  # its work does not hold up this process's threads

    def __init__(
        self,
        plies: int = 1,
        program: str | None = None,
        timeout: float = 30.0,
        start_timeout: float = 60.0,
        settings: tuple[str, ...] = (),
    ) -> None:
        if not 0 <= plies <= 3:
            raise ValueError(f"plies are 0 to 3, not {plies}")
        found = program or find_program()
        if not found:
            raise EvaluatorError("GNU Backgammon (gnubg) is not installed")
        self.program = found
        self.plies = plies
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.settings = settings  # gnubg commands given before it listens, e.g. "set jacoby off"
        self.interface: int | None = None
        self._process: subprocess.Popen[Any] | None = None
        self._socket: socket.socket | None = None
        self._socket_path: str | None = None
        self._reader: TextIO | None = None
        self._lock = threading.Lock()

    # -- the process -----------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The process id of the running gnubg, if one runs."""
        return self._process.pid if self._process and self._process.poll() is None else None

    def _start(self) -> None:
        self._stop()
        path = private_socket_path()
        self._socket_path = path
        try:
            process = subprocess.Popen(
                [self.program, "-t", "-q"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        except OSError as err:
            raise EvaluatorError(f"cannot start {self.program}: {err}") from err
        self._process = process
        assert process.stdin is not None
        try:
            for command in self.settings:
                process.stdin.write(f"{command}\n")
            process.stdin.write(f"external {path}\n")
            process.stdin.flush()
        except OSError as err:
            self._stop()
            raise EvaluatorError(f"{self.program} stopped while starting") from err
        deadline = time.monotonic() + self.start_timeout
        while True:
            if process.poll() is not None:
                self._stop()
                raise EvaluatorError(f"{self.program} stopped while starting")
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.settimeout(self.timeout)
            try:
                conn.connect(path)
                break
            except OSError:
                conn.close()
                if time.monotonic() > deadline:
                    self._stop()
                    raise EvaluatorError(
                        f"{self.program} did not open its external socket in time"
                    ) from None
                time.sleep(0.05)
        conn.settimeout(self.timeout)
        self._socket = conn
        self._reader = conn.makefile("r", encoding="ascii", newline="\n")
        # "version" answers four lines: Interface, RFBF, Engine and Software.
        answer = self._ask("version", lines=4)
        if not answer.startswith("Interface:"):
            self._stop()
            raise EvaluatorError(f"{self.program} answered {answer!r} to 'version'")
        self.interface = int(answer.splitlines()[0].split(":", 1)[1])

    def _stop(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.sendall(b"exit\n")
            with contextlib.suppress(OSError):
                self._socket.close()
        self._socket = self._reader = None
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        path, self._socket_path = self._socket_path, None
        if path is not None:  # the socket and its private folder go with the process
            with contextlib.suppress(OSError):
                os.unlink(path)
            with contextlib.suppress(OSError):
                os.rmdir(os.path.dirname(path))

    def _ask(self, line: str, lines: int = 1) -> str:
        """Send one line and read gnubg's answer of ``lines`` lines (the caller holds the lock)."""
        assert self._socket is not None and self._reader is not None
        answer = ""
        try:
            self._socket.sendall(line.encode("ascii") + b"\n")
            for _ in range(lines):
                part = self._reader.readline()
                if not part:
                    raise _ConnectionLost("GNU Backgammon closed the connection")
                answer += part
        except TimeoutError as err:
            self._stop()
            raise EvaluatorError(f"GNU Backgammon gave no answer in {self.timeout} s") from err
        except (OSError, ValueError) as err:
            self._stop()
            raise _ConnectionLost(f"GNU Backgammon did not answer: {err}") from err
        except _ConnectionLost:
            self._stop()
            raise
        answer = answer.strip()
        if answer.startswith("Error"):
            raise EvaluatorError(f"GNU Backgammon refused {line[:40]!r}...: {answer}")
        return answer

    def request(self, line: str) -> str:
        """One line to gnubg and its answer, starting (or restarting) gnubg if need be.

        If the connection is lost (gnubg died), gnubg is started again and asked once more.
        """
        with self._lock:
            for attempt in (1, 2):
                if self._process is None or self._process.poll() is not None:
                    self._start()
                try:
                    return self._ask(line)
                except _ConnectionLost:
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    # -- evaluation --------------------------------------------------------------------

    def _equity(self, after: Position, plies: int) -> float:
        answer = self.request(evaluation_request(after, plies))
        try:
            return -float(answer.split()[5])
        except (IndexError, ValueError):
            raise EvaluatorError(f"GNU Backgammon answered {answer!r} to an evaluation") from None

    def chances(self, position: Position) -> tuple[float, ...]:
        """The five chances of the side on roll in ``position`` at ``plies``."""
        answer = self.request(evaluation_request(position, self.plies))
        return tuple(float(x) for x in answer.split()[:5])

    def best_move(self, position: Position, d1: int, d2: int) -> str:
        """GNU Backgammon's own choice for the roll, in its notation (its global settings)."""
        return self.request(fibs_board(position, (d1, d2)))

    def close(self) -> None:
        """Stop the gnubg process."""
        with self._lock:
            self._stop()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stop()
