"""The application as ``kiosk run`` builds it, for ``kiosk run`` and for everything that
must behave as the table people use does (the app's and the companion's tests, the soak).

:func:`open_records` opens the records as the table keeps them: the store behind its
writer thread (:class:`~kiosk.store.StoreWriter`), so that the loop never waits on the
disk. :func:`build_app` makes the :class:`~kiosk.app.main.App` over those records and a
link, and attaches the class companion when ``[companion] enabled``. A method the
companion or the app calls on the records and the writer lacks fails in every test built
this way, as it would at the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.app.main import App
    from kiosk.config import Config
    from kiosk.link import QueueListener, TableLink
    from kiosk.store import StoreWriter


def open_records(config: Config) -> tuple[StoreWriter | None, str]:
    """The records at ``[store] path`` (or ``$BACKGAMMON_TABLE_DB``) behind their writer
    thread, or None and why not, in words."""
    from kiosk.app.doctor import store_path
    from kiosk.store import StoreWriter

    path = store_path(config)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return StoreWriter.open(path), ""  # a file found damaged: kept aside, a new one made
    except Exception as err:  # the store says what is wrong in words; never a traceback
        return None, str(err)


def build_app(
    config: Config,
    *,
    link: TableLink,
    listener: QueueListener,
    clock: Callable[[], float] = time.monotonic,
    **parts: Any,
) -> App:
    """The table's application over ``link``, with its records opened by
    :func:`open_records` and the class companion attached if it is switched on (its clock,
    in seconds, is ``clock``). ``parts`` are the rest of :class:`~kiosk.app.main.App`'s
    keywords (the display, the speaker, the controls...)."""
    from kiosk.app.main import App

    store, problem = open_records(config)
    app = App(config, link=link, listener=listener, store=store, store_problem=problem, **parts)
    if config.companion.enabled:  # the class companion's web pages (aiohttp loaded only then)
        from kiosk.app.companion import attach

        attach(app, clock)
    return app
