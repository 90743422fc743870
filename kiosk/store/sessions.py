"""Sessions of several games kept with their match, so they survive a restart.

A match, money session, rubber, set (:class:`kiosk.rules.session.Session`) or chouette
(:class:`kiosk.rules.chouette.Chouette`) is saved as one JSON row beside its match after
every game and read back after a power cut.

>>> import tempfile, os
>>> from kiosk.rules import WHITE, Result
>>> from kiosk.store import Store
>>> folder = tempfile.mkdtemp()
>>> with Store(os.path.join(folder, "table.sqlite3")) as store:
...     match, session = start_session(store, Session.match(5))
...     keep_session(store, match, session.record(WHITE, Result.GAMMON))
>>> with Store(os.path.join(folder, "table.sqlite3")) as store:
...     match_id, again = resume_session(store)
...     again.score, again.length, match_id == match
((2, 0), 5, True)
"""

from __future__ import annotations

from kiosk.rules.chouette import Chouette, ChouetteError
from kiosk.rules.session import Session, SessionError
from kiosk.store.store import Store, StoreError

CHOUETTE = "chouette"


def start_session(store: Store, session: Session | Chouette) -> tuple[int, Session | Chouette]:
    """Open a match row for a new session and keep its state; the match id and the session."""
    if isinstance(session, Chouette):
        match_id = store.new_match(0, session.profile.name)
    else:
        match_id = store.new_match(session.length, session.profile.name)
    keep_session(store, match_id, session)
    return match_id, session


def keep_session(store: Store, match_id: int, session: Session | Chouette) -> None:
    """Save the session's state now (after each game, or each cube action in a chouette)."""
    kind = CHOUETTE if isinstance(session, Chouette) else str(session.kind)
    store.save_session(match_id, kind, session.to_json())


def load_session(store: Store, match_id: int) -> Session | Chouette | None:
    """The session kept for a match, if any (:class:`StoreError` if its state is damaged)."""
    kept = store.session(match_id)
    if kept is None:
        return None
    kind, state = kept
    try:
        return Chouette.from_json(state) if kind == CHOUETTE else Session.from_json(state)
    except (SessionError, ChouetteError) as err:
        raise StoreError(f"the session of match {match_id} cannot be resumed: {err}") from None


def resume_session(store: Store) -> tuple[int, Session | Chouette] | None:
    """The most recently saved session that is still going on, with its match id."""
    last = store.last_session()
    if last is None:
        return None
    match_id = last[0]
    session = load_session(store, match_id)
    if isinstance(session, Session):
        counted_once(store, match_id, session)
    if session is None or (isinstance(session, Session) and session.over):
        return None
    return match_id, session


def counted_once(store: Store, match_id: int, session: Session) -> None:
    """Make ``session`` count only the games the store saw end. The session's state is
    written before its game's ``game-over``: after a power cut between the two, the game is
    resumed unfinished and will be counted when it ends, so the count made for it is
    dropped here."""
    games = store.games(match_id)
    if not games or games[-1].finished is not None:
        return  # no game of the match under way: nothing can be counted ahead of the store
    ended = sum(1 for game in games if game.winner is not None)
    if len(session.games) > ended:
        del session.games[ended:]
